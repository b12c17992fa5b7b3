import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, DEFAULT_MAX_RECORDS, MAX_CONCURRENCY } from '../../../transport/settings';

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
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/**
 * The E.164 phone field, read by helpers/parameters.ts readPhone. `inCollection`: an option of a collection
 * (never required there, and a short hint, as collections leave less room).
 */
export function phoneField(
	overrides: { name?: string; displayName?: string; description?: string; required?: boolean; inCollection?: boolean } = {},
): INodeProperties {
	const { inCollection, required, ...names } = overrides;
	return {
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		placeholder: '+4915123456789',
		description: 'Mobile number in international E.164 format (plus, country code, number)',
		hint: inCollection
			? 'E.164, e.g. +4915123456789'
			: 'E.164: a plus, the country code and the number, no spaces or dashes (e.g. +4915123456789)',
		...(required && !inCollection ? { required: true } : {}),
		...names,
	};
}

/** The currency of a shop event's total (Order > Push Event, Cart > Push Abandoned Cart). */
export const currencyField: INodeProperties = {
	displayName: 'Currency',
	name: 'currency',
	type: 'string',
	default: '',
	placeholder: 'EUR',
	description: 'Currency of the total, as an ISO 4217 code',
};

/** The customer of a shop event, as a contact of the service (read as a whole number by helpers/eventPush.ts). */
export function contactIdField(description: string): INodeProperties {
	return { displayName: 'Contact ID', name: 'contactId', type: 'string', default: '', placeholder: '123', description };
}

/**
 * Shown on every operation: how hard to retry when the service rate-limits or is briefly unavailable, how long one
 * attempt may take, how much runs at once, and how long a list may be. Read once per run (helpers/requestSettings.ts).
 */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
			default: DEFAULT_CONCURRENCY,
			description:
				"How many items' requests may be in flight at once (for a list: how many of its pages, at most 8). Items of one order, cart, product or recipient still go one after the other, in input order. 1 sends one request at a time.",
		},
		{
			displayName: 'Max Attempts',
			name: 'maxAttempts',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 20 },
			default: 8,
			description:
				'How many times a request may be sent in all when the service answers 429 (rate limited), is briefly unavailable or times out',
		},
		{
			displayName: 'Max List Size (MB)',
			name: 'maxListMegabytes',
			type: 'number',
			typeOptions: { minValue: 0.001 },
			default: 256,
			description:
				'The most a whole list may take in memory, counted as the size of the answers read (Return All, a Limit, or what a trigger poll reads). A larger list fails with an error naming this limit; raise it for lists of large records.',
		},
		{
			displayName: 'Max Records',
			name: 'maxRecords',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: DEFAULT_MAX_RECORDS,
			description:
				'The most records a whole list may hold (Return All, or what a trigger poll reads). A longer list fails with an error naming this limit instead of filling memory; raise it for larger lists.',
		},
		{
			displayName: 'Retry Budget (Seconds)',
			name: 'maxRetryWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 120,
			description:
				'Longest time one request may take in all: its attempts and the waits between them. A Retry-After longer than what is left fails the item at once.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			description:
				'Longest time one attempt may take, from connecting to the last byte of the answer; a login gets as long again. A request that may be repeated safely (a read, an update, a delete) is then tried again within the retry budget.',
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
