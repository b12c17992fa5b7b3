import { collection } from '../descriptions';
import { readOption } from '../helpers/parameters';
import { readList, windowEvent } from './watermark';

/**
 * Template Review Finished (rule T3 without a blocking wait): a v2 template left PENDING and is now APPROVED or
 * REJECTED. The service stamps the review with `reviewed_at` (`updated_at` when it is missing: not in the API
 * document); the window runs on it over the reviewed templates. A template reviewed between two polls fires even if
 * no poll ever saw it PENDING, and the state does not hold a list of pending templates.
 */
const OUTCOMES = ['APPROVED', 'REJECTED'];

export const templateReviewed = windowEvent({
	name: 'Template Review Finished',
	description: 'A submitted WhatsApp template (v2) was APPROVED or REJECTED',
	properties: [
		collection('filters', [
			{
				displayName: 'Outcome',
				name: 'outcome',
				type: 'options',
				default: 'any',
				options: [
					{
						name: 'Approved Only',
						value: 'APPROVED',
						description: 'The template can now be sent',
					},
					{ name: 'Approved or Rejected', value: 'any' },
					{
						name: 'Rejected Only',
						value: 'REJECTED',
						description: 'The output carries the rejection reason',
					},
				],
				description: 'Which review outcomes start the workflow',
			},
		]),
	],
	readFilters: (ctx) => ({
		outcome: readOption(ctx, 'filters.outcome', 0, {
			label: 'Outcome',
			values: ['any', ...OUTCOMES],
			fallback: 'any',
		}),
	}),
	// A template not reviewed yet has no review time: it is no event.
	read: readList('templateList', (record) =>
		OUTCOMES.includes(String(record.state)) ? (record.reviewed_at ?? record.updated_at) : undefined,
	),
	matches: (record, filters) => filters.outcome === 'any' || record.state === filters.outcome,
	// The template as the service returned it (state, reason, ...) plus the outcome as an event name.
	output: (record) => ({ ...record, event: record.state === 'APPROVED' ? 'approved' : 'rejected' }),
});
