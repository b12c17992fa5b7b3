import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { requestOptions } from './actions/common.descriptions';
import { resourceDescriptions } from './actions/operations';
import { router } from './actions/router';
import { methods } from './methods';

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
				options: [
					{ name: 'Automation', value: 'automation' },
					{ name: 'Cart', value: 'cart' },
					{ name: 'Contact', value: 'contact' },
					{ name: 'Custom API Call', value: 'customApiCall' },
					{ name: 'Media', value: 'media' },
					{ name: 'Message', value: 'message' },
					{ name: 'Order', value: 'order' },
					{ name: 'Product', value: 'product' },
					{ name: 'Template', value: 'template' },
				],
				default: 'contact',
			},
			...resourceDescriptions,
			requestOptions,
		],
	};

	methods = methods;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
