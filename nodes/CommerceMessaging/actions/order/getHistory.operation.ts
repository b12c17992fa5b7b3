import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { timeOf } from '../../../../transport/answers';
import { iteratePages, listRecords } from '../../../../transport/pagination';
import { activityOf } from '../../../../transport/request';
import { RETURN_ALL_PAGE_SIZE } from '../../../../transport/settings';
import { collection, returnAllOrLimit } from '../../descriptions';
import { compact, itemError, readDate, readListLimit, readText } from '../../helpers/parameters';

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	collection('filters', [
		{
			displayName: 'Date From',
			name: 'dateFrom',
			type: 'dateTime',
			default: '',
			description: 'Only orders created at or after this moment',
		},
		{
			displayName: 'Date To',
			name: 'dateTo',
			type: 'dateTime',
			default: '',
			description: 'Only orders created at or before this moment',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'string',
			default: '',
			placeholder: 'paid',
			description: 'Only orders with this status, e.g. paid or shipped',
		},
	]),
];

/** A whole list per item: its pages are what runs several at a time (Request Options > Concurrency). */
export const oneItemAtATime = true;

/** Past synced orders, newest first, one output item per order. */
export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const { limit } = readListLimit(this, itemIndex);
	const status = readText(this, 'filters.status', itemIndex, { label: 'status filter' });
	const dateFrom = readDate(this, 'filters.dateFrom', itemIndex, 'Date From');
	const dateTo = readDate(this, 'filters.dateTo', itemIndex, 'Date To');
	const fromMs = timeOf(dateFrom) ?? -Infinity;
	const toMs = timeOf(dateTo) ?? Infinity;
	if (fromMs > toMs) {
		throw itemError(
			this,
			itemIndex,
			`Date From (${dateFrom}) is after Date To (${dateTo})`,
			'Swap the two dates, or leave one of them empty.',
		);
	}
	const qs = compact({ status, date_from: dateFrom, date_to: dateTo });
	// Status compared exactly, as a service filtering by it would; an order without a readable created_at is kept.
	const matches = (record: IDataObject) => {
		const created = timeOf(record.created_at);
		return (
			(!status || record.status === status) &&
			(created === undefined || (created >= fromMs && created <= toMs))
		);
	};
	// An order is one record (`order_id`, routes.ts): one that moves to the next page as a new order arrives is read once.
	const { listsCutAtLimit, listsStoppedAtLimit } = activityOf(this);
	const records = await listRecords(this, 'orderHistory', {
		qs,
		limit,
		itemIndex,
	});
	// The service may list orders its filters exclude: it does not read them (the document shows none), so they are
	// applied here. A Return All already holds the whole history, and a Limit filled with matches is done; otherwise
	// a Limit reads on until it is reached (Max Records bounds Return All only: an endless Limit here).
	if (limit === undefined || records.every(matches)) return records.filter(matches);
	const kept: IDataObject[] = [];
	for await (const page of iteratePages(this, 'orderHistory', {
		qs,
		itemIndex,
		pageSize: RETURN_ALL_PAGE_SIZE,
		limit: Infinity,
	})) {
		kept.push(...page.filter(matches));
		// Enough kept; or, newest first, a page reaches before Date From: no later page holds a match.
		if (
			kept.length >= limit ||
			page.some((record) => (timeOf(record.created_at) ?? Infinity) < fromMs)
		)
			break;
	}
	// The Limit hint is about what this read outputs, not the first one.
	Object.assign(activityOf(this), {
		listsCutAtLimit,
		listsStoppedAtLimit: listsStoppedAtLimit + Number(kept.length >= limit),
	});
	return kept.slice(0, limit);
}

export const option = {
	name: 'Get History',
	description: 'Get past orders synced to the service, newest first',
	action: 'Get order history',
};
