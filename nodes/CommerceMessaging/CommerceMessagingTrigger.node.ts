import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { eventProperties, pollEvents } from './trigger';

export class CommerceMessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Commerce Messaging Trigger',
		name: 'commerceMessagingTrigger',
		icon: 'file:commerceMessaging.svg',
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description:
			'Starts the workflow on a schedule when contacts, orders or products are new in the conversational-marketing service, or when a WhatsApp template review finishes',
		defaults: { name: 'Commerce Messaging Trigger' },
		// n8n adds the Poll Times parameter (the schedule) to polling nodes.
		polling: true,
		inputs: [],
		outputs: ['main'],
		credentials: [{ name: 'commerceMessagingApi', required: true }],
		// A copy: n8n's loader adds its polling parameters to this array.
		properties: [...eventProperties],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollEvents.call(this);
	}
}
