import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { batchingOption, readBatching, startsNewBatch, type BatchingSettings } from '../../helpers/batching';
import { compact, phoneParameter } from '../../helpers/parameters';
import {
	asTemplate,
	rejectionReason,
	templateIdParameter,
	templateLocator,
	templateTitle,
} from '../../helpers/template';
import { apiRequest } from '../../../../transport';
import type { OperationResult } from '../operation';

const properties: INodeProperties[] = [
	{
		...templateLocator,
		description: 'The APPROVED template to send. Only APPROVED templates can be sent.',
	},
	{
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+4915123456789',
		description: 'Mobile number of the recipient in international E.164 format (plus, country code, number)',
		hint: 'E.164: a plus, the country code and the number, no spaces or dashes (e.g. +4915123456789)',
	},
	{
		displayName: 'Template Variables',
		name: 'templateVariables',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Variable',
		default: {},
		description:
			'Values for the body variables, in order: the first fills {{1}}, the second {{2}}, and so on. Leave empty for a template without variables.',
		options: [
			{
				displayName: 'Variable',
				name: 'variable',
				values: [
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. {{ $json.firstname }}',
					},
				],
			},
		],
	},
	{
		displayName: 'Header Media ID',
		name: 'headerMediaId',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.media_id }}',
		hint: 'The media_id returned by Media > Upload, with the same account',
		description:
			'Image, video or document shown in the header of this recipient\'s message (sent as header_media_id). Only for templates with a media header.',
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
				description:
					'Whether to read the template first and fail without sending when it is not APPROVED (one extra request per template and run)',
			},
			{
				displayName: 'Variables (JSON)',
				name: 'variablesJson',
				type: 'json',
				default: '',
				placeholder: '["Ada", "A-1001"]',
				description:
					'The variables as JSON instead of the list above: an array in order ({{1}} first), or an object such as {"1": "Ada", "2": "A-1001"}',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['template'], operation: ['send'] } }, properties);

interface SendState {
	batching: BatchingSettings;
	/** Templates already found APPROVED in this run, so the check costs one request per template. */
	approved: Set<string>;
}

export async function prepare(this: IExecuteFunctions): Promise<SendState> {
	return { batching: readBatching(this), approved: new Set() };
}

/** Rule L2: a bulk send is spread out in batches with a pause between them, even without the option. */
export async function beforeItem(
	this: IExecuteFunctions,
	itemIndex: number,
	state: SendState,
	pause: (ms: number) => Promise<void>,
): Promise<void> {
	if (startsNewBatch(itemIndex, state.batching)) await pause(state.batching.batchIntervalMs);
}

export async function execute(this: IExecuteFunctions, itemIndex: number, state: SendState): Promise<OperationResult> {
	const id = templateIdParameter(this, itemIndex);
	const phone = phoneParameter(this, 'phone', itemIndex);
	const variables = readVariables(this, itemIndex);
	const headerMediaId = String(this.getNodeParameter('headerMediaId', itemIndex, '') ?? '').trim();
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	if (options.checkState === true && !state.approved.has(id)) {
		await assertApproved(this, id, itemIndex);
		state.approved.add(id);
	}

	const body = compact({ phone, variables, header_media_id: headerMediaId });
	// Without the check, a DRAFT or PENDING template gets HTTP 400 with its state, shown by the transport (rule E4).
	return (await apiRequest(this, 'templateSend', { pathParams: { id }, body, itemIndex })) as IDataObject;
}

async function assertApproved(ctx: IExecuteFunctions, id: string, itemIndex: number): Promise<void> {
	const template = asTemplate(await apiRequest(ctx, 'templateGet', { pathParams: { id }, itemIndex }));
	if (template.state === 'APPROVED') return;
	const state = template.state ?? 'unknown';
	const reason = state === 'REJECTED' ? rejectionReason(template) : undefined;
	const error = new NodeOperationError(
		ctx.getNode(),
		`Item ${itemIndex}: template ${templateTitle(template, id)} is ${state}, so it was not sent; only APPROVED templates can be sent`,
		{
			itemIndex,
			description:
				state === 'DRAFT'
					? 'Submit it for review (Template > Submit for Review), then wait until it is APPROVED (Template > Wait for Approval).'
					: state === 'PENDING'
						? 'It is still in review. Wait until it is APPROVED (Template > Wait for Approval) before sending.'
						: state === 'REJECTED'
							? `It was rejected${reason ? `: ${reason}` : ''}. Create a corrected draft and submit it.`
							: undefined,
		},
	);
	// The router puts the state into the Continue On Fail error item, like the service's own 400 answer.
	error.context.state = state;
	throw error;
}

/** The body variables, in order, from the list or from the JSON option (not both), checked before any call. */
function readVariables(ctx: IExecuteFunctions, itemIndex: number): string[] | IDataObject | undefined {
	const listed = (((ctx.getNodeParameter('templateVariables', itemIndex, {}) ?? {}) as IDataObject).variable ??
		[]) as IDataObject[];
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fromJson = parseVariablesJson(ctx, options.variablesJson, itemIndex);
	const fail = (message: string, description?: string) =>
		new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: ${message}`, { itemIndex, description });

	if (listed.length && fromJson !== undefined) {
		throw fail(
			'the variables are given twice, in Template Variables and in Variables (JSON)',
			'Use one of the two and leave the other empty.',
		);
	}
	if (fromJson !== undefined && !Array.isArray(fromJson)) return fromJson;
	const values = fromJson ?? listed.map((entry) => entry.value);
	const strings = values.map((value) => (value === null || value === undefined ? '' : String(value)));
	const empty = strings.findIndex((value) => value.trim() === '');
	if (empty !== -1) {
		throw fail(
			`variable {{${empty + 1}}} is empty`,
			'WhatsApp refuses a template message with an empty variable. Check the expression that fills it.',
		);
	}
	return strings.length ? strings : undefined;
}

function parseVariablesJson(
	ctx: IExecuteFunctions,
	raw: unknown,
	itemIndex: number,
): unknown[] | IDataObject | undefined {
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
	let value: unknown = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch {
			throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: Variables (JSON) is not valid JSON: ${raw}`, {
				itemIndex,
				description: 'Write an array such as ["Ada", "A-1001"] or an object such as {"1": "Ada", "2": "A-1001"}.',
			});
		}
	}
	if (Array.isArray(value)) {
		const nested = value.findIndex((entry) => entry !== null && typeof entry === 'object');
		if (nested !== -1) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Item ${itemIndex}: variable {{${nested + 1}}} in Variables (JSON) is an object or a list, not a text`,
				{ itemIndex },
			);
		}
		return value.length ? value : undefined;
	}
	if (value && typeof value === 'object') return Object.keys(value).length ? (value as IDataObject) : undefined;
	throw new NodeOperationError(
		ctx.getNode(),
		`Item ${itemIndex}: Variables (JSON) must be an array or an object, got ${JSON.stringify(value)}`,
		{ itemIndex },
	);
}
