import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as request from './request.operation';

export const operations: ResourceOperations<'customApiCall'> = { request };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['customApiCall'] } },
		options: [
			{
				name: 'Make an API Call',
				value: 'request',
				description:
					'Call any endpoint of the service with the same login, error handling and retries, e.g. for SMS, message history or the user profile',
				action: 'Make an API call to any endpoint',
			},
		],
		default: 'request',
	},
	...request.description,
];
