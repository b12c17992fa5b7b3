import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptions } from './actions/common.descriptions';
import { resourceDescriptions } from './actions/operations';
import { router } from './actions/router';
import { methods } from './methods';

export class CommerceMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Commerce Messaging',
		name: 'commerceMessaging',
		icon: { light: 'file:commerceMessaging.svg', dark: 'file:commerceMessaging.dark.svg' },
		group: ['transform'],
		version: 1,
		// "operation: resource" with the names the panel shows ("Push Event: Order"), not the raw values. The maps
		// are flat object literals: a "}}" inside would end the expression early.
		subtitle:
			'={{ ({"create":"Create","createInstance":"Create Instance","delete":"Delete","get":"Get","getAll":"Get Many","getHistory":"Get History","pushAbandoned":"Push Abandoned","pushEvent":"Push Event","request":"API Call","send":"Send","submit":"Submit","update":"Update","upload":"Upload","waitForApproval":"Wait for Approval"}[$parameter["operation"]] || $parameter["operation"]) + ": " + ({"automation":"Automation","cart":"Cart","contact":"Contact","customApiCall":"Other Endpoint","media":"Media","message":"Message","order":"Order","product":"Product","template":"Template"}[$parameter["resource"]] || $parameter["resource"]) }}',
		description:
			'Send WhatsApp messages and templates, sync contacts, orders, abandoned carts and products with a conversational-marketing service for online shops',
		defaults: { name: 'Commerce Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'commerceMessagingApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				// n8n itself appends a "Custom API Call" entry (the HTTP Request node with this credential) to the
				// Resource and Operation lists of every node whose credential has `authenticate`; this node's own
				// any-path call is named differently so the list never shows two "Custom API Call" entries.
				options: [
					{ name: 'Automation', value: 'automation' },
					{ name: 'Cart', value: 'cart' },
					{ name: 'Contact', value: 'contact' },
					{ name: 'Media', value: 'media' },
					{ name: 'Message', value: 'message' },
					{ name: 'Order', value: 'order' },
					{
						name: 'Other Endpoint',
						value: 'customApiCall',
						description: "Call any path of the service with this node's login, error handling, retries and paging",
					},
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
