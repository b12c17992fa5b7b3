import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TemplateRecord } from '../../../../transport/answers';
import { apiRequest } from '../../../../transport/request';
import { batchingOption, phoneField, templateLocator } from '../../descriptions';
import { BatchPacer } from '../../helpers/batching';
import { readBinaryFile, uploadMedia, type BinaryFile } from '../../helpers/binary';
import { compact, isPlainObject, itemError, readBoolean, readEntries, readJson, readOption, readText, textValue } from '../../helpers/parameters';
import { placeholdersOf, readTemplateId, rejectionReason, sendFields, templateTitle } from '../../helpers/template';

export const properties: INodeProperties[] = [
	{ ...templateLocator, description: 'The APPROVED template to send. Only APPROVED templates can be sent.' },
	phoneField({ required: true, description: 'Mobile number of the recipient in international E.164 format (plus, country code, number)' }),
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description: 'One value per placeholder of the template: its header text, body and URL buttons, read from the template you pick',
		typeOptions: {
			loadOptionsDependsOn: ['templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'templateVariables',
				mode: 'add',
				valuesLabel: 'Variables',
				fieldWords: { singular: 'variable', plural: 'variables' },
				addAllFields: true,
				supportAutoMap: false,
			},
		},
	},
	{
		displayName: 'Header Media',
		name: 'headerMedia',
		type: 'options',
		default: 'none',
		description: "The image, video or document in the header of this recipient's message, for a template with a media header",
		options: [
			{ name: 'From Binary Field', value: 'binary', description: 'A file of the input item, uploaded with this credential' },
			{ name: 'From URL', value: 'url', description: 'A file downloaded by n8n, then uploaded with this credential' },
			{ name: 'Media ID', value: 'mediaId', description: 'A media_id from Media > Upload with the same account' },
			{ name: 'None', value: 'none' },
		],
	},
	{
		displayName: 'Header Media ID',
		name: 'headerMediaId',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.media_id }}',
		displayOptions: { show: { headerMedia: ['mediaId'] } },
	},
	{
		displayName: 'Input Binary Field',
		name: 'headerMediaBinaryField',
		type: 'string',
		default: 'data',
		hint: 'The input binary field holding the header file; each distinct file is uploaded once per run',
		displayOptions: { show: { headerMedia: ['binary'] } },
	},
	{
		displayName: 'Header Media URL',
		name: 'headerMediaUrl',
		type: 'string',
		default: '',
		placeholder: 'https://shop.example.com/banner.png',
		hint: 'Downloaded by n8n (not by the service), then uploaded; each distinct file once per run',
		displayOptions: { show: { headerMedia: ['url'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			batchingOption,
			{
				displayName: 'Check State Before Sending',
				name: 'checkState',
				type: 'boolean',
				default: false,
				description: 'Whether to fail without sending when the template is not APPROVED',
			},
			{
				displayName: 'Variables (List)',
				name: 'templateVariables',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true, sortable: true },
				placeholder: 'Add Variable',
				default: {},
				description: 'Where Variables cannot be mapped (a template given by an expression): the body variables in order, the first fills {{1}}',
				options: [{ displayName: 'Variable', name: 'variable', values: [{ displayName: 'Value', name: 'value', type: 'string', default: '' }] }],
			},
			{
				displayName: 'Variables (JSON)',
				name: 'variablesJson',
				type: 'json',
				default: '',
				placeholder: '["Ada", "A-1001"]',
				description: 'The body variables as JSON instead: an array in order ({{1}} first), or an object such as {"customer_name": "Ada"}',
			},
		],
	},
];

/** A run's reads and uploads, shared by its items: each template read once, each distinct file uploaded once. */
export async function prepare(this: IExecuteFunctions) {
	return {
		batches: new BatchPacer(this),
		templates: new Map<string, Promise<TemplateRecord>>(),
		downloads: new Map<string, Promise<BinaryFile>>(),
		uploads: new Map<string, Promise<string>>(),
		unchecked: new Set<string>(),
	};
}

type SendState = Awaited<ReturnType<typeof prepare>>;

export const hints = (state: SendState) => [
	...state.batches.hints(),
	...[...state.unchecked].map((template) => ({
		message: `The variables sent with template ${template} were not checked: the service lists no text for it, so its placeholders are unknown. A send that does not fit is refused by the service.`,
		type: 'warning' as const,
	})),
];

/** One recipient's messages reach the service in input order, never overlapping (the key is the E.164 phone). */
export function orderingKey(this: IExecuteFunctions, itemIndex: number) {
	return readText(this, 'phone', itemIndex, { label: 'phone', phone: true, required: true });
}

/** Shared by the lanes (taken before any await); a failure is not: each item then tries, and fails, on its own. */
async function once<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
	try {
		if (cache.has(key)) return await cache.get(key)!;
	} catch {
		// Tried again below, for this item.
	}
	const made = make();
	cache.set(key, made);
	return await made;
}

/**
 * Rules T2, T5: the template is read once per run; its placeholders are checked against the item's values before the
 * send (WhatsApp refuses a send that does not fit them), its state too with Check State Before Sending; the header file
 * is uploaded with this credential, each distinct one once per run.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number, state: SendState, phone?: string) {
	// Rule L2: a bulk send is spread out in batches with a pause between them, even without the option.
	await state.batches.waitTurn(itemIndex);
	const recipient = phone ?? orderingKey.call(this, itemIndex);
	const id = readTemplateId(this, itemIndex);
	const given = readValues(this, itemIndex);
	const checkState = readBoolean(this, 'options.checkState', itemIndex, { label: 'Check State Before Sending', fallback: false });
	const media = await readHeaderMedia(this, itemIndex);
	const template = await once(state.templates, id, async () => await apiRequest(this, 'templateGet', { pathParams: { id }, itemIndex }));
	const title = templateTitle(template, id);
	if (checkState && template.state !== 'APPROVED') throw notApproved(this, template, title, itemIndex);
	const values = sendFields(fitted(this, itemIndex, template, title, given, state));
	let headerMediaId = typeof media === 'string' ? media : undefined;
	if (typeof media === 'object') {
		const file = 'url' in media ? await once(state.downloads, media.url, async () => await download(this, itemIndex, media.url)) : media;
		// The file uploaded with this credential (the account that sends owns it, rule M3), each distinct content once per run.
		const content = createHash('sha256').update(file.mimeType).update(file.bytes).digest('base64url');
		headerMediaId = await once(state.uploads, content, async () => (await uploadMedia(this, itemIndex, file)).mediaId);
	}
	// Without the check, a DRAFT or PENDING template gets HTTP 400 with its state, shown by the transport (rule E4).
	const sent = await apiRequest(this, 'templateSend', { pathParams: { id }, body: compact({ phone: recipient, ...values, header_media_id: headerMediaId }), itemIndex });
	return { records: [headerMediaId ? { ...sent, header_media_id: headerMediaId } : sent] };
}

/**
 * The item's values: mapped per placeholder (Variables), or for the body from the list or JSON (a template the editor
 * could not read), as placeholder ids (`body:1`) -> text. Given twice, empty, or not as text, fails the item.
 */
function readValues(ctx: IExecuteFunctions, itemIndex: number) {
	const mapped = ctx.getNodeParameter('variables.value', itemIndex, null);
	const list = readEntries(ctx, 'options.templateVariables', itemIndex, 'Variables (List)', 'variable').map((entry, n) => [`body:${n + 1}`, entry.value]);
	const json = readJson(ctx, 'options.variablesJson', itemIndex, {
		expect: 'objectOrArray',
		label: 'Variables (JSON)',
		showValue: true,
		example: 'Write an array such as ["Ada", "A-1001"] or an object such as {"1": "Ada", "2": "A-1001"}.',
	});
	const fromJson = Object.entries(json ?? {}).map(([key, value]) => [`body:${Array.isArray(json) ? Number(key) + 1 : key}`, value]);
	const sources = [isPlainObject(mapped) ? Object.entries(mapped) : [], list, fromJson].filter((entries) => entries.length);
	if (sources.length > 1) throw itemError(ctx, itemIndex, 'the variables are given twice (Variables, Variables (List), Variables (JSON))', 'Use one of them and leave the others empty.');
	const description = 'WhatsApp refuses a template message with an empty variable. Check the expression that fills it.';
	return new Map((sources[0] ?? []).map(([key, value]) => [String(key), textValue(ctx, value, itemIndex, { label: `variable {{${String(key).split(':')[1]}}}`, keepSpaces: true, required: true, description })]));
}

/**
 * The values checked against the template's placeholders (empty ones failed already): a placeholder left without a
 * value, or a value for a placeholder the template does not have, fails the item, naming them. A template without
 * text is sent unchecked (the run's hint says so).
 */
function fitted(ctx: IExecuteFunctions, itemIndex: number, template: TemplateRecord, title: string, values: Map<string, string>, state: SendState) {
	const placeholders = placeholdersOf(template);
	if (!placeholders) return state.unchecked.add(title) && values;
	const titles = new Map(placeholders.map((placeholder) => [placeholder.id, placeholder.title]));
	const named = (ids: string[]) => ids.map((key) => titles.get(key) ?? `{{${key.split(':')[1]}}} (${key.split(':')[0]})`).join(', ');
	const missing = [...titles.keys()].filter((key) => !values.has(key));
	const extra = [...values.keys()].filter((key) => !titles.has(key));
	if (!missing.length && !extra.length) return values;
	const problems = [missing.length ? `no value for ${named(missing)}` : '', extra.length ? `a value for ${named(extra)}, which it does not have` : ''];
	throw itemError(
		ctx,
		itemIndex,
		`the variables do not fit template ${title}: ${problems.filter(Boolean).join('; ')}`,
		'WhatsApp refuses a template message whose values do not fill its placeholders exactly, so nothing was sent. Map one value per placeholder under Variables.',
	);
}

function notApproved(ctx: IExecuteFunctions, template: TemplateRecord, title: string, itemIndex: number) {
	const state = template.state ?? 'unknown';
	const reason = state === 'REJECTED' ? rejectionReason(template) : undefined;
	const next: IDataObject = {
		DRAFT: 'Submit it for review (Template > Submit for Review), then wait until it is APPROVED (Template > Wait for Approval).',
		PENDING: 'It is still in review. Wait until it is APPROVED (Template > Wait for Approval) before sending.',
		REJECTED: `It was rejected${reason ? `: ${reason}` : ''}. Create a corrected draft and submit it.`,
	};
	// The router puts the state into the Continue On Fail error item, like the service's own 400 answer.
	return itemError(ctx, itemIndex, `template ${title} is ${state}, so it was not sent; only APPROVED templates can be sent`, next[state] as string | undefined, { state });
}

/** The header media the item asks for: a media id, a file of the item, a URL, or none; read and checked before any call. */
async function readHeaderMedia(ctx: IExecuteFunctions, itemIndex: number): Promise<string | BinaryFile | { url: string } | undefined> {
	const source = readOption(ctx, 'headerMedia', itemIndex, { label: 'Header Media', values: ['none', 'mediaId', 'binary', 'url'], fallback: 'none' });
	if (source === 'mediaId') return readText(ctx, 'headerMediaId', itemIndex, { label: 'Header Media ID' });
	if (source === 'binary') return await readBinaryFile(ctx, itemIndex, readText(ctx, 'headerMediaBinaryField', itemIndex, { label: 'Input Binary Field', required: true }));
	if (source === 'none') return undefined;
	const url = readText(ctx, 'headerMediaUrl', itemIndex, { label: 'Header Media URL', required: true });
	if (!/^https?:\/\/[^/\s]+/i.test(url)) throw itemError(ctx, itemIndex, `the Header Media URL "${url}" is not an http(s) address`, 'Give the full address of the file, e.g. https://shop.example.com/banner.png.');
	return { url };
}

/** A URL downloaded by n8n's own request helper (never through the service). */
async function download(ctx: IExecuteFunctions, itemIndex: number, url: string): Promise<BinaryFile> {
	try {
		const response = (await ctx.helpers.httpRequest({ url, encoding: 'arraybuffer', returnFullResponse: true })) as { body: ArrayBuffer; headers: IDataObject };
		const mimeType = String(response.headers['content-type'] ?? 'application/octet-stream').split(';')[0];
		return { bytes: Buffer.from(response.body), mimeType, fileName: decodeURIComponent(new URL(url).pathname.split('/').pop() || 'header') };
	} catch (error) {
		throw itemError(ctx, itemIndex, `the header media could not be downloaded from ${url}: ${(error as Error).message}`, 'Check that n8n can reach the address and that it serves the file.');
	}
}

export const option = {
	name: 'Send',
	description: 'Send an APPROVED template to one phone number, a value for each of its placeholders. A DRAFT or PENDING template is refused with its state.',
	action: 'Send a template',
};
