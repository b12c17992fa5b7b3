/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IDataObject } from 'n8n-workflow';

import { forgetProcessState } from '../../nodes/CommerceMessaging/helpers/deduplication';
import { Engine, type InputItem, type RunResult } from '../../tools/harness/engine';
import { startHostile, type HostileServer } from '../../tools/harness/hostile';
import { PollHarness } from '../../tools/harness/poll';

/**
 * Every parameter of every operation (22) and of the trigger, given each value an expression may give it that does
 * not fit: an object, a list, a boolean, null, a number, empty text and spaces. A value of the wrong kind fails its
 * item (or, for a run-wide setting, the run) naming the field and what it got, before any request; a number given
 * to a text field goes out as its digits; no request ever carries "[object Object]" or a list joined by commas.
 *
 * The service here accepts everything (one success answer for every path), so whatever the node sends is seen.
 */

const VALUES = {
	object: '={{ { a: 1 } }}',
	array: '={{ [1, 2] }}',
	boolean: '={{ true }}',
	null: '={{ null }}',
	number: '={{ 12345 }}',
	// As expressions give them: n8n itself refuses a required field left empty before the node runs.
	empty: '={{ "" }}',
	spaces: '={{ "   " }}',
} as const;
type ValueName = keyof typeof VALUES;

/**
 * How a parameter reads: text (optional or required; `checked` when the node checks its text further, so digits
 * fail there), a number, a switch, one of a list, JSON, a date, a phone, an id picked or typed, a run-wide setting.
 */
type Kind =
	| 'text'
	| 'requiredText'
	| 'checkedText'
	| 'number'
	| 'requiredNumber'
	| 'boolean'
	| 'option'
	| 'jsonObject'
	| 'jsonArray'
	| 'jsonAny'
	| 'date'
	| 'phone'
	| 'requiredPhone'
	| 'locator'
	| 'setting';

/** What must happen: an error naming the field and the value's kind, any error of the item (or run), or success. */
type Expected = 'wrongKind' | 'error' | 'ok' | 'sentAsText' | 'okOrError';

function expected(kind: Kind, value: ValueName): Expected {
	const structured = value === 'object' || value === 'array';
	const blank = value === 'null' || value === 'empty' || value === 'spaces';
	switch (kind) {
		case 'boolean':
			return structured || value === 'number' ? 'wrongKind' : 'ok';
		case 'jsonObject':
			return value === 'object' || blank ? 'ok' : 'error';
		case 'jsonArray':
			return value === 'array' || blank ? 'ok' : 'error';
		case 'jsonAny':
			return structured || blank ? 'ok' : 'error';
		case 'setting':
			return structured || value === 'boolean' ? 'wrongKind' : 'ok';
		case 'option':
			return structured || value === 'boolean' ? 'wrongKind' : value === 'number' ? 'error' : 'ok';
	}
	if (structured || value === 'boolean') return 'wrongKind';
	const required =
		kind === 'requiredText' ||
		kind === 'requiredNumber' ||
		kind === 'requiredPhone' ||
		kind === 'locator' ||
		kind === 'checkedText';
	if (blank) return required ? 'error' : 'ok';
	// A number:
	if (kind === 'text' || kind === 'requiredText' || kind === 'locator') return 'sentAsText';
	if (kind === 'number' || kind === 'requiredNumber') return 'ok';
	if (kind === 'date') return 'okOrError';
	return 'error';
}

interface Param {
	/** The parameter's path; numbers index lists (`additionalFields.customFields.field.0.name`). */
	path: string;
	kind: Kind;
	/** How messages name the field ("the order ID must be ..."). */
	label: string;
}

interface OperationCase {
	name: string;
	base: IDataObject;
	params: Param[];
	items?: InputItem[];
}

const text = (path: string, label: string): Param => ({ path, kind: 'text', label });
const required = (path: string, label: string): Param => ({ path, kind: 'requiredText', label });
const checked = (path: string, label: string): Param => ({ path, kind: 'checkedText', label });
const number = (path: string, label: string): Param => ({ path, kind: 'number', label });
const requiredNumber = (path: string, label: string): Param => ({
	path,
	kind: 'requiredNumber',
	label,
});
const boolean = (path: string, label: string): Param => ({ path, kind: 'boolean', label });
const option = (path: string, label: string): Param => ({ path, kind: 'option', label });
const customFieldName = (collection: string): Param =>
	text(`${collection}.customFields.field.0.name`, 'custom field name');
const listParams = [boolean('returnAll', 'Return All'), requiredNumber('limit', 'Limit')];
const dedupParams = [
	boolean('options.deduplicate', 'Deduplicate'),
	requiredNumber('options.deduplicationWindowHours', 'deduplication window'),
	boolean('options.deduplicateAcrossWorkers', 'Deduplicate Across Workers'),
];
const batchingParams = [
	{
		path: 'options.batching.batch.batchSize',
		kind: 'setting',
		label: 'Options > Batching > Items per Batch',
	},
	{
		path: 'options.batching.batch.batchInterval',
		kind: 'setting',
		label: 'Options > Batching > Batch Interval (Ms)',
	},
] as Param[];
const byId = (value: unknown) => ({ __rl: true, mode: 'id', value });
const PHONE = '+4915123456789';

const OPERATIONS: OperationCase[] = [
	{
		name: 'Contact > Create',
		base: {
			resource: 'contact',
			operation: 'create',
			phone: PHONE,
			firstname: 'Ada',
			additionalFields: { customFields: { field: [{ name: 'city', value: 'Berlin' }] } },
		},
		params: [
			{ path: 'phone', kind: 'phone', label: 'phone' },
			text('firstname', 'first name'),
			text('lastname', 'last name'),
			text('email', 'email'),
			text('additionalFields.language', 'language'),
			text('additionalFields.tags', 'tags'),
			customFieldName('additionalFields'),
		],
	},
	{
		name: 'Contact > Get Many',
		base: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 5 },
		params: [...listParams, boolean('simplify', 'Simplify')],
	},
	{
		name: 'Message > Send WhatsApp',
		base: {
			resource: 'message',
			operation: 'send',
			phone: PHONE,
			message: 'Hello',
			additionalFields: { customFields: { field: [{ name: 'campaign', value: 'x' }] } },
		},
		params: [
			{ path: 'phone', kind: 'requiredPhone', label: 'phone' },
			required('message', 'message text'),
			number('additionalFields.contactId', 'contact ID'),
			text('additionalFields.externalId', 'external ID'),
			boolean('additionalFields.previewUrl', 'Preview URL'),
			customFieldName('additionalFields'),
			...batchingParams,
		],
	},
	{
		name: 'Template > Create Draft',
		base: {
			resource: 'template',
			operation: 'create',
			name: 'order_ok',
			body: 'Hi {{1}}',
			additionalFields: {
				footer: 'Bye',
				buttons: { button: [{ type: 'URL', text: 'Open', url: 'https://shop.example.com/a' }] },
			},
		},
		params: [
			text('name', 'template name'),
			text('language', 'language'),
			option('category', 'category'),
			text('body', 'body'),
			text('additionalFields.footer', 'footer'),
			option('additionalFields.headerType', 'Header Type'),
			required('additionalFields.buttons.button.0.text', 'button 1 text'),
			checked('additionalFields.buttons.button.0.url', 'button 1 URL'),
		],
	},
	...(['delete', 'get', 'submit'] as const).map((operation) => ({
		name: `Template > ${operation}`,
		base: { resource: 'template', operation, templateId: byId('7') },
		params: [{ path: 'templateId.value', kind: 'locator', label: 'template ID' } as Param],
	})),
	{
		name: 'Template > Get Many',
		base: {
			resource: 'template',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: { state: 'APPROVED' },
		},
		params: [...listParams, option('filters.state', 'state filter')],
	},
	{
		name: 'Template > Send',
		base: {
			resource: 'template',
			operation: 'send',
			templateId: byId('7'),
			phone: PHONE,
			headerMedia: 'mediaId',
			headerMediaId: 'media-7',
			options: { templateVariables: { variable: [{ value: 'Ada' }] } },
		},
		params: [
			{ path: 'templateId.value', kind: 'locator', label: 'template ID' },
			{ path: 'phone', kind: 'requiredPhone', label: 'phone' },
			required('options.templateVariables.variable.0.value', 'variable {{1}}'),
			required('headerMediaId', 'Header Media ID'),
			option('headerMedia', 'Header Media'),
			boolean('options.checkState', 'Check State Before Sending'),
			...batchingParams,
		],
	},
	{
		name: 'Template > Send (Variables as JSON)',
		base: { resource: 'template', operation: 'send', templateId: byId('7'), phone: PHONE },
		params: [{ path: 'options.variablesJson', kind: 'jsonAny', label: 'Variables (JSON)' }],
	},
	{
		name: 'Template > Wait for Approval',
		base: { resource: 'template', operation: 'waitForApproval', templateId: byId('7') },
		params: [
			{ path: 'templateId.value', kind: 'locator', label: 'template ID' },
			requiredNumber('initialInterval', 'Initial Interval'),
			requiredNumber('timeout', 'Timeout'),
			option('options.onRejection', 'On Rejection'),
		],
	},
	{
		name: 'Media > Upload',
		base: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
		items: [
			{
				json: {},
				binary: {
					data: {
						base64: Buffer.from('png').toString('base64'),
						fileName: 'a.png',
						mimeType: 'image/png',
					},
				},
			},
		],
		params: [
			checked('binaryPropertyName', 'Input Binary Field'),
			text('options.fileName', 'File Name'),
			boolean('options.keepBinary', 'Keep Binary Data'),
		],
	},
	{
		name: 'Media > Delete',
		base: { resource: 'media', operation: 'delete', mediaId: 'm-1' },
		params: [required('mediaId', 'media ID')],
	},
	{
		name: 'Order > Push Event',
		base: {
			resource: 'order',
			operation: 'pushEvent',
			orderId: 'ORD-1',
			status: 'paid',
			additionalFields: { customFields: { field: [{ name: 'shipping', value: 'x' }] } },
		},
		params: [
			required('orderId', 'order ID'),
			required('status', 'status'),
			number('additionalFields.contactId', 'contact ID'),
			{ path: 'additionalFields.createdAt', kind: 'date', label: 'created at date' },
			text('additionalFields.currency', 'currency'),
			text('additionalFields.customerEmail', 'customer email'),
			{ path: 'additionalFields.customerPhone', kind: 'phone', label: 'customer phone' },
			number('additionalFields.total', 'total'),
			customFieldName('additionalFields'),
			...dedupParams,
		],
	},
	{
		name: 'Order > Get History',
		base: { resource: 'order', operation: 'getHistory', returnAll: false, limit: 5 },
		params: [
			...listParams,
			{ path: 'filters.dateFrom', kind: 'date', label: 'Date From' },
			{ path: 'filters.dateTo', kind: 'date', label: 'Date To' },
			text('filters.status', 'status filter'),
		],
	},
	{
		name: 'Cart > Push Abandoned Cart',
		base: {
			resource: 'cart',
			operation: 'pushAbandoned',
			cartId: 'CART-1',
			total: 10,
			additionalFields: { customFields: { field: [{ name: 'coupon', value: 'x' }] } },
		},
		params: [
			required('cartId', 'cart ID'),
			requiredNumber('total', 'cart total'),
			number('customer.contactId', 'contact ID'),
			text('customer.email', 'customer email'),
			{ path: 'customer.phone', kind: 'phone', label: 'customer phone' },
			text('additionalFields.cartUrl', 'cart URL'),
			text('additionalFields.currency', 'currency'),
			{ path: 'additionalFields.lineItems', kind: 'jsonArray', label: 'the line items' },
			customFieldName('additionalFields'),
			...dedupParams,
		],
	},
	{
		name: 'Product > Create',
		base: {
			resource: 'product',
			operation: 'create',
			id: 'P-1',
			name: 'Mug',
			additionalFields: { customFields: { field: [{ name: 'stock', value: '1' }] } },
		},
		params: [
			required('id', 'Product ID'),
			required('name', 'name'),
			number('additionalFields.price', 'price'),
			text('additionalFields.sku', 'SKU'),
			customFieldName('additionalFields'),
		],
	},
	...(['get', 'delete'] as const).map((operation) => ({
		name: `Product > ${operation}`,
		base: { resource: 'product', operation, productId: byId('P-1') },
		params: [{ path: 'productId.value', kind: 'locator', label: 'product ID' } as Param],
	})),
	{
		name: 'Product > Update',
		base: {
			resource: 'product',
			operation: 'update',
			productId: byId('P-1'),
			updateFields: { sku: 'S-1', customFields: { field: [{ name: 'stock', value: '1' }] } },
		},
		params: [
			{ path: 'productId.value', kind: 'locator', label: 'product ID' },
			text('updateFields.name', 'name'),
			number('updateFields.price', 'price'),
			text('updateFields.sku', 'SKU'),
			customFieldName('updateFields'),
		],
	},
	{
		name: 'Product > Get Many',
		base: { resource: 'product', operation: 'getAll', returnAll: false, limit: 5 },
		params: listParams,
	},
	{
		name: 'Automation > Create Instance',
		base: {
			resource: 'automation',
			operation: 'createInstance',
			automationId: 12,
			payload: '{"a":1}',
		},
		params: [
			requiredNumber('automationId', 'automation ID'),
			boolean('useInputAsPayload', 'Use Input Item as Payload'),
			{ path: 'payload', kind: 'jsonObject', label: 'the payload' },
		],
	},
	{
		name: 'Other Endpoint > Make an API Call',
		base: {
			resource: 'customApiCall',
			operation: 'request',
			method: 'POST',
			path: '/api/anything/',
			jsonBody: '{"a":1}',
			queryParameters: { parameter: [{ name: 'q', value: 'v' }] },
		},
		params: [
			option('method', 'method'),
			checked('path', 'path'),
			required('queryParameters.parameter.0.name', 'query parameter name'),
			text('queryParameters.parameter.0.value', 'query parameter "q"'),
			{ path: 'jsonBody', kind: 'jsonAny', label: 'the JSON body' },
			option('options.response', 'Response'),
		],
	},
	{
		name: 'Other Endpoint > Make an API Call (paginated GET)',
		base: {
			resource: 'customApiCall',
			operation: 'request',
			method: 'GET',
			path: '/api/anything/',
			paginate: true,
			returnAll: false,
			limit: 5,
		},
		params: [boolean('paginate', 'Paginate'), ...listParams],
	},
];

const REQUEST_OPTIONS: Param[] = [
	['concurrency', 'Concurrency'],
	['maxAttempts', 'Max Attempts'],
	['maxListMegabytes', 'Max List Size (MB)'],
	['maxRecords', 'Max Records'],
	['maxRetryWaitSeconds', 'Retry Budget (Seconds)'],
	['timeoutSeconds', 'Timeout (Seconds)'],
].map(([name, label]) => ({
	path: `requestOptions.${name}`,
	kind: 'setting',
	label: `Request Options > ${label}`,
}));

/** `parameters` with `path` set to `value` (lists and objects made on the way, the base left untouched). */
function withValue(parameters: IDataObject, path: string, value: unknown): IDataObject {
	const copy = structuredClone(parameters);
	const parts = path.split('.');
	let target = copy as Record<string, unknown>;
	parts.slice(0, -1).forEach((part, index) => {
		target[part] ??= /^\d+$/.test(parts[index + 1]) ? [] : {};
		target = target[part] as Record<string, unknown>;
	});
	target[parts[parts.length - 1]] = value;
	return copy;
}

/** One success answer for every path: a record, a template that is APPROVED, a media id, a one-record list. */
const ANSWER = JSON.stringify({
	status: 'success',
	data: {
		id: 7,
		name: 'order_ok',
		state: 'APPROVED',
		media_id: 'm-1',
		items: [
			{
				id: 1,
				state: 'APPROVED',
				order_id: 'O-1',
				status: 'paid',
				created_at: '2025-01-01T00:00:00Z',
				updated_at: '2025-01-01T00:00:00Z',
				reviewed_at: '2025-01-01T00:00:00Z',
			},
		],
		total: 1,
	},
});

interface Seen {
	method: string;
	target: string;
	body: string;
}

describe('Values of the wrong kind, for every parameter of every operation and of the trigger', () => {
	let server: HostileServer;
	const seen: Seen[] = [];
	beforeAll(async () => {
		server = await startHostile(async (request: IncomingMessage, response: ServerResponse) => {
			const chunks: Buffer[] = [];
			for await (const chunk of request) chunks.push(chunk as Buffer);
			const body = Buffer.concat(chunks).toString('utf8');
			const login = /^\/api\/login_check/.test(request.url ?? '');
			if (!login)
				seen.push({
					method: request.method ?? '',
					target: decodeURIComponent(request.url ?? ''),
					body,
				});
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(login ? JSON.stringify({ token: 'token-for-the-wrong-types-test' }) : ANSWER);
			return true;
		});
	});
	afterAll(async () => await server.close());
	beforeEach(() => forgetProcessState());

	const credentials = () => ({
		baseUrl: server.url,
		username: 'ada@shop.test',
		password: 'wrong-types-password',
		pluginIntegration: true,
		pluginApiKey: 'plugin-key',
		pluginPlatformType: 'custom',
		pluginBaseUri: 'https://shop.example.com',
	});

	function judge(
		result: RunResult | { error?: RunResult['error'] },
		sent: Seen[],
		param: Param,
		value: ValueName,
		itemError: boolean,
		sendsText = true,
	) {
		const outcome = expected(param.kind, value);
		const everything = sent
			.map((request) => `${request.method} ${request.target} ${request.body}`)
			.join('\n');
		expect(everything).not.toMatch(/\[object Object\]|(?<![[\d])1,2(?![\d\]])/);
		if (outcome === 'ok' || outcome === 'sentAsText') {
			expect(result.error?.message).toBeUndefined();
			expect(sent.length).toBeGreaterThan(0);
			if (outcome === 'sentAsText' && sendsText)
				expect(
					sent.some(
						(request) => request.body.includes('"12345"') || request.target.includes('12345'),
					),
				).toBe(true);
			return;
		}
		if (outcome === 'okOrError' && !result.error) return;
		expect(result.error).toBeDefined();
		expect(sent).toHaveLength(0);
		if (itemError) expect(result.error?.context?.itemIndex).toBe(0);
		if (outcome === 'wrongKind') {
			const kindName = {
				object: 'an object',
				array: 'an array',
				boolean: 'a boolean',
				number: 'a number',
			}[value as 'object'];
			expect(result.error?.message).toContain(`${param.label} must be`);
			expect(result.error?.message).toContain(`not ${kindName}`);
		}
	}

	const actionCases = [
		...OPERATIONS.flatMap((operation) =>
			[...operation.params, ...REQUEST_OPTIONS].map((param) => [operation, param] as const),
		),
	].flatMap(([operation, param]) =>
		(Object.keys(VALUES) as ValueName[]).map(
			(value) => [operation.name, param.path, value, operation, param] as const,
		),
	);

	it.each(actionCases)('%s: %s given %s', async (_name, _path, value, operation, param) => {
		const engine = new Engine(credentials());
		const before = seen.length;
		const result = await engine.run({
			parameters: withValue(operation.base, param.path, VALUES[value]),
			items: operation.items,
		});
		judge(result, seen.slice(before), param, value, param.kind !== 'setting');
	});

	const TRIGGER: Array<{ event: string; params: Param[] }> = [
		{
			event: 'newContact',
			params: [...REQUEST_OPTIONS.filter((param) => !param.path.endsWith('concurrency'))],
		},
		{
			event: 'newOrder',
			params: [
				text('filters.status', 'status filter'),
				requiredNumber('orderOptions.lookBackMinutes', 'Look-Back (Minutes)'),
			],
		},
		{ event: 'newOrChangedProduct', params: [option('filters.changeType', 'Change Type')] },
		{ event: 'templateReviewed', params: [option('filters.outcome', 'Outcome')] },
	];
	const triggerCases = TRIGGER.flatMap(({ event, params }) =>
		params.flatMap((param) =>
			(Object.keys(VALUES) as ValueName[]).map(
				(value) => [event, param.path, value, param] as const,
			),
		),
	);

	it.each(triggerCases)('Trigger %s: %s given %s', async (event, _path, value, param) => {
		const harness = new PollHarness(credentials(), withValue({ event }, param.path, VALUES[value]));
		const start = seen.length;
		// Activation reads the settings, the event and its filters; the next poll reads the look-back too.
		let before = start;
		let outcome = await harness.poll();
		if (!outcome.error) {
			before = seen.length;
			outcome = await harness.poll();
		}
		// A failed poll is judged by its own requests (none); a trigger applies its filters itself, sending none.
		judge(
			{ error: outcome.error },
			seen.slice(outcome.error ? before : start),
			param,
			value,
			false,
			false,
		);
	});
});
