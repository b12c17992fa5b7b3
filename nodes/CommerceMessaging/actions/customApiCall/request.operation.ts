import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	updateDisplayOptions,
} from 'n8n-workflow';

import { dotSegment } from '../../../../transport/address';
import { asRecord, asRecords, readListPage } from '../../../../transport/answers';
import { listRecords, pageQuery } from '../../../../transport/pagination';
import { apiRequest, type CustomRoute } from '../../../../transport/request';
import { collection, returnAllOrLimit } from '../../descriptions';
import {
	itemError,
	readBoolean,
	readEntries,
	readJson,
	readListLimit,
	readOption,
	readText,
	textValue,
} from '../../helpers/parameters';

export const option = {
	name: 'Make an API Call',
	description:
		"Call any endpoint of the service with this node's login, error handling and retries",
	action: 'Make an API call to any endpoint',
};

/** The methods the Method field offers, and the only ones a call takes. */
const METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'];

export const properties: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: METHODS.map((method) => ({ name: method, value: method })),
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
			"Path relative to the credential's Base URL, starting with /, e.g. for SMS or message history. Full URLs are refused.",
		hint: 'v1 and unversioned routes end with a slash (/api/contacts/); v2 routes do not (/api/v2/whatsapp/templates)',
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
		description: 'Body of the request as a JSON object or array; empty sends none',
		displayOptions: { show: { method: ['DELETE', 'PATCH', 'POST', 'PUT'] } },
	},
	{
		displayName: 'Paginate',
		name: 'paginate',
		type: 'boolean',
		default: false,
		description:
			'Whether the path is a paged list (currentPage, page, limit) to read whole, one item per record',
		displayOptions: { show: { method: ['GET'] } },
	},
	...updateDisplayOptions({ show: { method: ['GET'], paginate: [true] } }, returnAllOrLimit),
	collection('options', [
		{
			displayName: 'Response',
			name: 'response',
			type: 'options',
			options: [
				{
					name: 'Data Only',
					value: 'data',
					description: "The service's data, unwrapped; a list gives one item per record",
				},
				{
					name: 'Full Envelope',
					value: 'envelope',
					description: 'The whole answer as one item, when not paginating',
				},
			],
			default: 'data',
			description: 'What to output for a successful call',
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const raw = readText(this, 'method', itemIndex, { label: 'method' }) ?? 'GET';
	const method = raw.toUpperCase() as CustomRoute['method'];
	if (!METHODS.includes(method))
		throw itemError(
			this,
			itemIndex,
			`the method "${raw}" is not supported`,
			'Use one of DELETE, GET, PATCH, POST, PUT.',
		);
	const path = readText(this, 'path', itemIndex, { label: 'path' }) ?? '';
	// Why the path is refused, if it is: only a path under the Base URL is taken, never an address of its own, since
	// the bearer token (and the plugin key) go with every request. "//host" is a protocol-relative URL, a backslash is
	// read as a slash by URL parsers, and "." or ".." segments (also encoded) name another endpoint.
	const problem = (
		[
			['the path is empty', () => path === ''],
			[
				'it is a full URL; give only the path after the Base URL',
				() => /^[a-z][a-z\d+.-]*:/i.test(path),
			],
			['it must start with /', () => !path.startsWith('/')],
			[
				'it would leave the service (it starts like a URL to another host)',
				() =>
					path.startsWith('//') ||
					path.includes('\\') ||
					new URL(path, 'https://service.invalid').host !== 'service.invalid',
			],
			// eslint-disable-next-line no-control-regex -- control characters are what it looks for
			['it contains spaces or control characters', () => /[\s\x00-\x1f\x7f]/.test(path)],
			['it must not contain . or .. segments', () => dotSegment(path)],
		] as const
	).find(([, refused]) => refused())?.[0];
	if (problem) {
		throw itemError(
			this,
			itemIndex,
			`the path "${path}" is refused: ${problem}`,
			"Enter a path relative to the credential's Base URL, e.g. /api/contacts/. To call another service, use the HTTP Request node.",
		);
	}
	// Braces are percent-encoded so the transport never reads them as {placeholders}.
	const route = { method, path: path.replace(/[{}]/g, encodeURIComponent) };
	const qs: IDataObject = {};
	// The path's own query counts too: a name in both would go twice.
	const inPath = new URL(path, 'https://service.invalid').searchParams;
	for (const pair of readEntries(
		this,
		'queryParameters',
		itemIndex,
		'Query Parameters',
		'parameter',
	)) {
		// A value without a name would go nowhere.
		const name = textValue(this, pair.name, itemIndex, {
			label: 'query parameter name',
			required: typeof pair.value === 'string' ? pair.value !== '' : pair.value != null,
			description: 'Give the query parameter a name, or remove it.',
		});
		// A name given twice would keep only its last value.
		if (name && (name in qs || inPath.has(name)))
			throw itemError(
				this,
				itemIndex,
				`the query parameter "${name}" is given twice`,
				'Give each query parameter once; for several values, write them as the service reads them (e.g. a,b).',
			);
		if (name)
			qs[name] =
				textValue(this, pair.value, itemIndex, {
					label: `query parameter "${name}"`,
					keepSpaces: true,
				}) ?? '';
	}
	const body =
		method === 'GET'
			? undefined
			: readJson(this, 'jsonBody', itemIndex, {
					expect: 'objectOrArray',
					label: 'the JSON body',
					example: 'Enter a JSON object such as {"firstname": "Ada"}.',
				});
	if (
		method === 'GET' &&
		readBoolean(this, 'paginate', itemIndex, { label: 'Paginate', fallback: false })
	) {
		// Paginate sets the page parameters of every request: a value of the user's would be lost without a word.
		const paging = Object.keys(pageQuery(1, 1)).find((name) => name in qs || inPath.has(name));
		if (paging)
			throw itemError(
				this,
				itemIndex,
				`the query parameter "${paging}" is set by Paginate`,
				'Remove it to read the whole list, or turn off Paginate to ask for one page yourself.',
			);
		const pages = {
			...route,
			// An answer that holds no list is not an empty one: the path is no list, or not one the node can read.
			parse: (data: unknown) => {
				const page = readListPage(data);
				if (!page.notAList) return page;
				throw itemError(
					this,
					itemIndex,
					'the answer is not a list, so it cannot be read page by page',
					'Turn off Paginate to get the answer as it is, or check the path.',
				);
			},
		};
		return await listRecords(this, pages, {
			qs,
			...readListLimit(this, itemIndex),
			itemIndex,
			// The run's items read their lists side by side: together they keep to Concurrency.
			sharedBy: this.getInputData().length,
		});
	}
	// Full Envelope: the whole answer as one item; Data Only: one item per record of a list.
	const fullEnvelope =
		readOption(this, 'options.response', itemIndex, {
			label: 'Response',
			values: ['data', 'envelope'],
			fallback: 'data',
		}) === 'envelope';
	const answer = await apiRequest(
		this,
		{ ...route, parse: fullEnvelope ? asRecord : asRecords },
		{ qs, body, itemIndex, fullEnvelope },
	);
	return [answer].flat();
}
