import { type IDataObject, type IExecuteFunctions, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { asRecord, asRecords } from '../../../../transport/answers';
import { listRecords } from '../../../../transport/pagination';
import { apiRequest, type CustomRoute } from '../../../../transport/request';
import { returnAllOrLimit } from '../../descriptions';
import { itemError, readBoolean, readEntries, readJson, readListLimit, readOption, readText, textValue } from '../../helpers/parameters';

export const option = {
	name: 'Make an API Call',
	description: 'Call any endpoint of the service with the same login, error handling and retries, e.g. for SMS, message history or the user profile',
	action: 'Make an API call to any endpoint',
};

export const properties: INodeProperties[] = [
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
		displayOptions: { show: { method: ['DELETE', 'PATCH', 'POST', 'PUT'] } },
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
	...updateDisplayOptions({ show: { method: ['GET'], paginate: [true] } }, returnAllOrLimit),
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

/**
 * Why a path is refused, if it is: only a path under the Base URL is taken, never an address of its own, since the
 * bearer token (and the plugin key) go with every request. "//host" is a protocol-relative URL, a backslash is read as
 * a slash by URL parsers, and "." or ".." segments (also encoded) name another endpoint.
 */
function pathProblem(path: string): string | undefined {
	if (path === '') return 'the path is empty';
	if (/^[a-z][a-z\d+.-]*:/i.test(path)) return 'it is a full URL; give only the path after the Base URL';
	if (!path.startsWith('/')) return 'it must start with /';
	if (path.startsWith('//') || path.includes('\\') || new URL(path, 'https://service.invalid').host !== 'service.invalid') {
		return 'it would leave the service (it starts like a URL to another host)';
	}
	if (/[\s\x00-\x1f\x7f]/.test(path)) return 'it contains spaces or control characters';
	if (path.split(/[?#]/)[0].split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'it must not contain . or .. segments';
	return undefined;
}

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const raw = readText(this, 'method', itemIndex, { label: 'method' }) ?? 'GET';
	const method = raw.toUpperCase() as CustomRoute['method'];
	if (!['DELETE', 'GET', 'PATCH', 'POST', 'PUT'].includes(method)) throw itemError(this, itemIndex, `the method "${raw}" is not supported`, 'Use one of DELETE, GET, PATCH, POST, PUT.');
	const path = readText(this, 'path', itemIndex, { label: 'path' }) ?? '';
	const problem = pathProblem(path);
	if (problem) {
		throw itemError(
			this,
			itemIndex,
			`the path "${path}" is refused: ${problem}`,
			"Enter a path relative to the credential's Base URL, e.g. /api/contacts/. To call another service, use the HTTP Request node.",
		);
	}
	// Braces are percent-encoded so the transport never reads them as {placeholders}.
	const route = { method, path: path.replace(/\{/g, '%7B').replace(/\}/g, '%7D') };
	const qs: IDataObject = {};
	for (const pair of readEntries(this, 'queryParameters', itemIndex, 'Query Parameters', 'parameter')) {
		const name = textValue(this, pair.name, itemIndex, { label: 'query parameter name' });
		if (name) qs[name] = textValue(this, pair.value, itemIndex, { label: `query parameter "${name}"`, keepSpaces: true }) ?? '';
	}
	const query = Object.keys(qs).length ? qs : undefined;
	const body =
		method === 'GET'
			? undefined
			: (readJson(this, 'jsonBody', itemIndex, { expect: 'objectOrArray', label: 'the JSON body', example: 'Enter a JSON object such as {"firstname": "Ada"}.' }) as IDataObject | IDataObject[] | undefined);
	if (method === 'GET' && readBoolean(this, 'paginate', itemIndex, { label: 'Paginate', fallback: false })) {
		return { records: await listRecords(this, route, { qs: query, ...readListLimit(this, itemIndex), itemIndex }) };
	}
	// Full Envelope: the whole answer as one item; Data Only: one item per record of a list.
	if (readOption(this, 'options.response', itemIndex, { label: 'Response', values: ['data', 'envelope'], fallback: 'data' }) === 'envelope') {
		return { records: [await apiRequest(this, { ...route, parse: asRecord }, { qs: query, body, itemIndex, fullEnvelope: true })] };
	}
	return { records: await apiRequest(this, { ...route, parse: asRecords }, { qs: query, body, itemIndex }) };
}
