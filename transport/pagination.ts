import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest, type CustomRoute, type RequestSpec } from './request';
import type { RouteName } from './routes';
import type { ApiContext } from './session';

/**
 * Page size asked of the service by callers that may stop early (iteratePages: the trigger's polls, the template
 * picker). Its default and maximum are not shown; docs/api-assumptions.md.
 */
export const PAGE_SIZE = 100;

/**
 * Page size asked when the whole list (or the first `limit` records) is read with listRecords (Return All, Limit,
 * pickers): the largest page the service is assumed to serve (docs/api-assumptions.md), so 50,000 contacts take 50
 * requests instead of 500 (bench/README.md). A service that serves fewer is still paged to the end (see below).
 */
export const RETURN_ALL_PAGE_SIZE = 1000;

export interface ListPage {
	records: IDataObject[];
	total?: number;
}

/** The list shape is not shown: accept `data` as an array, or `{items|results|data: [...]}` with an optional total. */
export function readListPage(data: unknown): ListPage {
	if (Array.isArray(data)) return { records: data as IDataObject[] };
	if (data && typeof data === 'object') {
		const object = data as IDataObject;
		for (const key of ['items', 'results', 'data', 'records']) {
			if (Array.isArray(object[key])) {
				const totalValue = object.total ?? object.totalItems ?? object.total_count ?? object.count;
				const total = typeof totalValue === 'number' ? totalValue : Number(totalValue);
				return {
					records: object[key] as IDataObject[],
					total: Number.isFinite(total) && totalValue !== undefined ? total : undefined,
				};
			}
		}
	}
	return { records: [] };
}

export interface ListOptions extends Omit<RequestSpec, 'body' | 'formData'> {
	/** Stop after this many records; undefined = Return All. */
	limit?: number;
	pageSize?: number;
}

/**
 * Rule L3: pages a list with `currentPage`, `page` and `limit`. Return All walks to the last page; a Limit
 * stops exactly there, asking no page it does not need. A service that ignores the page number (the same page
 * twice) is an error, never an endless loop.
 */
export async function* iteratePages(
	ctx: ApiContext,
	route: RouteName | CustomRoute,
	options: ListOptions = {},
): AsyncGenerator<IDataObject[]> {
	const pageSize = Math.max(1, Math.min(options.pageSize ?? PAGE_SIZE, options.limit ?? Infinity));
	let fetched = 0;
	let received = 0;
	let longestPage = 0;
	let previousFingerprint: string | undefined;
	for (let page = 1; ; page++) {
		const wanted = options.limit === undefined ? pageSize : Math.min(pageSize, options.limit - fetched);
		if (wanted <= 0) return;
		const data = await apiRequest(ctx, route, {
			...options,
			qs: { ...(options.qs ?? {}), currentPage: page, page, limit: pageSize },
		});
		const { records, total } = readListPage(data);
		if (records.length === 0) return;

		const fingerprint = pageFingerprint(records);
		if (fingerprint === previousFingerprint) {
			throw new NodeApiError(
				ctx.getNode(),
				{ message: 'The service returned the same page twice' },
				{
					message: `The service returned the same records for page ${page} as for page ${page - 1}: it seems to ignore the page parameter, so paging was stopped`,
					itemIndex: options.itemIndex,
				},
			);
		}
		previousFingerprint = fingerprint;

		received += records.length;
		const kept = records.length > wanted ? records.slice(0, wanted) : records;
		fetched += kept.length;
		yield kept;

		// With a total, trust it. Without one, a page shorter than asked may be the service's own cap on the page
		// size: the list ends at an empty page, or at a page shorter than the longest one already served.
		const lastPage = total !== undefined ? received >= total : records.length < longestPage;
		longestPage = Math.max(longestPage, records.length);
		if (lastPage) return;
	}
}

export async function listRecords(
	ctx: ApiContext,
	route: RouteName | CustomRoute,
	options: ListOptions = {},
): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	const pageSize = options.pageSize ?? RETURN_ALL_PAGE_SIZE;
	for await (const records of iteratePages(ctx, route, { ...options, pageSize })) {
		for (const record of records) all.push(record);
	}
	return all;
}

function pageFingerprint(records: IDataObject[]): string {
	return `${records.length}:${JSON.stringify(records[0])}:${JSON.stringify(records[records.length - 1])}`;
}
