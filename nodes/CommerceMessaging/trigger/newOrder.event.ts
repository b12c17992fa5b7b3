import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { iteratePages, listRecords } from '../../../transport/pagination';
import { readDecimal, readText } from '../helpers/parameters';
import type { PollEvent } from './types';
import {
	advance,
	byNaturalId,
	floorToSecond,
	type LookBackState,
	pastLookBack,
	readLookBackState,
	MAX_LOOK_BACK_IDS,
	stamp,
	type Stamped,
	startLookBack,
} from './watermark';

/**
 * New Order. The order history is newest first and filters on `created_at` with `date_from`
 * (docs/api-assumptions.md); `created_at` is set by the service when it first receives an order and never
 * changes, while later events for the same order only change `status` and `updated_at`. An order can show up
 * in the history a little after a poll that already read newer ones, so each poll reads a short window behind
 * the newest `created_at` again and skips the ids it already read there (a look-back watermark).
 */

export const DEFAULT_LOOK_BACK_MINUTES = 10;
const properties: INodeProperties[] = [
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				placeholder: 'paid',
				description:
					'Only new orders whose status is this one when the trigger first sees them, e.g. pending, paid, shipped, delivered, cancelled or refunded',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'orderOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Look-Back (Minutes)',
				name: 'lookBackMinutes',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_LOOK_BACK_MINUTES,
				description:
					'How far behind the newest order each poll reads again, so an order the service lists a little late, with an older creation time, is still emitted, once. 0 reads from the newest order on only.',
			},
		],
	},
];

function lookBackMs(ctx: IPollFunctions): number {
	const minutes = readDecimal(ctx, 'orderOptions.lookBackMinutes', 0, {
		label: 'Look-Back (Minutes)',
		phrasing: 'field',
		min: 0,
		fallback: DEFAULT_LOOK_BACK_MINUTES,
		description: 'Use a number of minutes of 0 or more, e.g. 10.',
	});
	return minutes * 60_000;
}

/** Records of a history page the trigger cannot place on the timeline, reported instead of dropped in silence. */
function reportUnreadable(ctx: IPollFunctions, unreadable: IDataObject[]): void {
	if (!unreadable.length) return;
	const shown = unreadable.slice(0, 10).map((record) => String(record.order_id ?? '(no order_id)'));
	const more = unreadable.length > shown.length ? ` and ${unreadable.length - shown.length} more` : '';
	ctx.logger.warn(
		`New Order: ${unreadable.length} order(s) in the history have no readable created_at or order_id and are not emitted: ${shown.join(', ')}${more}`,
		{ node: ctx.getNode().name, workflowId: ctx.getWorkflow().id },
	);
}

/**
 * Orders from the newest down to `from` (inclusive), every page of them. `stopWhen` decides, after each page,
 * whether older pages can hold nothing more of interest. Orders listed twice (a new order shifts the pages while
 * they are read) are kept once.
 */
async function readNewestOrders(
	ctx: IPollFunctions,
	from: number | undefined,
	stopWhen: (page: Stamped[], all: Stamped[]) => boolean,
): Promise<Stamped[]> {
	const byId = new Map<string, Stamped>();
	const unreadable: IDataObject[] = [];
	let position = 0;
	const qs = from === undefined ? {} : { date_from: new Date(floorToSecond(from)).toISOString() };
	for await (const records of iteratePages(ctx, 'orderHistory', { qs })) {
		const page: Stamped[] = [];
		for (const record of records) {
			const order = stamp(record, record.order_id, record.created_at, position++);
			if (!order) {
				unreadable.push(record);
				continue;
			}
			page.push(order);
			if (!byId.has(order.id)) byId.set(order.id, order);
		}
		if (stopWhen(page, [...byId.values()])) break;
	}
	reportUnreadable(ctx, unreadable);
	return [...byId.values()];
}

const wantedStatus = (filters: IDataObject) => (typeof filters.status === 'string' ? filters.status.trim() : '');

/** Compared exactly, as the service's own status filter does (Fetch Test Event uses that one). */
function statusMatches(record: IDataObject, filters: IDataObject): boolean {
	const wanted = wantedStatus(filters);
	return wanted === '' || record.status === wanted;
}

export const newOrder: PollEvent<LookBackState> = {
	properties: updateDisplayOptions({ show: { event: ['newOrder'] } }, properties),

	readFilters: (ctx) => ({ status: readText(ctx, 'filters.status', 0, { label: 'status filter' }) ?? '' }),

	readState: readLookBackState,

	async start(ctx) {
		// Only the newest instant matters: stop at the first page that reaches an older order.
		const orders = await readNewestOrders(ctx, undefined, (page, all) => {
			const newestMs = Math.max(...all.map((order) => order.ms));
			return page.some((order) => order.ms < newestMs);
		});
		// Orders created before activation are not new, even when they show up late.
		return startLookBack(advance(undefined, orders));
	},

	async next(ctx, state, filters) {
		const window = lookBackMs(ctx);
		const fromMs = state.from === null ? undefined : Date.parse(state.from);
		// date_from already ends the list at the window's start; the page check is for a service that ignores it.
		const orders = await readNewestOrders(ctx, fromMs, (page) =>
			fromMs !== undefined && page.some((order) => order.ms < floorToSecond(fromMs)),
		);
		// Orders created in the same instant have no order of their own: emit them by order id.
		const result = pastLookBack(state, orders, (record) => statusMatches(record, filters), window, byNaturalId);
		if (result.narrowed) {
			ctx.logger.warn(
				`New Order: more than ${MAX_LOOK_BACK_IDS} orders in the look-back window; it now starts at ${result.state.from}, so an order listed late with an older created_at is not emitted`,
				{ node: ctx.getNode().name, workflowId: ctx.getWorkflow().id },
			);
		}
		return { records: result.records, state: result.state };
	},

	async latest(ctx, filters) {
		const status = wantedStatus(filters);
		const qs = status ? { status } : {};
		const [order] = await listRecords(ctx, 'orderHistory', { qs, limit: 1 });
		if (!order || statusMatches(order, filters)) return order;
		// The service ignored the status filter (the document shows none): look for the newest match here.
		for await (const records of iteratePages(ctx, 'orderHistory', { qs })) {
			const match = records.find((record) => statusMatches(record, filters));
			if (match) return match;
		}
		return undefined;
	},
};
