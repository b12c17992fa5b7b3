import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listRecords } from '../../../transport/pagination';
import { readOption } from '../helpers/parameters';

import type { PollEvent } from './types';
import {
	advance,
	newest,
	pastWatermark,
	readWatermarkState,
	stamp,
	uniqueById,
	type Stamped,
	type WatermarkState,
} from './watermark';

/**
 * Template Review Finished (rule T3 without a blocking wait): a v2 template left PENDING and is now APPROVED or
 * REJECTED. The service stamps the review with `reviewed_at`; the state is a watermark on it over the reviewed
 * templates. A template reviewed between two polls fires even if no poll ever saw it PENDING, and the state does
 * not hold a list of pending templates.
 */
const OUTCOMES = ['APPROVED', 'REJECTED'];

const properties: INodeProperties[] = [
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Outcome',
				name: 'outcome',
				type: 'options',
				default: 'any',
				options: [
					{ name: 'Approved Only', value: 'APPROVED', description: 'The template can now be sent' },
					{ name: 'Approved or Rejected', value: 'any' },
					{ name: 'Rejected Only', value: 'REJECTED', description: 'The output carries the rejection reason' },
				],
				description: 'Which review outcomes start the workflow',
			},
		],
	},
];

/** The reviewed templates. Without `reviewed_at` (not in the API document) the review is placed at `updated_at`. */
async function readReviewedTemplates(ctx: IPollFunctions): Promise<Stamped[]> {
	const records = await listRecords(ctx, 'templateList');
	const reviewed: Stamped[] = [];
	records.forEach((record, position) => {
		if (!OUTCOMES.includes(String(record.state))) return;
		const template = stamp(record, record.id, record.reviewed_at ?? record.updated_at, position);
		if (template) reviewed.push(template);
	});
	return uniqueById(reviewed);
}

const outcomeMatches = (record: IDataObject, filters: IDataObject) =>
	!filters.outcome || filters.outcome === 'any' || record.state === filters.outcome;

/** The template as the service returned it (state, reason, ...) plus the outcome as an event name. */
const asEvent = (record: IDataObject): IDataObject => ({
	...record,
	event: record.state === 'APPROVED' ? 'approved' : 'rejected',
});

export const templateReviewed: PollEvent<WatermarkState> = {
	properties: updateDisplayOptions({ show: { event: ['templateReviewed'] } }, properties),

	readFilters: (ctx) => ({
		outcome: readOption(ctx, 'filters.outcome', 0, { label: 'Outcome', values: ['any', 'APPROVED', 'REJECTED'], fallback: 'any' }),
	}),

	readState: readWatermarkState,

	async start(ctx) {
		return { mark: advance(undefined, await readReviewedTemplates(ctx)) ?? null };
	},

	async next(ctx, state, filters) {
		const poll = pastWatermark(state, await readReviewedTemplates(ctx), (record) => outcomeMatches(record, filters));
		return { ...poll, records: poll.records.map(asEvent) };
	},

	async latest(ctx, filters) {
		const templates = await readReviewedTemplates(ctx);
		const latest = newest(templates.filter((template) => outcomeMatches(template.record, filters)));
		return latest ? asEvent(latest.record) : undefined;
	},
};
