import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, listRecords, type CustomRoute } from '../../../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import type { OperationResult } from '../operation';

const METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'];
const METHODS_WITH_BODY = ['DELETE', 'PATCH', 'POST', 'PUT'];

const properties: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: [
			{ name: 'DELETE', value: 'DELETE' },
			{ name: 'GET', value: 'GET' },
			{ name: 'PATCH', value: 'PATCH' },
			{ name: 'POST', value: 'POST' },
			{ name: 'PUT', value: 'PUT' },
		],
		default: 'GET',
		description: 'HTTP method of the call',
	},
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		required: true,
		default: '',
		placeholder: '/api/...',
		description:
			"Path of the endpoint, relative to the credential's Base URL and starting with /. Use it for API areas this node has no operation for (v1 templates, message history, SMS, chat sessions, link documents, user profile, secret keys). Full URLs are refused, so the session token is only ever sent to the service.",
		hint: 'v1 and unversioned routes end with a slash (/api/contacts/, /api/v1/order/); v2 WhatsApp routes do not (/api/v2/whatsapp/templates). A wrong slash gets a 404.',
	},
	{
		displayName: 'Query Parameters',
		name: 'queryParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Parameter',
		default: {},
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'status' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'paid' },
				],
			},
		],
	},
	{
		displayName: 'JSON Body',
		name: 'jsonBody',
		type: 'json',
		default: '',
		placeholder: '{"firstname": "Ada", "phone": "+4915123456789"}',
		description: 'Body of the request as a JSON object or array. Leave empty to send no body.',
		displayOptions: { show: { method: METHODS_WITH_BODY } },
	},
	{
		displayName: 'Paginate',
		name: 'paginate',
		type: 'boolean',
		default: false,
		description:
			'Whether the path is a list that takes the pagination parameters (currentPage, page, limit): the pages are fetched for you and each record becomes its own output item',
		displayOptions: { show: { method: ['GET'] } },
	},
	...updateDisplayOptions({ show: { method: ['GET'], paginate: [true] } }, returnAllOrLimit()),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Response',
				name: 'response',
				type: 'options',
				options: [
					{
						name: 'Data Only',
						value: 'data',
						description: "The service's data, unwrapped from its envelope; a list gives one item per record",
					},
					{
						name: 'Full Envelope',
						value: 'envelope',
						description: 'The whole answer (status and data) as one item. Not used when paginating.',
					},
				],
				default: 'data',
				description: 'What to output for a successful call. Failures are always errors with the service message and code.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['customApiCall'], operation: ['request'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const method = readMethod(this, itemIndex);
	const route: CustomRoute = { method, path: readPath(this, itemIndex) };
	const qs = readQuery(this, itemIndex);
	const body = METHODS_WITH_BODY.includes(method) ? readBody(this, itemIndex) : undefined;

	if (method === 'GET' && (this.getNodeParameter('paginate', itemIndex, false) as boolean)) {
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number);
		return await listRecords(this, route, { qs, limit, itemIndex });
	}

	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fullEnvelope = options.response === 'envelope';
	const data = await apiRequest(this, route, { qs, body, itemIndex, fullEnvelope });
	return fullEnvelope ? (data as IDataObject) : asRecords(data);
}

/**
 * Only a path under the Base URL is accepted, never a URL of its own: the bearer token (and the plugin key)
 * go with every request, so a call must not be able to reach another host.
 */
export function pathProblem(path: string): string | undefined {
	if (path === '') return 'the path is empty';
	if (/^[a-z][a-z\d+.-]*:/i.test(path)) return 'it is a full URL; give only the path after the Base URL';
	if (!path.startsWith('/')) return 'it must start with /';
	// "//host" is a protocol-relative URL; a backslash is read as a slash by URL parsers.
	if (path.startsWith('//') || path.includes('\\')) return 'it would leave the service (it starts like a URL to another host)';
	if (/[\s\u0000-\u001f\u007f]/.test(path)) return 'it contains spaces or control characters';
	const segments = path.split(/[?#]/)[0].split('/');
	if (segments.some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'it must not contain . or .. segments';
	const resolved = new URL(path, 'https://service.invalid');
	if (resolved.host !== 'service.invalid') return 'it would leave the service';
	return undefined;
}

/** The method may come from an expression, so it is checked like any other input. */
function readMethod(ctx: IExecuteFunctions, itemIndex: number): CustomRoute['method'] {
	const raw = String(ctx.getNodeParameter('method', itemIndex, 'GET') ?? '');
	const method = raw.trim().toUpperCase();
	if (!METHODS.includes(method)) {
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: the method "${raw}" is not supported`, {
			itemIndex,
			description: `Use one of ${METHODS.join(', ')}.`,
		});
	}
	return method as CustomRoute['method'];
}

function readPath(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = String(ctx.getNodeParameter('path', itemIndex, '') ?? '');
	const path = raw.trim();
	const problem = pathProblem(path);
	if (problem) {
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: the path "${raw}" is refused: ${problem}`, {
			itemIndex,
			description:
				"Enter a path relative to the credential's Base URL, e.g. /api/contacts/. To call another service, use the HTTP Request node.",
		});
	}
	// Braces are percent-encoded so the transport never reads them as {placeholders}.
	return path.replace(/\{/g, '%7B').replace(/\}/g, '%7D');
}

function readQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const collection = ctx.getNodeParameter('queryParameters', itemIndex, {}) as IDataObject;
	const pairs = (collection.parameter ?? []) as IDataObject[];
	const qs: IDataObject = {};
	for (const pair of pairs) {
		const name = String(pair.name ?? '').trim();
		if (name) qs[name] = pair.value as string;
	}
	return Object.keys(qs).length ? qs : undefined;
}

function readBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject | IDataObject[] | undefined {
	const raw = ctx.getNodeParameter('jsonBody', itemIndex, '') as unknown;
	let value: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return undefined;
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: the JSON body is not valid JSON`, {
				itemIndex,
				description: `${(error as Error).message}. Enter a JSON object such as {"firstname": "Ada"}.`,
			});
		}
	}
	if (value === null || typeof value !== 'object') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Item ${itemIndex}: the JSON body must be a JSON object or array, not ${value === null ? 'null' : `a ${typeof value}`}`,
			{ itemIndex },
		);
	}
	return value as IDataObject | IDataObject[];
}

/** Data Only: a list gives one item per record; a plain value is put under `data` so the item is an object. */
function asRecords(data: unknown): IDataObject | IDataObject[] {
	if (Array.isArray(data)) {
		return data.map((entry) =>
			entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as IDataObject) : { value: entry as IDataObject },
		);
	}
	if (data !== null && typeof data === 'object') return data as IDataObject;
	return { data: (data ?? null) as IDataObject };
}
