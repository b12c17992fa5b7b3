import type { IDataObject } from 'n8n-workflow';

import { formatFirstTen, formatQuoted } from '../../../transport/format';
import { iteratePages } from '../../../transport/pagination';
import { collection } from '../descriptions';
import { readNumber, readText } from '../helpers/parameters';
import { newestVouched, stamp, type Stamped, windowEvent } from './watermark';

/**
 * New Order. The order history is newest first and filters on `created_at` with `date_from`
 * (docs/api-assumptions.md); `created_at` is set by the service when it first receives an order and never
 * changes, while later events for the same order only change `status` and `updated_at`. An order can show up
 * in the history a little after a poll that already read newer ones, so the window starts Look-Back minutes behind
 * the newest `created_at` and each poll reads it again, skipping the orders it already read there.
 */

const DEFAULT_LOOK_BACK_MINUTES = 10;

/** The second a time falls in: a lower bound for a service filter that may compare at second precision. */
const floorToSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/** Compared exactly, as the service's own status filter does. */
const statusMatches = (record: IDataObject, filters: IDataObject) =>
	!filters.status || record.status === filters.status;

export const newOrder = windowEvent({
	name: 'New Order',
	description: 'An order appeared in the order history',
	properties: [
		collection('filters', [
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				placeholder: 'paid',
				description:
					'Only new orders whose status is this one when the trigger first sees them, e.g. pending, paid, shipped, delivered, cancelled or refunded',
			},
		]),
		collection('orderOptions', [
			{
				displayName: 'Look-Back (Minutes)',
				name: 'lookBackMinutes',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_LOOK_BACK_MINUTES,
				description:
					'How far behind the newest order each poll reads again, so an order listed late with an older creation time is still emitted, once. 0: from the newest order on.',
			},
		]),
	],
	readFilters: (ctx) => ({
		status: readText(ctx, 'filters.status', 0, { label: 'status filter' }),
	}),
	/**
	 * Orders from the newest down to the window's start `from` (undefined at activation: down to the newest order
	 * n8n's clock vouches for). `date_from` asks the service for the window alone; for a service that ignores it,
	 * reading stops at the first page holding an older order. Orders the trigger cannot place on the timeline are
	 * reported instead of dropped in silence, each id quoted and cut.
	 */
	async read(ctx, from, now) {
		const orders: Stamped[] = [];
		// The orders that cannot be placed: only the first few are quoted, once the reading is done.
		const unreadable: IDataObject[] = [];
		for await (const records of iteratePages(ctx, 'orderHistory', {
			qs:
				from !== undefined && Number.isFinite(from)
					? { date_from: new Date(floorToSecond(from)).toISOString() }
					: {},
		})) {
			const page: Stamped[] = [];
			for (const record of records) {
				const order = stamp(record, record.order_id, record.created_at);
				if (order) page.push(order);
				else unreadable.push(record);
			}
			orders.push(...page);
			const floor = floorToSecond(
				from ??
					newestVouched(
						orders.map((order) => order.ms),
						now,
					),
			);
			if (page.some((order) => order.ms < floor)) break;
		}
		if (unreadable.length)
			ctx.logger.warn(
				`New Order: ${unreadable.length} order(s) in the history have no readable created_at or order_id and are not emitted: ${formatFirstTen(unreadable.map((record) => (record.order_id === undefined ? '(no order_id)' : formatQuoted(record.order_id))))}`,
				{ node: ctx.getNode().name, workflowId: ctx.getWorkflow().id },
			);
		return orders;
	},
	lookBackMs: (ctx) =>
		readNumber(ctx, 'orderOptions.lookBackMinutes', 0, {
			label: 'Look-Back (Minutes)',
			required: true,
			min: 0,
			fallback: DEFAULT_LOOK_BACK_MINUTES,
			description: 'Use a number of minutes of 0 or more, e.g. 10.',
		}) * 60_000,
	matches: statusMatches,

	async latest(ctx, filters) {
		// The first match is the newest order; the service may ignore the status filter (the document shows none).
		for await (const records of iteratePages(ctx, 'orderHistory', {
			qs: filters.status ? { status: filters.status } : {},
		})) {
			const match = records.find((record) => statusMatches(record, filters));
			if (match) return match;
		}
		return undefined;
	},
});
