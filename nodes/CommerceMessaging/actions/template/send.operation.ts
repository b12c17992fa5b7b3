import { createHash } from 'crypto';
import { type IDataObject, type IExecuteFunctions, type INodeProperties, type INodePropertyOptions, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { TemplateRecord } from '../../../../transport/answers';
import { apiRequest } from '../../../../transport/request';
import { batchingOption, phoneField, templateLocator } from '../../descriptions';
import { BatchPacer } from '../../helpers/batching';
import { readBinaryFile, uploadMedia, type BinaryFile } from '../../helpers/binary';
import { compact, isPlainObject, itemError, readBoolean, readEntries, readJson, readOption, readPhone, readText, textValue } from '../../helpers/parameters';
import { placeholdersOf, readTemplateId, rejectionReason, sendFields, templateTitle } from '../../helpers/template';

const properties: INodeProperties[] = [
	{ ...templateLocator, description: 'The APPROVED template to send. Only APPROVED templates can be sent.' },
	phoneField({ required: true, description: 'Mobile number of the recipient in international E.164 format (plus, country code, number)' }),
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description: "One value per placeholder of the template: its header text, body and URL buttons, read from the template you pick",
		typeOptions: {
			loadOptionsDependsOn: ['templateId.value'],
			resourceMapper: { resourceMapperMethod: 'templateVariables', mode: 'add', fieldWords: { singular: 'variable', plural: 'variables' }, addAllFields: true, supportAutoMap: false },
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
		hint: 'The media_id returned by Media > Upload, with the same account',
		displayOptions: { show: { headerMedia: ['mediaId'] } },
	},
	{
		displayName: 'Input Binary Field',
		name: 'headerMediaBinaryField',
		type: 'string',
		default: 'data',
		hint: 'The name of the input binary field containing the header file; each distinct file is uploaded once per run',
		displayOptions: { show: { headerMedia: ['binary'] } },
	},
	{
		displayName: 'Header Media URL',
		name: 'headerMediaUrl',
		type: 'string',
		default: '',
		placeholder: 'https://shop.example.com/banner.png',
		hint: 'Downloaded by n8n (not by the service), then uploaded with this credential; each distinct file once per run',
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
				description: 'Whether to fail without sending when the template is not APPROVED (read from the template the node reads once per run anyway)',
			},
			{
				displayName: 'Variables (List)',
				name: 'templateVariables',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true, sortable: true },
				placeholder: 'Add Variable',
				default: {},
				description: 'Where Variables cannot be mapped (the template given by an expression): the body variables in order, the first fills {{1}}',
				options: [{ displayName: 'Variable', name: 'variable', values: [{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. {{ $json.firstname }}' }] }],
			},
			{
				displayName: 'Variables (JSON)',
				name: 'variablesJson',
				type: 'json',
				default: '',
				placeholder: '["Ada", "A-1001"]',
				description: 'The body variables as JSON instead: an array in order ({{1}} first), or an object such as {"1": "Ada"} or {"customer_name": "Ada"}',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['template'], operation: ['send'] } }, properties);

/** A run's reads and uploads, shared by its items: each template read once, each distinct file uploaded once. */
interface SendState {
	batches: BatchPacer;
	templates: Map<string, Promise<TemplateRecord>>;
	downloads: Map<string, Promise<BinaryFile>>;
	uploads: Map<string, Promise<string>>;
	unchecked: Set<string>;
}

export async function prepare(this: IExecuteFunctions): Promise<SendState> {
	return { batches: new BatchPacer(this), templates: new Map(), downloads: new Map(), uploads: new Map(), unchecked: new Set() };
}

export const hints = (state: SendState) => [
	...state.batches.hints(),
	...[...state.unchecked].map((template) => ({
		message: `The variables sent with template ${template} were not checked: the service lists no text for it, so its placeholders are unknown. A send that does not fit is refused by the service.`,
		type: 'warning' as const,
	})),
];

/** One recipient's messages reach the service in input order, never overlapping (the key is the E.164 phone). */
export function orderingKey(this: IExecuteFunctions, itemIndex: number): string {
	return readPhone(this, 'phone', itemIndex, { label: 'phone', required: true });
}

/** Shared by the lanes (taken before any await); a failure is not: each item then tries, and fails, on its own. */
async function once<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
	const shared = cache.get(key);
	if (shared) {
		try {
			return await shared;
		} catch {
			// Tried again below, for this item.
		}
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
	const recipient = phone ?? readPhone(this, 'phone', itemIndex, { label: 'phone', required: true });
	const id = readTemplateId(this, itemIndex);
	const given = readValues(this, itemIndex);
	const checkState = readBoolean(this, 'options.checkState', itemIndex, { label: 'Check State Before Sending', fallback: false });
	const media = await readHeaderMedia(this, itemIndex);
	const template = await once(state.templates, id, async () => await apiRequest(this, 'templateGet', { pathParams: { id }, itemIndex }));
	if (checkState && template.state !== 'APPROVED') throw notApproved(this, template, id, itemIndex);
	const values = sendFields(fitted(this, itemIndex, template, id, given, state));
	const headerMediaId = 'file' in media || 'url' in media ? await uploadOnce(this, itemIndex, state, media) : media.mediaId;
	const body = compact({ phone: recipient, ...values, header_media_id: headerMediaId });
	// Without the check, a DRAFT or PENDING template gets HTTP 400 with its state, shown by the transport (rule E4).
	const sent = await apiRequest(this, 'templateSend', { pathParams: { id }, body, itemIndex });
	return { records: [headerMediaId ? { ...sent, header_media_id: headerMediaId } : sent] };
}

/**
 * The item's values: mapped per placeholder (Variables), or for the body from the list or JSON (a template the editor
 * could not read), as placeholder ids (`body:1`) -> text. Given twice, empty, or not as text, fails the item.
 */
function readValues(ctx: IExecuteFunctions, itemIndex: number): Map<string, string> {
	const mapped = ctx.getNodeParameter('variables.value', itemIndex, null);
	const list = readEntries(ctx, 'options.templateVariables', itemIndex, { label: 'Variables (List)', entry: 'variable' }).map((entry) => entry.value);
	const json = readJson(ctx, 'options.variablesJson', itemIndex, {
		expect: 'objectOrArray',
		label: 'Variables (JSON)',
		showValue: true,
		example: 'Write an array such as ["Ada", "A-1001"] or an object such as {"1": "Ada", "2": "A-1001"}.',
	});
	const sources = [isPlainObject(mapped) ? Object.entries(mapped) : [], list.map((value, n) => [`body:${n + 1}`, value]), Object.entries(json ?? {}).map(([key, value]) => [Array.isArray(json) ? `body:${Number(key) + 1}` : `body:${key}`, value])].filter((entries) => entries.length);
	if (sources.length > 1) throw itemError(ctx, itemIndex, 'the variables are given twice (Variables, Variables (List), Variables (JSON))', 'Use one of them and leave the others empty.');
	const values = new Map<string, string>();
	for (const [key, value] of sources[0] ?? []) {
		const field = { label: `variable {{${String(key).split(':')[1]}}}`, keepSpaces: true, required: true as const, description: 'WhatsApp refuses a template message with an empty variable. Check the expression that fills it.' };
		values.set(String(key), textValue(ctx, value, itemIndex, field));
	}
	return values;
}

/**
 * The values checked against the template's placeholders (empty ones failed already): a placeholder left without a
 * value, or a value for a placeholder the template does not have, fails the item, naming them. A template without text is sent
 * unchecked (the run's hint says so).
 */
function fitted(ctx: IExecuteFunctions, itemIndex: number, template: TemplateRecord, id: string, values: Map<string, string>, state: SendState): Map<string, string> {
	const placeholders = placeholdersOf(template);
	const title = templateTitle(template, id);
	if (!placeholders) {
		state.unchecked.add(title);
		return values;
	}
	const labels = new Map(placeholders.map((placeholder) => [placeholder.id, placeholder.label.split(' — ')[0]]));
	const named = (ids: string[]) => ids.map((key) => labels.get(key) ?? `{{${key.split(':')[1]}}} (${key.split(':')[0]})`).join(', ');
	const missing = placeholders.filter((placeholder) => !values.has(placeholder.id)).map((placeholder) => placeholder.id);
	const extra = [...values.keys()].filter((key) => !labels.has(key));
	if (!missing.length && !extra.length) return values;
	const problems = [missing.length ? `no value for ${named(missing)}` : '', extra.length ? `a value for ${named(extra)}, which it does not have` : ''];
	throw itemError(
		ctx,
		itemIndex,
		`the variables do not fit template ${title}: ${problems.filter(Boolean).join('; ')}`,
		'WhatsApp refuses a template message whose values do not fill its placeholders exactly, so nothing was sent. Map one value per placeholder under Variables.',
	);
}

function notApproved(ctx: IExecuteFunctions, template: TemplateRecord, id: string, itemIndex: number): NodeOperationError {
	const state = template.state ?? 'unknown';
	const reason = state === 'REJECTED' ? rejectionReason(template) : undefined;
	const next: Record<string, string> = {
		DRAFT: 'Submit it for review (Template > Submit for Review), then wait until it is APPROVED (Template > Wait for Approval).',
		PENDING: 'It is still in review. Wait until it is APPROVED (Template > Wait for Approval) before sending.',
		REJECTED: `It was rejected${reason ? `: ${reason}` : ''}. Create a corrected draft and submit it.`,
	};
	// The router puts the state into the Continue On Fail error item, like the service's own 400 answer.
	return itemError(ctx, itemIndex, `template ${templateTitle(template, id)} is ${state}, so it was not sent; only APPROVED templates can be sent`, next[state], { state });
}

/** The header media the item asks for: none, a media id, a file of the item, or a URL; read and checked before any call. */
async function readHeaderMedia(ctx: IExecuteFunctions, itemIndex: number): Promise<{ mediaId?: string } | { file: BinaryFile } | { url: string }> {
	const source = readOption(ctx, 'headerMedia', itemIndex, { label: 'Header Media', values: ['none', 'mediaId', 'binary', 'url'], fallback: 'none' });
	if (source === 'mediaId') return { mediaId: readText(ctx, 'headerMediaId', itemIndex, { label: 'Header Media ID' }) };
	if (source === 'binary') return { file: await readBinaryFile(ctx, itemIndex, readText(ctx, 'headerMediaBinaryField', itemIndex, { label: 'Input Binary Field', required: true })) };
	if (source === 'none') return {};
	const url = readText(ctx, 'headerMediaUrl', itemIndex, { label: 'Header Media URL', required: true });
	if (!/^https?:\/\/[^/\s]+/i.test(url)) throw itemError(ctx, itemIndex, `the Header Media URL "${url}" is not an http(s) address`, 'Give the full address of the file, e.g. https://shop.example.com/banner.png.');
	return { url };
}

/**
 * The file uploaded with this credential (the account that sends owns it, rule M3), each distinct content once per
 * run; a URL downloaded by n8n's own request helper (never through the service), each once per run.
 */
async function uploadOnce(ctx: IExecuteFunctions, itemIndex: number, state: SendState, media: { file: BinaryFile } | { url: string }): Promise<string> {
	const file = 'file' in media ? media.file : await once(state.downloads, media.url, async () => await download(ctx, itemIndex, media.url));
	const content = createHash('sha256').update(file.mimeType).update(file.bytes).digest('base64url');
	return await once(state.uploads, content, async () => (await uploadMedia(ctx, itemIndex, file)).mediaId);
}

async function download(ctx: IExecuteFunctions, itemIndex: number, url: string): Promise<BinaryFile> {
	try {
		const response = (await ctx.helpers.httpRequest({ url, encoding: 'arraybuffer', returnFullResponse: true })) as { body: ArrayBuffer; headers: IDataObject };
		const mimeType = String(response.headers['content-type'] ?? 'application/octet-stream').split(';')[0];
		return { bytes: Buffer.from(response.body), mimeType, fileName: decodeURIComponent(new URL(url).pathname.split('/').pop() || 'header') };
	} catch (error) {
		throw itemError(ctx, itemIndex, `the header media could not be downloaded from ${url}: ${(error as Error).message}`, 'Check that n8n can reach the address and that it serves the file.');
	}
}

export const option: INodePropertyOptions = {
		name: 'Send',
		value: 'send',
		description:
			'Send an APPROVED template to one phone number, its variables filling {{1}}, {{2}}... in order. A DRAFT or PENDING template is refused with its state.',
		action: 'Send a template',
	};
