import { type IDataObject, type IExecuteFunctions, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { readBoolean, readJson, readListLimit, readOption } from '../../helpers/parameters';
import { asRecord, asRecords } from '../../../../transport/answers';
import { listRecords } from '../../../../transport/pagination';
import { apiRequest } from '../../../../transport/request';
import { METHODS_WITH_BODY, readMethod, readPath, readQuery } from './request.input';
import { returnAllOrLimit } from '../../descriptions';

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

export const description = updateDisplayOptions(
	{ show: { resource: ['customApiCall'], operation: ['request'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const method = readMethod(this, itemIndex);
	const path = readPath(this, itemIndex);
	const qs = readQuery(this, itemIndex);
	const body = METHODS_WITH_BODY.includes(method)
		? (readJson(this, 'jsonBody', itemIndex, {
				expect: 'objectOrArray',
				label: 'the JSON body',
				example: 'Enter a JSON object such as {"firstname": "Ada"}.',
			}) as IDataObject | IDataObject[] | undefined)
		: undefined;

	if (method === 'GET' && readBoolean(this, 'paginate', itemIndex, { label: 'Paginate', fallback: false })) {
		return { records: await listRecords(this, { method, path }, { qs, ...readListLimit(this, itemIndex), itemIndex }) };
	}

	const fullEnvelope = readOption(this, 'options.response', itemIndex, { label: 'Response', values: ['data', 'envelope'], fallback: 'data' }) === 'envelope';
	// Full Envelope: the whole answer as one item; Data Only: one item per record of a list.
	if (fullEnvelope) {
		return { records: [await apiRequest(this, { method, path, parse: asRecord }, { qs, body, itemIndex, fullEnvelope })] };
	}
	return { records: await apiRequest(this, { method, path, parse: asRecords }, { qs, body, itemIndex }) };
}
