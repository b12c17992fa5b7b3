import type { IDataObject } from 'n8n-workflow';

import { readListPage, type ListPage } from './answers';
import { formatCount, formatMegabytes } from './format';
import { listCeilingError, repeatedPageError } from './messages';
import {
	activityOf,
	sendAndRead,
	settingsOf,
	type ApiContext,
	type CustomRoute,
	type RequestSpec,
} from './request';
import type { ListRouteName } from './routes';
import {
	MAX_ANSWER_BYTES,
	MAX_PAGES_SIDE_BY_SIDE,
	PAGE_SIZE,
	RETURN_ALL_PAGE_SIZE,
} from './settings';

/** Rule L3: both page names carry the same 1-based number (the document names both, and not which one is read). */
export const pageQuery = (page: number, limit: number) => ({ currentPage: page, page, limit });

export interface ListOptions extends Pick<RequestSpec, 'qs' | 'itemIndex'> {
	/** Stop after this many records; undefined: the whole list. */
	limit?: number;
	pageSize?: number;
	/** Pages asked at once once the total is known; 1: one by one. */
	concurrency?: number;
}

/** One page of a list by its number, and the bytes of its answer. */
export async function readPage(
	ctx: ApiContext,
	route: ListRouteName | CustomRoute,
	page: number,
	pageSize: number,
	options: ListOptions = {},
) {
	const { value, bytes } = await sendAndRead(
		ctx,
		typeof route === 'string' ? route : { ...route, parse: readListPage },
		{ ...options, qs: { ...options.qs, ...pageQuery(page, pageSize) } },
	);
	activityOf(ctx).pagesRead++;
	return { ...(value as ListPage), bytes };
}

const recordId = (record: IDataObject) =>
	record?.id === undefined || record.id === null || record.id === ''
		? undefined
		: `${typeof record.id}:${String(record.id)}`;

/**
 * Rule L3: a list's records, page by page, in order; each record once (by `id`, when records have one). A Limit
 * stops exactly there, asking no page it does not need. The list ends at an empty page, at its total, at a page that
 * only repeats what came before (an error when the total says more remain: the service ignores the page number), or,
 * without a total, at a page shorter than the longest one served (a shorter page than asked may be the service's cap).
 *
 * Its ceilings, so a list cannot fill memory: Max Records (none under a Limit, which bounds the list itself) and Max
 * List Size, which counts the pages in flight too: with a total known, pages are asked `concurrency` at a time, but
 * never more than the bytes left under the ceiling could hold at the largest answer, plus one.
 */
export async function* iteratePages(
	ctx: ApiContext,
	route: ListRouteName | CustomRoute,
	options: ListOptions = {},
) {
	const { maxRecords, maxListBytes, names } = settingsOf(ctx);
	const { limit, itemIndex, concurrency = 1 } = options;
	const pageSize = Math.max(
		1,
		Math.floor(Math.min(options.pageSize ?? PAGE_SIZE, limit ?? Infinity)),
	);
	const pageOfId = new Map<string, number>();
	const pageOfFingerprint = new Map<string, number>();
	let wanted = limit ?? Infinity;
	let served = 0;
	let kept = 0;
	let bytes = 0;
	let longest = 0;
	let total: number | undefined;
	for (let page = 1; ; ) {
		const bytesAllowIn = 1 + Math.floor((maxListBytes - bytes) / MAX_ANSWER_BYTES);
		const pagesLeft =
			total === undefined || longest === 0
				? 1
				: Math.ceil(Math.min(total - served, wanted) / longest);
		const window = Math.max(1, Math.min(concurrency, pagesLeft, bytesAllowIn));
		// Every read of the window settles before anything is decided: no request outlives the list.
		const reads = await Promise.allSettled(
			Array.from(
				{ length: window },
				async (_, k) => await readPage(ctx, route, page + k, pageSize, options),
			),
		);
		for (const [k, read] of reads.entries()) {
			if (read.status === 'rejected') throw read.reason;
			const { records } = read.value;
			bytes += read.value.bytes;
			if (bytes > maxListBytes)
				throw listCeilingError(
					ctx.getNode(),
					`${formatMegabytes(maxListBytes)} of answers`,
					names.maxListBytes,
					itemIndex,
				);
			if (records.length === 0) return;
			const fingerprint = `${records.length}:${JSON.stringify(records[0])}:${JSON.stringify(records[records.length - 1])}`;
			const fresh = records.filter((record) => !pageOfId.has(recordId(record) ?? ''));
			// Records without an id cannot be told apart one by one: then the whole page decides.
			if (
				fresh.length === 0 ||
				(pageOfFingerprint.has(fingerprint) &&
					fresh.every((record) => recordId(record) === undefined))
			) {
				if (read.value.total !== undefined && served < read.value.total) {
					const earlier =
						pageOfFingerprint.get(fingerprint) ??
						pageOfId.get(recordId(records[0]) ?? '') ??
						page + k - 1;
					throw repeatedPageError(
						ctx.getNode(),
						page + k,
						earlier,
						read.value.total,
						served,
						itemIndex,
					);
				}
				return;
			}
			pageOfFingerprint.set(fingerprint, page + k);
			for (const record of fresh) if (recordId(record)) pageOfId.set(recordId(record)!, page + k);
			served += records.length;
			kept += fresh.length;
			if (limit === undefined && kept > maxRecords) {
				throw listCeilingError(
					ctx.getNode(),
					`${formatCount(maxRecords)} records`,
					names.maxRecords,
					itemIndex,
				);
			}
			total = read.value.total;
			const taken = fresh.slice(0, wanted);
			wanted -= taken.length;
			yield taken;
			if (total !== undefined ? served >= total : records.length < longest) return;
			longest = Math.max(longest, records.length);
			if (wanted <= 0) {
				activityOf(ctx).listsCutAtLimit++;
				return;
			}
		}
		page += window;
	}
}

/** A whole list (Return All), or its first `limit` records, read in the largest pages, several at a time. */
export async function listRecords(
	ctx: ApiContext,
	route: ListRouteName | CustomRoute,
	options: ListOptions = {},
) {
	const all: IDataObject[] = [];
	const concurrency =
		options.concurrency ?? Math.min(settingsOf(ctx).concurrency, MAX_PAGES_SIDE_BY_SIDE);
	for await (const records of iteratePages(ctx, route, {
		pageSize: RETURN_ALL_PAGE_SIZE,
		...options,
		concurrency,
	}))
		all.push(...records);
	return all;
}
