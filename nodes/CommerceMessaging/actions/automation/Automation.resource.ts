import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as createInstance from './createInstance.operation';

export const operations: ResourceOperations<'automation'> = { createInstance };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['automation'] } },
		options: [
			{
				name: 'Create Instance',
				value: 'createInstance',
				description:
					'Start an automation flow (by its numeric ID) for an external event, such as an order paid, a cart abandoned or a CRM tag added, with a JSON payload',
				action: 'Start an automation instance',
			},
		],
		default: 'createInstance',
	},
	...createInstance.description,
];
