import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as create from './create.operation';
import * as getAll from './getAll.operation';

export const operations: ResourceOperations<'contact'> = { create, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Create a contact', action: 'Create a contact' },
			{ name: 'Get Many', value: 'getAll', description: 'Get many contacts', action: 'Get many contacts' },
		],
		default: 'create',
	},
	...create.description,
	...getAll.description,
];
