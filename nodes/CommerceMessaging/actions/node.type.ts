import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	contact: 'create' | 'getAll';
};

export type CommerceMessagingType = AllEntities<NodeMap>;
