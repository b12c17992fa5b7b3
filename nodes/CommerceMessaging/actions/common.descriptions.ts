import type { INodeProperties } from 'n8n-workflow';

/** Return All + Limit, the n8n way, for every list operation. */
export function returnAllOrLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Shown on every operation: how hard to retry when the service rate-limits or is briefly unavailable. */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Max Attempts',
			name: 'maxAttempts',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 20 },
			default: 5,
			description:
				'How many times a request may be sent in all when the service answers 429 (rate limited) or is briefly unavailable',
		},
		{
			displayName: 'Max Retry Wait (Seconds)',
			name: 'maxRetryWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 120,
			description:
				'Longest total time to wait between retries of one request. A Retry-After longer than what is left fails the item at once.',
		},
	],
};

/** "Custom Fields": any other field of the record by its API name, merged by helpers/parameters.ts withCustomFields. */
export function customFieldsOption(record: string, exampleName: string): INodeProperties {
	return {
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Custom Field',
		description: `Any other ${record} field the service accepts, by its API name`,
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: exampleName },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	};
}
