import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as getHistory from './getHistory.operation';
import * as pushEvent from './pushEvent.operation';

export const operations: ResourceOperations<'order'> = { getHistory, pushEvent };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Get History',
				value: 'getHistory',
				description: 'Get past orders synced to the service, newest first',
				action: 'Get order history',
			},
			{
				name: 'Push Event',
				value: 'pushEvent',
				description: 'Tell the service an order was placed or changed status, e.g. to start an "order paid" automation',
				action: 'Push an order event',
			},
		],
		default: 'pushEvent',
	},
	...pushEvent.description,
	...getHistory.description,
];
