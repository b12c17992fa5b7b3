import type { INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_RETRY,
	DEFAULT_RUN_SETTINGS,
	MAX_ATTEMPTS,
	MAX_CONCURRENCY,
	MIN_TIMEOUT_MS,
	MAX_PAGES_SIDE_BY_SIDE,
} from '../../transport/settings';

/**
 * The parameters more than one operation (or both nodes) show, each written once. The logic that reads them lives in
 * helpers/ (parameters, deduplication, batching) and in the operations.
 */

/** The panel's defaults, from the transport's one home for them (n8n's lint takes a name or a literal here). */
const DEFAULT_CONCURRENCY = DEFAULT_RUN_SETTINGS.concurrency;
const DEFAULT_MAX_ATTEMPTS = DEFAULT_RETRY.maxAttempts;
const DEFAULT_MAX_LIST_MEGABYTES = DEFAULT_RUN_SETTINGS.maxListBytes / (1024 * 1024);
const DEFAULT_MAX_RECORDS = DEFAULT_RUN_SETTINGS.maxRecords;
const DEFAULT_RETRY_BUDGET_SECONDS = DEFAULT_RETRY.maxTotalWaitMs / 1000;
const DEFAULT_TIMEOUT_SECONDS = DEFAULT_RETRY.timeoutMs / 1000;

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

/** The collections of optional fields, by parameter name: the name the panel shows, and its add button. */
const COLLECTIONS = {
	additionalFields: ['Additional Fields', 'Add Field'],
	filters: ['Filters', 'Add Filter'],
	options: ['Options', 'Add option'],
	orderOptions: ['Options', 'Add option'],
	requestOptions: ['Request Options', 'Add option'],
};

export const collection = (
	name: keyof typeof COLLECTIONS,
	options: INodeProperties[],
): INodeProperties => ({
	displayName: COLLECTIONS[name][0],
	name,
	type: 'collection',
	placeholder: COLLECTIONS[name][1],
	default: {},
	options,
});

/** The E.164 phone field. */
export const phoneField: INodeProperties = {
	displayName: 'Phone',
	name: 'phone',
	type: 'string',
	default: '',
	placeholder: '+4915123456789',
	description: 'Mobile number in E.164 format: a plus, the country code and the number',
	hint: 'E.164: a plus, the country code and the number, e.g. +4915123456789',
};

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
export const contactIdField: INodeProperties = {
	displayName: 'Contact ID',
	name: 'contactId',
	type: 'string',
	default: '',
	placeholder: '123',
	description: "ID of the customer in the service's contacts (a whole number)",
};

/** "Custom Fields": any other field of the record by its API name. */
export const customFieldsOption = (record: string, exampleName: string): INodeProperties => ({
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
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: exampleName,
				},
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
});

/**
 * Shown on every operation (helpers/parameters.ts readRequestOptions reads it): how hard to retry when the service rate-limits or
 * is briefly unavailable, how long one attempt may take, how much runs at once, how long a list may be. The
 * defaults and bounds are the transport's own (transport/settings.ts).
 */
export const requestOptions = collection('requestOptions', [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
		default: DEFAULT_CONCURRENCY,
		description: `How many requests may be in flight at once (a list's pages: at most ${MAX_PAGES_SIDE_BY_SIDE}); items of one order, cart, product or recipient still go in input order`,
	},
	{
		displayName: 'Max Attempts',
		name: 'maxAttempts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_ATTEMPTS, numberPrecision: 0 },
		default: DEFAULT_MAX_ATTEMPTS,
		description:
			'How many times a request may be sent in all when rate-limited (429), briefly unavailable or timed out',
	},
	{
		displayName: 'Max List Size (MB)',
		name: 'maxListMegabytes',
		type: 'number',
		typeOptions: { minValue: 0.001 },
		default: DEFAULT_MAX_LIST_MEGABYTES,
		description:
			'The most memory a whole list may take, as the size of the answers read, pages in flight included; a larger one fails with an error',
	},
	{
		displayName: 'Max Records',
		name: 'maxRecords',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_MAX_RECORDS,
		description:
			'The most records a whole list may hold (Return All, a trigger poll); a longer one fails with an error',
	},
	{
		displayName: 'Retry Budget (Seconds)',
		name: 'maxRetryWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: DEFAULT_RETRY_BUDGET_SECONDS,
		description:
			'Longest time one request may take, all attempts and waits included; a longer Retry-After fails the item at once',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: MIN_TIMEOUT_MS / 1000 },
		default: DEFAULT_TIMEOUT_SECONDS,
		description:
			'Longest time one attempt may take; a read, update or delete that times out is tried again within the Retry Budget',
	},
]);

/**
 * The picker of one existing record, `templateId` or `productId`: from the list its search method reads
 * (`templateSearch`, `productSearch` in methods.ts), or typed as its ID (`id`: the By ID field's placeholder and hint).
 */
const recordLocator = (
	record: 'template' | 'product',
	displayName: string,
	description: string,
	id: { placeholder: string; hint: string },
): INodeProperties => ({
	displayName,
	name: `${record}Id`,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: `Select a ${record}...`,
			typeOptions: { searchListMethod: `${record}Search`, searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', ...id },
	],
});

/** The template picker of every operation that acts on one existing template. */
export const templateLocator = recordLocator('template', 'Template', 'The WhatsApp template (v2)', {
	placeholder: 'e.g. 42',
	hint: 'From Create Draft or Get Many, e.g. {{ $json.id }}',
});

/** The product to act on: picked from the shop's catalogue (searchable) or typed as the shop's productId. */
export const productLocator = recordLocator(
	'product',
	'Product',
	"The product, by the shop's productId",
	{ placeholder: 'e.g. 1001', hint: "The shop's productId, as given at Create" },
);

/** Rule L2: even without the option, bulk sends go out 50 items per second. */
export const DEFAULT_BATCH_SIZE = 50;
export const DEFAULT_BATCH_INTERVAL_MS = 1000;

/** Rule L2: the Batching option of a bulk send (inside the operation's `options`), read by helpers/batching.ts. */
export const batchingOption: INodeProperties = {
	displayName: 'Batching',
	name: 'batching',
	placeholder: 'Add Batching',
	type: 'fixedCollection',
	typeOptions: { multipleValues: false },
	default: { batch: {} },
	description:
		'Send items in batches with a pause between them; on by default, 50 items per second',
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
					default: DEFAULT_BATCH_SIZE,
					description: 'How many items to send before pausing',
				},
				{
					displayName: 'Batch Interval (Ms)',
					name: 'batchInterval',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: DEFAULT_BATCH_INTERVAL_MS,
					description: 'Pause between two batches, in milliseconds',
				},
			],
		},
	],
};

export const DEFAULT_WINDOW_HOURS = 24;

/** The Options of a push operation, its Deduplicate options; `keyDescription` says what makes two events the same. */
export const deduplicationOptions = (keyDescription: string) =>
	collection('options', [
		{
			displayName: 'Deduplicate',
			name: 'deduplicate',
			type: 'boolean',
			default: true,
			description: `Whether to skip an event with ${keyDescription} the service already accepted from this account within the window, so re-runs never send it twice; it is output with skipped: true. Holds in one n8n process and, for active workflows, across restarts; across workers only with Deduplicate Across Workers.`,
		},
		{
			displayName: 'Deduplicate Across Workers',
			name: 'deduplicateAcrossWorkers',
			type: 'boolean',
			default: false,
			description:
				"Whether to also claim each event in n8n's shared database first, so none goes out twice in queue mode or with several main instances. Costs each sending execution up to a second and three writes of at most 100 KB. Only with Deduplicate on.",
		},
		{
			displayName: 'Deduplication Window (Hours)',
			name: 'deduplicationWindowHours',
			type: 'number',
			typeOptions: { minValue: 0.01 },
			default: DEFAULT_WINDOW_HOURS,
			placeholder: '24',
			description: 'How long an accepted event blocks the same event, when Deduplicate is on',
		},
	]);
