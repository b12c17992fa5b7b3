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
import { ROUTES, type ListRouteName } from './routes';
import {
	MAX_ANSWER_BYTES,
	MAX_PAGES_SIDE_BY_SIDE,
	PAGE_SIZE,
	RETURN_ALL_PAGE_SIZE,
} from './settings';

/** Rule L3: both page names carry the same 1-based number (the document names both, and not which one is read). */
export const pageQuery = (page: number, limit: number) => ({ currentPage: page, page, limit });

interface ListOptions extends Pick<RequestSpec, 'qs' | 'itemIndex'> {
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
		typeof route === 'string' ? route : { parse: readListPage, ...route },
		{ ...options, qs: { ...options.qs, ...pageQuery(page, pageSize) } },
	);
	activityOf(ctx).pagesRead++;
	return { ...(value as ListPage), bytes };
}

/**
 * The guards of one list read, page by page in whatever order the pages come: each record once (by its id, when
 * records have one), Max List Size, and Max Records (none under a Limit, which bounds the list itself). `take` answers
 * a page's records not read before, or none when the page only repeats others: an error when the total says more
 * remain (the service ignores the page number), or whenever `repeatFails`. `recordId` tells records apart.
 */
function guardList(
	ctx: ApiContext,
	{ limit, itemIndex }: ListOptions,
	repeatFails: boolean,
	recordId: (record: IDataObject) => string | undefined,
) {
	const { maxRecords, maxListBytes, names } = settingsOf(ctx);
	const pageOfId = new Map<string, number>();
	const pageOfFingerprint = new Map<string, number>();
	let kept = 0;
	const list = {
		/** Records served by the pages taken, repeats included: a total counts positions, not distinct ids. */
		served: 0,
		/** Bytes of answers left under Max List Size. */
		bytesLeft: maxListBytes,
		take(page: number, { records, total, bytes }: ListPage & { bytes: number }) {
			list.bytesLeft -= bytes;
			if (list.bytesLeft < 0)
				throw listCeilingError(
					ctx.getNode(),
					`${formatMegabytes(maxListBytes)} of answers`,
					names.maxListBytes,
					itemIndex,
				);
			if (records.length === 0) return records;
			const fingerprint = `${records.length}:${JSON.stringify(records[0])}:${JSON.stringify(records.at(-1))}`;
			const fresh = records.filter((record) => !pageOfId.has(recordId(record) ?? ''));
			// Records without an id cannot be told apart one by one: then the whole page decides.
			if (
				fresh.length === 0 ||
				(pageOfFingerprint.has(fingerprint) &&
					fresh.every((record) => recordId(record) === undefined))
			) {
				if (repeatFails || (total !== undefined && list.served < total)) {
					throw repeatedPageError(
						ctx.getNode(),
						page,
						pageOfFingerprint.get(fingerprint) ??
							pageOfId.get(recordId(records[0]) ?? '') ??
							page - 1,
						total ?? list.served,
						list.served,
						itemIndex,
					);
				}
				return [];
			}
			pageOfFingerprint.set(fingerprint, page);
			for (const id of fresh.map(recordId)) if (id) pageOfId.set(id, page);
			list.served += records.length;
			kept += fresh.length;
			if (limit === undefined && kept > maxRecords) {
				throw listCeilingError(
					ctx.getNode(),
					`${formatCount(maxRecords)} records`,
					names.maxRecords,
					itemIndex,
				);
			}
			return fresh;
		},
	};
	return list;
}

/**
 * Rule L3: a list's records, page by page, in order, with the list's guards (guardList). A Limit stops exactly
 * there, asking no page it does not need. The list ends at an empty page, at its total, at a page that only repeats
 * what came before (in a newest-first list without a total, the second in a row), or, without a total, at a page
 * shorter than the longest one served (a shorter page than asked may be the service's cap).
 *
 * Max List Size counts the pages in flight too: with a total known, pages are asked `concurrency` at a time, but
 * never more than the bytes left under the ceiling could hold at the largest answer, plus one.
 */
export async function* iteratePages(
	ctx: ApiContext,
	route: ListRouteName | CustomRoute,
	options: ListOptions = {},
) {
	// How the route's records are told apart and ordered come with it (routes.ts).
	const {
		limit,
		concurrency = 1,
		recordKey = 'id',
		newestFirst,
	} = { ...(typeof route === 'string' ? ROUTES[route] : undefined), ...options };
	let wanted = limit ?? Infinity;
	const pageSize = Math.max(1, Math.floor(Math.min(options.pageSize ?? PAGE_SIZE, wanted)));
	// A record's id with its type, so 1 and "1" stay two records (an object id as its JSON); undefined when it has none.
	const list = guardList(ctx, options, false, ({ [recordKey]: id }) =>
		id == null || id === '' ? undefined : `${typeof id}:${JSON.stringify(id)}`,
	);
	let longest = 0;
	let total: number | undefined;
	let repeatedPages = 0;
	for (let page = 1; ; ) {
		const window = Math.max(
			1,
			Math.min(
				concurrency,
				// The pages left: a total comes with a page served, and `longest` with it (at least 1).
				total === undefined ? 1 : Math.ceil(Math.min(total - list.served, wanted) / longest),
				// Max List Size: no more pages than the bytes left could hold at the largest answer, plus one.
				1 + Math.floor(list.bytesLeft / MAX_ANSWER_BYTES),
			),
		);
		// Every read of the window settles before anything is decided: no request outlives the list.
		const reads = await Promise.allSettled(
			Array.from(
				{ length: window },
				async (_, k) => await readPage(ctx, route, page + k, pageSize, options),
			),
		);
		for (const [k, read] of reads.entries()) {
			if (read.status === 'rejected') throw read.reason;
			const fresh = list.take(page + k, read.value);
			const size = read.value.records.length;
			// A newest-first list without a total reads past a full page of repeats; a second one in a row ends it.
			repeatedPages = fresh.length ? 0 : repeatedPages + 1;
			total = read.value.total;
			if (
				repeatedPages &&
				(!size || total !== undefined || size < longest || !newestFirst || repeatedPages > 1)
			)
				return;
			const taken = fresh.slice(0, wanted);
			wanted -= taken.length;
			yield taken;
			if (total !== undefined ? list.served >= total : size < longest) return;
			longest = Math.max(longest, size);
			if (wanted <= 0) {
				// Without a total, a list cut at the Limit may have ended there.
				activityOf(ctx)[total === undefined ? 'listsStoppedAtLimit' : 'listsCutAtLimit']++;
				return;
			}
		}
		page += window;
	}
}

/**
 * A list's pages from the last one backwards, for a reader that stops at the first page holding what it knows: it
 * costs requests in proportion to what is new at the end. Page 1 is read first, for the total and the page size the
 * service really serves (it may cap ours), and comes last. Without a total there is no last page to start from: the
 * whole list comes as one page, read as listRecords reads it. Here a page that only repeats others is always an
 * error: a service ignoring the page number would hide the list's end behind page 1 for good.
 */
export async function* pagesFromTheEnd(ctx: ApiContext, route: ListRouteName) {
	// Ids as text: a service writing one id as 5 on a page and "5" on another still serves one record.
	const list = guardList(ctx, {}, true, (record) => String(record.id));
	const first = await readPage(ctx, route, 1, PAGE_SIZE);
	const firstRecords = list.take(1, first);
	if (first.total === undefined) {
		yield await listRecords(ctx, route);
		return;
	}
	const served = firstRecords.length;
	const pageSize = served > 0 && served < Math.min(PAGE_SIZE, first.total) ? served : PAGE_SIZE;
	for (let page = Math.ceil(first.total / pageSize); page > 1; page--)
		yield list.take(page, await readPage(ctx, route, page, PAGE_SIZE));
	yield firstRecords;
}

/**
 * A whole list (Return All), or its first `limit` records, read in the largest pages, several at a time; `sharedBy`:
 * the lists read side by side, which share those (at least one page each).
 */
export async function listRecords(
	ctx: ApiContext,
	route: ListRouteName | CustomRoute,
	{ sharedBy = 1, ...options }: ListOptions & { sharedBy?: number } = {},
) {
	const all: IDataObject[] = [];
	for await (const records of iteratePages(ctx, route, {
		pageSize: RETURN_ALL_PAGE_SIZE,
		concurrency: Math.floor(
			Math.min(settingsOf(ctx).concurrency, MAX_PAGES_SIDE_BY_SIDE) / sharedBy,
		),
		...options,
	}))
		all.push(...records);
	return all;
}
