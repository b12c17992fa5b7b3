import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as create from './create.operation';
import * as deleteProduct from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const operations: ResourceOperations<'product'> = { create, delete: deleteProduct, get, getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['product'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: "Add a product to the catalogue under the shop's productId",
				action: 'Create a product',
			},
			{ name: 'Delete', value: 'delete', description: 'Remove a product from the catalogue', action: 'Delete a product' },
			{ name: 'Get', value: 'get', description: 'Get a product by its productId', action: 'Get a product' },
			{ name: 'Get Many', value: 'getAll', description: 'List the products of the catalogue', action: 'Get many products' },
			{
				name: 'Update',
				value: 'update',
				description: 'Change some fields of a product',
				action: 'Update a product',
			},
		],
		default: 'create',
	},
	...create.description,
	...deleteProduct.description,
	...get.description,
	...getAll.description,
	...update.description,
];
