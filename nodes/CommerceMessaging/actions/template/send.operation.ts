import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isObject, type TemplateRecord } from '../../../../transport/answers';
import { apiRequest, settingsOf } from '../../../../transport/request';
import { batchingOption, collection, phoneField, templateLocator } from '../../descriptions';
import { BatchPacer } from '../../helpers/batching';
import { readBinaryFile, uploadMedia, type BinaryFile } from '../../helpers/binary';
import {
	compact,
	itemError,
	readBoolean,
	readEntries,
	readJson,
	readOption,
	readText,
	textValue,
} from '../../helpers/parameters';
import {
	placeholdersOf,
	placeholderTitle,
	readTemplateId,
	rejectionReason,
	sendFields,
	templateTitle,
} from '../../helpers/template';
import { orderingKey } from '../message/send.operation';

export const properties: INodeProperties[] = [
	{ ...templateLocator, description: 'The APPROVED template to send' },
	{ ...phoneField, required: true },
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description:
			'One value per placeholder of the picked template: header text, body and URL buttons',
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
		description: 'The header file of a media-header template, uploaded with this credential',
		options: [
			{ name: 'From Binary Field', value: 'binary', description: 'A file of the input item' },
			{ name: 'From URL', value: 'url', description: 'A file n8n downloads' },
			{
				name: 'Media ID',
				value: 'mediaId',
				description: 'A media_id from Media > Upload with the same account',
			},
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
		hint: 'The binary field holding the header file; each distinct file is uploaded once per run',
		displayOptions: { show: { headerMedia: ['binary'] } },
	},
	{
		displayName: 'Header Media URL',
		name: 'headerMediaUrl',
		type: 'string',
		default: '',
		placeholder: 'https://shop.example.com/banner.png',
		hint: 'Downloaded by n8n (not by the service); each distinct file is uploaded once per run',
		displayOptions: { show: { headerMedia: ['url'] } },
	},
	collection('options', [
		batchingOption,
		{
			displayName: 'Check State Before Sending',
			name: 'checkState',
			type: 'boolean',
			default: false,
			description: 'Whether to fail without sending when the template is not APPROVED',
		},
		{
			displayName: 'Variables (JSON)',
			name: 'variablesJson',
			type: 'json',
			default: '',
			placeholder: '["Ada", "A-1001"]',
			description:
				'The body variables as a JSON array in order, or an object such as {"customer_name": "Ada"}',
		},
		{
			displayName: 'Variables (List)',
			name: 'templateVariables',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Variable',
			default: {},
			description: 'The body variables in order ({{1}} first), where Variables cannot be mapped',
			options: [
				{
					displayName: 'Variable',
					name: 'variable',
					values: [{ displayName: 'Value', name: 'value', type: 'string', default: '' }],
				},
			],
		},
	]),
];

/** A run's reads and uploads, shared by its items: each template read once, each distinct file uploaded once. */
export async function prepare(this: IExecuteFunctions) {
	return {
		batches: new BatchPacer(this),
		templates: new Map<string, Promise<TemplateRecord>>(),
		// Media ids by URL and by content hash (base64url, so never a URL).
		media: new Map<string, Promise<string>>(),
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

/** One recipient's messages reach the service in input order, never overlapping: the same key as a free-text send's. */
export { orderingKey };

/**
 * Shared by the items in flight (taken before any await). After a failure, the items that were waiting for it share
 * one more try, made by the first of them: a file is never uploaded once per waiting item. An error another item's try
 * raised is this item's: a copy with its index in the message and the context.
 */
function once<T>(
	cache: Map<string, Promise<T>>,
	key: string,
	make: () => Promise<T>,
	itemIndex: number,
) {
	const cached = cache.get(key);
	const tryOnce = () => {
		if (cache.get(key) === cached) cache.set(key, make());
		return cache.get(key)!;
	};
	return (cached?.catch(tryOnce) ?? tryOnce()).catch((error: Error & { context?: IDataObject }) => {
		const { context } = error;
		if (!context || context.itemIndex === itemIndex) throw error;
		throw Object.assign(
			Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error)),
			{
				context: { ...context, itemIndex },
				message: error.message.replace(/^Item \d+: /, `Item ${itemIndex}: `),
			},
		);
	});
}

/** A file name from a URL's path, %-decoded; one that is not valid %-encoding is kept as written. */
function fileNameOf(url: string) {
	const name = new URL(url).pathname.split('/').pop() || 'header';
	try {
		return decodeURIComponent(name);
	} catch {
		return name;
	}
}

/**
 * Rules T2, T5: the template is read once per run; its placeholders are checked against the item's values before the
 * send (WhatsApp refuses a send that does not fit them), its state too with Check State Before Sending; the header file
 * is uploaded with this credential, each distinct one once per run.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	state: SendState,
	phone?: string,
) {
	// Rule L2: a bulk send is spread out in batches with a pause between them, even without the option.
	return await state.batches.send(itemIndex, async () => {
		const recipient = phone ?? orderingKey.call(this, itemIndex);
		const id = readTemplateId(this, itemIndex);

		// The item's values: mapped per placeholder (Variables), or for the body from the list or JSON (a template
		// the editor could not read), as placeholder ids (`body:1`) -> text. Given twice, empty, or not as text, fails
		// the item. The mapper read whole: n8n's own check of its fields (read as `variables.value`) would fail an
		// empty one with the field's internal id, before the message below that names the placeholder.
		const mapped = (this.getNodeParameter('variables', itemIndex, null) as IDataObject | null)
			?.value;
		// A list fills the body in order ({{1}} first), an object by placeholder.
		const sources = [
			isObject(mapped) ? Object.entries(mapped) : [],
			...[
				readEntries(
					this,
					'options.templateVariables',
					itemIndex,
					'Variables (List)',
					'variable',
				).map((entry) => entry.value),
				readJson(this, 'options.variablesJson', itemIndex, {
					expect: 'objectOrArray',
					label: 'Variables (JSON)',
					showValue: true,
					example:
						'Write an array such as ["Ada", "A-1001"] or an object such as {"1": "Ada", "2": "A-1001"}.',
				}) ?? [],
			].map((body) =>
				Object.entries(body).map(
					([key, value]) => [`body:${Array.isArray(body) ? Number(key) + 1 : key}`, value] as const,
				),
			),
		].filter((entries) => entries.length);
		if (sources.length > 1)
			throw itemError(
				this,
				itemIndex,
				'the variables are given twice (Variables, Variables (List), Variables (JSON))',
				'Use one of them and leave the others empty.',
			);
		const values = new Map(
			(sources[0] ?? []).map(([key, value]) => [
				key,
				textValue(this, value, itemIndex, {
					label: `variable ${placeholderTitle(key)}`,
					keepSpaces: true,
					required: true,
					description:
						'WhatsApp refuses a template message with an empty variable. Check the expression that fills it.',
				}),
			]),
		);

		const checkState = readBoolean(this, 'options.checkState', itemIndex, {
			label: 'Check State Before Sending',
		});
		// The header media the item asks for: a media id, a file of the item, a URL, or none; read and checked
		// before any call.
		const source = readOption(this, 'headerMedia', itemIndex, {
			label: 'Header Media',
			values: ['none', 'mediaId', 'binary', 'url'],
			fallback: 'none',
		});
		let headerMediaId =
			source === 'mediaId'
				? readText(this, 'headerMediaId', itemIndex, { label: 'Header Media ID', required: true })
				: undefined;
		const binary =
			source === 'binary'
				? await readBinaryFile(
						this,
						itemIndex,
						readText(this, 'headerMediaBinaryField', itemIndex, {
							label: 'Input Binary Field',
							required: true,
						}),
					)
				: undefined;
		const url =
			source === 'url'
				? readText(this, 'headerMediaUrl', itemIndex, { label: 'Header Media URL', required: true })
				: undefined;
		if (url && !/^https?:\/\/[^/\s]+/i.test(url))
			throw itemError(
				this,
				itemIndex,
				`the Header Media URL "${url}" is not an http(s) address`,
				'Give the full address of the file, e.g. https://shop.example.com/banner.png.',
			);

		// Its failure too is the run's (the transport retried what could help): a wrong ID costs one request, not one
		// per item.
		if (!state.templates.has(id))
			state.templates.set(id, apiRequest(this, 'templateGet', { pathParams: { id }, itemIndex }));
		const template = await state.templates.get(id)!;
		const title = templateTitle(template, id);
		if (checkState && template.state !== 'APPROVED') {
			const current = template.state ?? 'unknown';
			const reason = rejectionReason(template);
			const next: Record<string, string> = {
				DRAFT:
					'Submit it for review (Template > Submit for Review), then wait until it is APPROVED (Template > Wait for Approval).',
				PENDING:
					'It is still in review. Wait until it is APPROVED (Template > Wait for Approval) before sending.',
				REJECTED: `It was rejected${reason ? `: ${reason}` : ''}. Create a corrected draft and submit it.`,
			};
			// The router puts the state into the Continue On Fail error item, like the service's own 400 answer.
			throw itemError(
				this,
				itemIndex,
				`template ${title} is ${current}, so it was not sent; only APPROVED templates can be sent`,
				next[current] ?? 'It is neither a draft nor in review: check its state in the service.',
				{ state: current },
			);
		}
		// Without the check, a DRAFT or PENDING template gets HTTP 400 with its state, shown by the transport (rule E4).

		// The values checked against the template's placeholders (empty ones failed already): a placeholder left without a
		// value, a value for a placeholder the template does not have, or a value WhatsApp refuses (a new line, a tab or
		// more than four spaces in a row) fails the item, naming them. A template without text is sent unchecked (the
		// run's hint says so).
		const placeholders = placeholdersOf(template);
		if (placeholders) {
			const known = new Set(placeholders.map((placeholder) => placeholder.id));
			const named = (ids: string[]) =>
				ids
					.map((key) =>
						known.has(key)
							? placeholderTitle(key)
							: `{{${key.slice(key.indexOf(':') + 1)}}} (${key.split(':')[0]})`,
					)
					.join(', ');
			const problems = (
				[
					['no value for ', [...known].filter((key) => !values.has(key)), ''],
					[
						'a value for ',
						[...values.keys()].filter((key) => !known.has(key)),
						', which it does not have',
					],
					[
						'a new line, a tab or more than four spaces in a row in ',
						[...values.keys()].filter((key) => /[\r\n\t]| {5}/.test(values.get(key)!)),
						'',
					],
				] as const
			)
				.filter(([, ids]) => ids.length)
				.map(([before, ids, after]) => `${before}${named(ids)}${after}`);
			if (problems.length)
				throw itemError(
					this,
					itemIndex,
					`the variables do not fit template ${title}: ${problems.join('; ')}`,
					'WhatsApp refuses a template message whose values do not fill its placeholders exactly, so nothing was sent. Map one value per placeholder under Variables: one line each, without tabs or more than four spaces in a row.',
				);
		}

		// The header file uploaded with this credential (the account that sends owns it, rule M3), each distinct
		// content once per run; a URL downloaded once per run by n8n's own request helper (never through the service),
		// within the run's Timeout and cancelled with the execution.
		const upload = (file: BinaryFile) =>
			once(
				state.media,
				createHash('sha256').update(file.mimeType).update(file.bytes).digest('base64url'),
				async () => (await uploadMedia(this, itemIndex, file)).mediaId,
				itemIndex,
			);
		if (binary) headerMediaId = await upload(binary);
		if (url)
			headerMediaId = await once(
				state.media,
				url,
				async () => {
					const response: { body: ArrayBuffer; headers: IDataObject } = await this.helpers
						.httpRequest({
							url,
							encoding: 'arraybuffer',
							returnFullResponse: true,
							timeout: settingsOf(this).retry.timeoutMs,
							// `timeout` bounds a silence only: the Timeout is also the deadline of the last byte.
							abortSignal: AbortSignal.any(
								[
									AbortSignal.timeout(settingsOf(this).retry.timeoutMs),
									this.getExecutionCancelSignal?.(),
								].filter((signal) => signal !== undefined),
							),
						})
						.catch((error: Error) => {
							throw itemError(
								this,
								itemIndex,
								`the header media could not be downloaded from ${url}: ${error.message}`,
								'Check that n8n can reach the address and that it serves the file.',
							);
						});
					return await upload({
						bytes: Buffer.from(response.body),
						mimeType: String(response.headers['content-type'] ?? 'application/octet-stream').split(
							';',
						)[0],
						fileName: fileNameOf(url),
					});
				},
				itemIndex,
			);
		const sent = await apiRequest(this, 'templateSend', {
			pathParams: { id },
			body: compact({ phone: recipient, ...sendFields(values), header_media_id: headerMediaId }),
			itemIndex,
		});
		// Said of the sends that went out: one the service refused has its error.
		if (!placeholders) state.unchecked.add(title);
		return [headerMediaId ? { ...sent, header_media_id: headerMediaId } : sent];
	});
}

export const option = {
	name: 'Send',
	description: 'Send an APPROVED template to a phone number',
	action: 'Send a template',
};
