import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { formatDuration } from '../../../../transport/format';
import { apiRequest, pause } from '../../../../transport/request';
import { collection, templateLocator } from '../../descriptions';
import { itemError, readNumber, readOption } from '../../helpers/parameters';
import { readTemplateId, rejectionReason, templateTitle } from '../../helpers/template';

/** The wait after `intervalMs`: each is 1.5 times longer than the one before, up to a minute (review takes minutes to hours). */
export const nextInterval = (intervalMs: number) => Math.min(intervalMs * 1.5, 60_000);

/** The shortest wait between two checks, for the panel and the reader alike: never a tight loop of checks. */
const MIN_INTERVAL_SECONDS = 0.01;

export const properties: INodeProperties[] = [
	{ ...templateLocator, description: 'The submitted (PENDING) template to wait for' },
	{
		displayName: 'Initial Interval (Seconds)',
		name: 'initialInterval',
		type: 'number',
		typeOptions: { minValue: MIN_INTERVAL_SECONDS, numberPrecision: 2 },
		default: 2,
		description:
			'Wait before the second check; each later wait is 1.5 times longer, up to 60 seconds',
	},
	{
		displayName: 'Timeout (Minutes)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 3 },
		default: 60,
		description: 'Give up after this long with an error naming the last state seen',
	},
	collection('options', [
		{
			displayName: 'On Rejection',
			name: 'onRejection',
			type: 'options',
			options: [
				{ name: 'Error', value: 'error', description: 'Fail the item with the rejection reason' },
				{
					name: 'Output Item',
					value: 'outputItem',
					description: 'Output the template with approved = false, to branch on it',
				},
			],
			default: 'error',
			description: 'What to do when the review rejects the template',
		},
	]),
];

/** Rule T3: poll the submitted template until the review is over, with growing intervals; a long wait per item, one at a time. */
export const oneItemAtATime = true;

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const id = readTemplateId(this, itemIndex);
	let intervalMs =
		1000 *
		readNumber(this, 'initialInterval', itemIndex, {
			label: 'Initial Interval',
			min: MIN_INTERVAL_SECONDS,
			fallback: 2,
			required: true,
			description: `Wait at least ${MIN_INTERVAL_SECONDS} seconds between checks, e.g. 2.`,
		});
	const timeoutMs =
		60_000 *
		readNumber(this, 'timeout', itemIndex, {
			label: 'Timeout',
			min: 0,
			fallback: 60,
			required: true,
			description: 'Use a number of minutes of 0 or more, e.g. 60.',
		});
	const onRejection = readOption(this, 'options.onRejection', itemIndex, {
		label: 'On Rejection',
		values: ['error', 'outputItem'],
		fallback: 'error',
	});
	const startedAt = Date.now();
	for (;;) {
		const template = await apiRequest(this, 'templateGet', { pathParams: { id }, itemIndex });
		const title = templateTitle(template, id);
		if (template.state === 'APPROVED') return [{ ...template, approved: true }];
		if (template.state === 'REJECTED') {
			const reason = rejectionReason(template);
			if (onRejection === 'outputItem')
				return [{ ...template, approved: false, ...(reason ? { reason } : {}) }];
			throw itemError(
				this,
				itemIndex,
				`template ${title} was REJECTED: ${reason ?? 'no reason given'}`,
				'Fix what the reason says in a new draft (Template > Create Draft) and submit it. To branch instead of failing, set Options > On Rejection to "Output Item".',
				{ state: 'REJECTED' },
			);
		}
		if (template.state === 'DRAFT')
			throw itemError(
				this,
				itemIndex,
				`template ${title} is a DRAFT, so it will never be approved while waiting`,
				'Submit it first (Template > Submit for Review), then wait for approval.',
				{ state: 'DRAFT' },
			);
		const waitedMs = Date.now() - startedAt;
		if (waitedMs >= timeoutMs)
			throw itemError(
				this,
				itemIndex,
				`template ${title} is still ${template.state ?? 'without a state'} after waiting ${formatDuration(waitedMs)} (timeout ${formatDuration(timeoutMs)})`,
				'The review is not finished yet. Run Wait for Approval again later, or raise the Timeout (reviews take minutes to hours).',
				{ state: template.state || undefined },
			);
		await pause(this, Math.min(intervalMs, timeoutMs - waitedMs));
		intervalMs = nextInterval(intervalMs);
	}
}

export const option = {
	name: 'Wait for Approval',
	description: 'Wait until a submitted template is APPROVED or REJECTED',
	action: 'Wait for a template to be approved',
};
