import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { compact, itemError, readDate, readListLimit, readText } from '../../helpers/parameters';
import { iteratePages, listRecords, RETURN_ALL_PAGE_SIZE } from '../../../../transport/pagination';
import { orderCreatedMs, orderMatcher, type OrderFilters } from '../../helpers/orderFilters';
import type { OperationResult } from '../operation';
import { returnAllOrLimit } from '../../descriptions';

const properties: INodeProperties[] = [
	...returnAllOrLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Date From',
				name: 'dateFrom',
				type: 'dateTime',
				default: '',
				description: 'Only orders created at or after this moment (sent as date_from, ISO 8601)',
			},
			{
				displayName: 'Date To',
				name: 'dateTo',
				type: 'dateTime',
				default: '',
				description: 'Only orders created at or before this moment (sent as date_to, ISO 8601)',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				placeholder: 'paid',
				description: 'Only orders with this status, e.g. pending, paid, shipped, delivered, cancelled or refunded',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['getHistory'] } },
	properties,
);

/** Past synced orders, newest first, one output item per order. A whole list per item: its pages are what runs several at a time (Request Options > Concurrency). */
export const oneItemAtATime = true;

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const { limit } = readListLimit(this, itemIndex);
	const qs = compact({
		status: readText(this, 'filters.status', itemIndex, { label: 'status filter' }),
		date_from: readDate(this, 'filters.dateFrom', itemIndex, { label: 'Date From' }),
		date_to: readDate(this, 'filters.dateTo', itemIndex, { label: 'Date To' }),
	});
	if (typeof qs.date_from === 'string' && typeof qs.date_to === 'string' && qs.date_from > qs.date_to) {
		throw itemError(
			this,
			itemIndex,
			`Date From (${qs.date_from}) is after Date To (${qs.date_to})`,
			'Swap the two dates, or leave one of them empty.',
		);
	}
	const records = await listRecords(this, 'orderHistory', { qs, limit, itemIndex });
	const wanted: OrderFilters = { status: qs.status as string, dateFrom: qs.date_from as string, dateTo: qs.date_to as string };
	const matches = orderMatcher(wanted);
	if (records.every(matches)) return { records };
	// The service listed orders its filters exclude: it does not read them (the document shows none), so they are
	// applied here. A Return All already holds the whole history; a Limit reads on until it is reached.
	if (limit === undefined) return { records: records.filter(matches) };
	return { records: await firstMatching(this, qs, wanted, limit, itemIndex) };
}

/** The first `limit` orders that pass the filters, newest first, from a history that ignores them. */
async function firstMatching(
	ctx: IExecuteFunctions,
	qs: IDataObject,
	filters: OrderFilters,
	limit: number,
	itemIndex: number,
): Promise<IDataObject[]> {
	const matches = orderMatcher(filters);
	const fromMs = filters.dateFrom ? Date.parse(filters.dateFrom) : undefined;
	const kept: IDataObject[] = [];
	for await (const page of iteratePages(ctx, 'orderHistory', { qs, itemIndex, pageSize: RETURN_ALL_PAGE_SIZE })) {
		for (const record of page) {
			if (!matches(record)) continue;
			kept.push(record);
			if (kept.length === limit) return kept;
		}
		// Newest first: once a page reaches before Date From, no later page holds a match.
		if (fromMs !== undefined && page.some((record) => (orderCreatedMs(record) ?? Infinity) < fromMs)) break;
	}
	return kept;
}
