import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_LIST_BYTES, DEFAULT_MAX_RECORDS, DEFAULT_RETRY, DEFAULT_CONCURRENCY, MAX_ATTEMPTS, MAX_CONCURRENCY, MIN_TIMEOUT_MS, MAX_PAGES_SIDE_BY_SIDE } from '../../transport/settings';

/**
 * The parameters more than one operation (or both nodes) show, each written once. The logic that reads them lives in
 * helpers/ (parameters, deduplication, batching) and in the operations.
 */

/** Return All + Limit, the n8n way, for every list operation. */
export const returnAllOrLimit: INodeProperties[] = [
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

/** The E.164 phone field. `inCollection`: an option of a collection (never required there, a shorter hint). */
export function phoneField(overrides: { name?: string; displayName?: string; description?: string; required?: boolean; inCollection?: boolean } = {}): INodeProperties {
	const { inCollection, required, ...names } = overrides;
	return {
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		placeholder: '+4915123456789',
		description: 'Mobile number in international E.164 format (plus, country code, number)',
		hint: inCollection ? 'E.164, e.g. +4915123456789' : 'E.164: a plus, the country code and the number, no spaces or dashes (e.g. +4915123456789)',
		...(required && !inCollection ? { required: true } : {}),
		...names,
	};
}

/** The currency of a shop event's total. */
export const currencyField: INodeProperties = {
	displayName: 'Currency',
	name: 'currency',
	type: 'string',
	default: '',
	placeholder: 'EUR',
	description: 'Currency of the total, as an ISO 4217 code',
};

/** The customer of a shop event, as a contact of the service (a whole number). */
export const contactIdField = (description: string): INodeProperties => ({ displayName: 'Contact ID', name: 'contactId', type: 'string', default: '', placeholder: '123', description });

/** "Custom Fields": any other field of the record by its API name. */
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

/**
 * Shown on every operation (helpers/parameters.ts readRequestOptions reads it): how hard to retry when the service rate-limits or
 * is briefly unavailable, how long one attempt may take, how much runs at once, how long a list may be. The
 * defaults and bounds are the transport's own (transport/settings.ts).
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
			description: `How many items' requests may be in flight at once (for a list: how many of its pages, at most ${MAX_PAGES_SIDE_BY_SIDE}). Items of one order, cart, product or recipient still go one after the other, in input order. 1 sends one request at a time.`,
		},
		{
			displayName: 'Max Attempts',
			name: 'maxAttempts',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_ATTEMPTS, numberPrecision: 0 },
			default: DEFAULT_RETRY.maxAttempts,
			description: 'How many times a request may be sent in all when the service answers 429 (rate limited), is briefly unavailable or times out',
		},
		{
			displayName: 'Max List Size (MB)',
			name: 'maxListMegabytes',
			type: 'number',
			typeOptions: { minValue: 0.001 },
			default: DEFAULT_MAX_LIST_BYTES / (1024 * 1024),
			description:
				'The most a whole list may take in memory, counted as the size of the answers read, the pages in flight included (Return All, a Limit, or what a trigger poll reads). A larger list fails with an error naming this limit; raise it for lists of large records.',
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
			default: DEFAULT_RETRY.maxTotalWaitMs / 1000,
			description: 'Longest time one request may take in all: its attempts and the waits between them. A Retry-After longer than what is left fails the item at once.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: MIN_TIMEOUT_MS / 1000 },
			default: DEFAULT_RETRY.timeoutMs / 1000,
			description:
				'Longest time one attempt may take, from connecting to the last byte of the answer; a login gets as long again. A request that may be repeated safely (a read, an update, a delete) is then tried again within the retry budget.',
		},
	],
};

/** The template picker of every operation that acts on one existing template. */
export const templateLocator: INodeProperties = {
	displayName: 'Template',
	name: 'templateId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The WhatsApp template (v2) to use',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a template...',
			typeOptions: { searchListMethod: 'templateSearch', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 42',
			hint: 'The template ID returned by Create Draft or Get Many, e.g. {{ $json.id }}',
		},
	],
};

/** The product to act on: picked from the shop's catalogue (searchable) or typed as the shop's productId. */
export const productLocator: INodeProperties = {
	displayName: 'Product',
	name: 'productId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The product, by the productId the shop gave it',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a product...',
			typeOptions: { searchListMethod: 'productSearch', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1001', hint: "The shop's productId, as used when the product was created" },
	],
};

/** Rule L2: even without the option, bulk sends go out 50 items per second. */
export const DEFAULT_BATCHING = { batchSize: 50, batchIntervalMs: 1000 };

/** Rule L2: the Batching option of a bulk send (inside the operation's `options`), read by helpers/batching.ts. */
export const batchingOption: INodeProperties = {
	displayName: 'Batching',
	name: 'batching',
	placeholder: 'Add Batching',
	type: 'fixedCollection',
	typeOptions: { multipleValues: false },
	default: { batch: {} },
	description: 'Send the items in batches with a pause between batches, so a bulk send never hits the service all at once. On by default: 50 items per second.',
	options: [
		{
			displayName: 'Batching',
			name: 'batch',
			values: [
				{
					displayName: 'Items per Batch',
					name: 'batchSize',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: DEFAULT_BATCHING.batchSize,
					description: 'How many items to send before pausing',
				},
				{
					displayName: 'Batch Interval (Ms)',
					name: 'batchInterval',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: DEFAULT_BATCHING.batchIntervalMs,
					description: 'Pause between two batches, in milliseconds (1000 = one second)',
				},
			],
		},
	],
};

export const DEFAULT_WINDOW_HOURS = 24;

/** The Deduplicate options of a push operation; `keyDescription` says what makes two events the same. */
export const deduplicationOptions = (keyDescription: string): INodeProperties[] => [
	{
		displayName: 'Deduplicate',
		name: 'deduplicate',
		type: 'boolean',
		default: true,
		description: `Whether to skip an event the service already accepted through this credential's account with ${keyDescription} within the deduplication window, so retries and re-runs do not send it twice. A skipped item is still output, with skipped: true. It holds across executions running in the same n8n process, and across restarts for active workflows (n8n saves node state only for them); across queue-mode workers only with Deduplicate Across Workers.`,
	},
	{
		displayName: 'Deduplication Window (Hours)',
		name: 'deduplicationWindowHours',
		type: 'number',
		typeOptions: { minValue: 0.01 },
		default: DEFAULT_WINDOW_HOURS,
		placeholder: '24',
		description: 'How long an accepted event blocks the same event. Used only when Deduplicate is on.',
	},
	{
		displayName: 'Deduplicate Across Workers',
		name: 'deduplicateAcrossWorkers',
		type: 'boolean',
		default: false,
		description:
			"Whether to also claim each event in n8n's database, which all n8n processes share, before sending it. Turn it on when n8n runs in queue mode (workers) or with several main instances: without it, an event delivered twice at the same moment to two workers, or again after another worker sent it, can go out twice. It costs each execution that sends events about half a second to a second (not per event) and three writes of a row of at most 100 KB in n8n's database. Not needed in a single n8n process. Used only when Deduplicate is on.",
	},
];
