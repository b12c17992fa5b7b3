import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as send from './send.operation';

export const operations: ResourceOperations<'message'> = { send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: [
			{
				name: 'Send WhatsApp',
				value: 'send',
				description:
					'Send a free-text WhatsApp message to one phone number (E.164). Use it to reply within a conversation; to start one, send an approved template.',
				// The brand is spelled WhatsApp; the rule's sentence case would turn it into "whats app".
				// eslint-disable-next-line n8n-nodes-base/node-param-operation-option-action-miscased
				action: 'Send a WhatsApp message',
			},
		],
		default: 'send',
	},
	...send.description,
];
