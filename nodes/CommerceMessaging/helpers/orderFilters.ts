import type { IDataObject } from 'n8n-workflow';

/**
 * The order history's filters as the node sends them: status, date_from and date_to on created_at
 * (docs/api-assumptions.md). The API document shows no query parameter for the history, so a service may ignore
 * them and list every order; these checks let the node hold to the filters itself.
 */
export interface OrderFilters {
	status?: string;
	/** ISO 8601, inclusive. */
	dateFrom?: string;
	/** ISO 8601, inclusive. */
	dateTo?: string;
}

/** An order's created_at in ms, or undefined when it has none the node can read. */
export function orderCreatedMs(record: IDataObject): number | undefined {
	const value = record.created_at;
	const ms = typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value : NaN;
	return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Whether an order passes the filters. Status is compared exactly, as a service filtering by it would; an order
 * without a readable created_at is kept when a date is asked, since nothing shows it lies outside.
 */
export function orderMatcher(filters: OrderFilters): (record: IDataObject) => boolean {
	const from = filters.dateFrom ? Date.parse(filters.dateFrom) : undefined;
	const to = filters.dateTo ? Date.parse(filters.dateTo) : undefined;
	return (record) => {
		if (filters.status && record.status !== filters.status) return false;
		const created = orderCreatedMs(record);
		if (created === undefined) return true;
		return (from === undefined || created >= from) && (to === undefined || created <= to);
	};
}
