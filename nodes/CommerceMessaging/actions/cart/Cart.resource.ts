import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as pushAbandoned from './pushAbandoned.operation';

export const operations: ResourceOperations<'cart'> = { pushAbandoned };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['cart'] } },
		options: [
			{
				name: 'Push Abandoned Cart',
				value: 'pushAbandoned',
				description:
					'Tell the service a cart was abandoned (cart ID and total), so its recovery automation contacts the customer. The same cart and total is sent once.',
				action: 'Push an abandoned cart event',
			},
		],
		default: 'pushAbandoned',
	},
	...pushAbandoned.description,
];
