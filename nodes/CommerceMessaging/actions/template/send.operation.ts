import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BatchPacer, readBatching } from '../../helpers/batching';
import { compact, readBoolean, readPhone, readText } from '../../helpers/parameters';
import { templateIdParameter } from '../../helpers/template';
import { apiRequest } from '../../../../transport/request';
import type { OperationResult } from '../operation';
import { checkApprovedOnce, type ApprovalChecks } from './approvalCheck';
import { readVariables } from './variables';
import { batchingOption, phoneField, templateLocator } from '../../descriptions';

const properties: INodeProperties[] = [
	{
		...templateLocator,
		description: 'The APPROVED template to send. Only APPROVED templates can be sent.',
	},
	phoneField({
		required: true,
		description: 'Mobile number of the recipient in international E.164 format (plus, country code, number)',
	}),
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
	batches: BatchPacer;
	checks: ApprovalChecks;
}

export async function prepare(this: IExecuteFunctions): Promise<SendState> {
	return { batches: new BatchPacer(readBatching(this)), checks: new Map() };
}

/** Rule L2: a bulk send is spread out in batches with a pause between them, even without the option. */
export async function beforeItem(this: IExecuteFunctions, itemIndex: number, state: SendState, pause: (ms: number) => Promise<void>): Promise<void> {
	await state.batches.waitTurn(itemIndex, pause);
}

export const hints = (state: SendState) => state.batches.hints();

/** One recipient's messages reach the service in input order, never overlapping. */
export function orderingKey(this: IExecuteFunctions, itemIndex: number): string {
	return readPhone(this, 'phone', itemIndex, { label: 'phone', required: true });
}

export async function execute(this: IExecuteFunctions, itemIndex: number, state: SendState): Promise<OperationResult> {
	const id = templateIdParameter(this, itemIndex);
	const body = compact({
		phone: readPhone(this, 'phone', itemIndex, { label: 'phone', required: true }),
		variables: readVariables(this, itemIndex),
		header_media_id: readText(this, 'headerMediaId', itemIndex, { label: 'Header Media ID' }),
	});
	if (readBoolean(this, 'options.checkState', itemIndex, { label: 'Check State Before Sending', fallback: false })) {
		await checkApprovedOnce(this, state.checks, id, itemIndex);
	}
	// Without the check, a DRAFT or PENDING template gets HTTP 400 with its state, shown by the transport (rule E4).
	return { records: [await apiRequest(this, 'templateSend', { pathParams: { id }, body, itemIndex })] };
}
