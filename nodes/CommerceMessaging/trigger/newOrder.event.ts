import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { iteratePages, listRecords } from '../../../transport';
import type { PollEvent } from './types';
import {
	advance,
	byNaturalId,
	floorToSecond,
	pastWatermark,
	readWatermarkState,
	stamp,
	type Stamped,
	type WatermarkState,
} from './watermark';

/**
 * New Order. The order history is newest first and filters on `created_at` with `date_from`
 * (docs/api-assumptions.md); `created_at` is set by the service when it first receives an order and never
 * changes, while later events for the same order only change `status` and `updated_at`. The state is a
 * watermark on `created_at` plus the order ids at that instant.
 */
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
];

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
	let position = 0;
	const qs = from === undefined ? {} : { date_from: new Date(floorToSecond(from)).toISOString() };
	for await (const records of iteratePages(ctx, 'orderHistory', { qs })) {
		const page: Stamped[] = [];
		for (const record of records) {
			const order = stamp(record, record.order_id, record.created_at, position++);
			if (!order) continue;
			page.push(order);
			if (!byId.has(order.id)) byId.set(order.id, order);
		}
		if (stopWhen(page, [...byId.values()])) break;
	}
	return [...byId.values()];
}

const wantedStatus = (filters: IDataObject) => (typeof filters.status === 'string' ? filters.status.trim() : '');

/** Compared exactly, as the service's own status filter does (Fetch Test Event uses that one). */
function statusMatches(record: IDataObject, filters: IDataObject): boolean {
	const wanted = wantedStatus(filters);
	return wanted === '' || record.status === wanted;
}

export const newOrder: PollEvent<WatermarkState> = {
	properties: updateDisplayOptions({ show: { event: ['newOrder'] } }, properties),

	readState: readWatermarkState,

	async start(ctx) {
		// Only the newest instant matters: stop at the first page that reaches an older order.
		const orders = await readNewestOrders(ctx, undefined, (page, all) => {
			const newestMs = Math.max(...all.map((order) => order.ms));
			return page.some((order) => order.ms < newestMs);
		});
		return { mark: advance(undefined, orders) ?? null };
	},

	async next(ctx, state, filters) {
		const { mark } = state;
		const fromMs = mark ? Date.parse(mark.at) : undefined;
		// date_from already ends the list at the watermark; the page check is for a service that ignores it.
		const orders = await readNewestOrders(ctx, fromMs, (page) =>
			fromMs !== undefined && page.some((order) => order.ms < floorToSecond(fromMs)),
		);
		// Orders created in the same instant have no order of their own: emit them by order id.
		return pastWatermark(state, orders, (record) => statusMatches(record, filters), byNaturalId);
	},

	async latest(ctx, filters) {
		const status = wantedStatus(filters);
		const [order] = await listRecords(ctx, 'orderHistory', { qs: status ? { status } : {}, limit: 1 });
		return order;
	},
};
