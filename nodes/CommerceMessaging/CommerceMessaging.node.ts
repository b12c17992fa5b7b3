import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { requestOptions } from './actions/common.descriptions';
import * as contact from './actions/contact/Contact.resource';
import { router } from './actions/router';

export class CommerceMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Commerce Messaging',
		name: 'commerceMessaging',
		icon: 'file:commerceMessaging.svg',
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Send WhatsApp messages and templates, sync contacts, orders, abandoned carts and products with a conversational-marketing service for online shops',
		defaults: { name: 'Commerce Messaging' },
		usableAsTool: true,
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'commerceMessagingApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Contact', value: 'contact' }],
				default: 'contact',
			},
			...contact.description,
			requestOptions,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
