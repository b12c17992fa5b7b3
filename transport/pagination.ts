import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { formatMegabytes } from './errors';
import { readListPage, type ListPage } from './envelope';
import { apiRequest, type CustomRoute, type RequestSpec } from './request';
import type { ListRouteName } from './routes';
import { activityOf, settingsOf, type ApiContext } from './session';

/**
 * Page size asked of the service by callers that may stop early (iteratePages: the trigger's polls). Its default
 * and maximum are not shown; docs/api-assumptions.md.
 */
export const PAGE_SIZE = 100;

/**
 * Page size asked when the whole list (or the first `limit` records) is read with listRecords (Return All, Limit,
 * pickers): the largest page the service is assumed to serve (docs/api-assumptions.md), for the fewest round trips.
 * A service that serves fewer is still paged to the end (see below).
 */
export const RETURN_ALL_PAGE_SIZE = 1000;

/**
 * Rule L3: the query of one page. Both page names carry the same 1-based number (the document names both and
 * says nothing of which one the service reads). The only place in the package that spells these parameters.
 */
export function pageQuery(page: number, limit: number): IDataObject {
	return { currentPage: page, page, limit };
}

export { readListPage, type ListPage };

export interface ListOptions extends Omit<RequestSpec, 'body' | 'formData'> {
	/** Stop after this many records; undefined = Return All. */
	limit?: number;
	pageSize?: number;
	/** Pages asked at once once the total is known (Request Options > Concurrency); 1 = one by one. */
	concurrency?: number;
	/**
	 * The most records read before the list fails with an error naming the ceiling (the run's setting unless given;
	 * none with a `limit`), so a list that never ends cannot grow memory without end.
	 */
	maxRecords?: number;
}

export interface PageRead extends ListPage {
	/** How many records the service put on the page, repeats included. */
	served: number;
	/** Every record of the page was already served by an earlier page (and the list has no total). */
	repeated: boolean;
}

/**
 * Reads pages of one list by number, in any order, and remembers what it was served, so a record comes out once
 * (de-duplicated by `id` when records have one) whatever the service does past the end of the list.
 *
 * A page that only repeats records already served is the repeated-page guard's case: with a total that says more
 * records remain, the service ignores the page number, and that is an error (never an endless loop, never a
 * silent half list). Without a total it cannot be told apart from a service that repeats its last page past the
 * end, so the page comes back empty with `repeated: true` and the caller ends the list there.
 */
export class PageReader {
	readonly pageSize: number;
	/** Records served so far, repeats included: a total counts positions in the list, not distinct ids. */
	received = 0;
	/** Records kept (each once): past `maxRecords` the list fails, so a list that never ends cannot fill memory. */
	private kept = 0;
	/** Bytes (UTF-8) of the answers read: past `maxListBytes` the list fails, so large records cannot fill memory either. */
	private bytes = 0;
	private readonly maxRecords: number;
	/** Record id -> the page that first served it. */
	private readonly pageOfId = new Map<string, number>();
	/** Page fingerprint -> page number, for records without ids. */
	private readonly fingerprints = new Map<string, number>();

	constructor(
		private readonly ctx: ApiContext,
		private readonly route: ListRouteName | CustomRoute,
		private readonly options: ListOptions = {},
	) {
		this.pageSize = Math.max(1, Math.floor(options.pageSize ?? PAGE_SIZE));
		this.maxRecords = options.maxRecords ?? settingsOf(ctx).maxRecords;
	}

	async read(page: number): Promise<PageRead> {
		const settings = settingsOf(this.ctx);
		const data = await apiRequest(this.ctx, this.route, {
			...this.options,
			qs: { ...(this.options.qs ?? {}), ...pageQuery(page, this.pageSize) },
			// Counted as each answer arrives, also for the pages read side by side: what the list holds, not what it kept.
			answerSize: (bytes) => {
				this.bytes += bytes;
				if (this.bytes > settings.maxListBytes) {
					throw ceilingError(this.ctx, `${formatMegabytes(settings.maxListBytes)} of answers`, settings.names.maxListBytes, this.options.itemIndex);
				}
			},
		});
		activityOf(this.ctx).pagesRead++;
		// A list route answers the page its parser read, a custom route (Other Endpoint) raw data: both read alike.
		const { records, total } = readListPage(data);
		if (records.length === 0) return { records, total, served: 0, repeated: false };

		const fingerprint = pageFingerprint(records);
		const samePage = this.fingerprints.get(fingerprint);
		const fresh = records.filter((record) => {
			const id = recordId(record);
			return id === undefined || !this.pageOfId.has(id);
		});
		// Records without an id cannot be told apart one by one: then the whole page decides.
		const repeated = fresh.length === 0 || (samePage !== undefined && fresh.every((r) => recordId(r) === undefined));
		if (repeated) {
			if (total !== undefined && this.received < total) {
				const earlier = samePage ?? this.pageOfId.get(recordId(records[0]) ?? '') ?? page - 1;
				throw new NodeApiError(
					this.ctx.getNode(),
					{ message: 'The service returned the same page twice' },
					{
						message: `The service returned the same records for page ${page} as for page ${earlier}: it seems to ignore the page parameter, so paging was stopped`,
						description: `The list says it holds ${total} records; ${this.received} came before the repeated page.`,
						itemIndex: this.options.itemIndex,
					},
				);
			}
			return { records: [], total, served: records.length, repeated: true };
		}

		this.fingerprints.set(fingerprint, page);
		for (const record of fresh) {
			const id = recordId(record);
			if (id !== undefined) this.pageOfId.set(id, page);
		}
		this.received += records.length;
		this.kept += fresh.length;
		if (this.kept > this.maxRecords) {
			throw ceilingError(this.ctx, `${this.maxRecords.toLocaleString('en-US')} records`, settingsOf(this.ctx).names.maxRecords, this.options.itemIndex);
		}
		return { records: fresh, total, served: records.length, repeated: false };
	}
}

/**
 * Rule L3: pages a list, yielding its pages in order. Return All walks to the last page; a Limit stops exactly
 * there, asking no page it does not need. The list ends at an empty page, at a repeated page without a total (see
 * PageReader), when the total is reached, or, without a total, at a page shorter than the longest one served (a
 * shorter page than asked may be the service's own cap on the page size).
 *
 * With `concurrency` > 1 and a total, the pages after the first are asked `concurrency` at a time (the round trip,
 * not the service, is what a long list costs), still yielded in order; without a total they stay one by one.
 */
export async function* iteratePages(
	ctx: ApiContext,
	route: ListRouteName | CustomRoute,
	options: ListOptions = {},
): AsyncGenerator<IDataObject[]> {
	const { concurrency = 1, ...readOptions } = options;
	const reader = new PageReader(ctx, route, {
		...readOptions,
		// A Limit bounds the list itself.
		maxRecords: options.limit === undefined ? options.maxRecords : Infinity,
		pageSize: Math.min(options.pageSize ?? PAGE_SIZE, options.limit ?? Infinity),
	});
	let fetched = 0;
	let longestPage = 0;
	let knownTotal: number | undefined;
	let servedSoFar = 0;
	const wanted = () => (options.limit === undefined ? Infinity : options.limit - fetched);
	/** Takes one page's records; says whether the list goes on after it. */
	const take = (read: PageRead, kept: IDataObject[][]): boolean => {
		if (read.served === 0 || read.repeated) return false;
		const room = wanted();
		const records = read.records.length > room ? read.records.slice(0, room) : read.records;
		fetched += records.length;
		if (records.length > 0) kept.push(records);
		knownTotal = read.total;
		// Counted here, page by page in order: the reader's own count already holds the pages read beside this one.
		servedSoFar += read.served;
		const last = read.total !== undefined ? servedSoFar >= read.total : read.served < longestPage;
		longestPage = Math.max(longestPage, read.served);
		if (!last && wanted() <= 0) activityOf(ctx).listsCutAtLimit++;
		return !last && wanted() > 0;
	};

	for (let page = 1; wanted() > 0; ) {
		let window = 1;
		if (concurrency > 1 && knownTotal !== undefined && longestPage > 0) {
			const recordsLeft = Math.min(knownTotal - servedSoFar, wanted());
			window = Math.max(1, Math.min(concurrency, Math.ceil(recordsLeft / longestPage)));
		}
		// Every read of the window settles before anything is decided: no request outlives the list's answer.
		const reads = await Promise.allSettled(Array.from({ length: window }, (_, k) => reader.read(page + k)));
		const kept: IDataObject[][] = [];
		let goesOn = true;
		for (const read of reads) {
			if (read.status === 'rejected') throw read.reason;
			goesOn = take(read.value, kept);
			if (!goesOn) break;
		}
		yield* kept;
		if (!goesOn) return;
		page += window;
	}
}

/**
 * At most this many pages of a Return All are asked at once, whatever the run's Concurrency: a page is up to
 * RETURN_ALL_PAGE_SIZE records whose parsing, not the round trip, is what costs beyond that (measured:
 * docs/performance.md).
 */
export const MAX_PAGES_SIDE_BY_SIDE = 8;

/** How many pages of a Return All are asked at once under a run's Concurrency. */
export const pagesSideBySide = (concurrency: number) => Math.min(concurrency, MAX_PAGES_SIDE_BY_SIDE);

export async function listRecords(
	ctx: ApiContext,
	route: ListRouteName | CustomRoute,
	options: ListOptions = {},
): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	const pageSize = options.pageSize ?? RETURN_ALL_PAGE_SIZE;
	const concurrency = options.concurrency ?? pagesSideBySide(settingsOf(ctx).concurrency);
	for await (const records of iteratePages(ctx, route, { ...options, pageSize, concurrency })) {
		for (const record of records) all.push(record);
	}
	return all;
}

/** A whole-list read that went past one of its ceilings; `name` is how the node names the setting, if it does. */
function ceilingError(ctx: ApiContext, ceiling: string, name: string | undefined, itemIndex?: number): NodeApiError {
	return new NodeApiError(
		ctx.getNode(),
		{ message: 'The list goes on beyond the most read at once' },
		{
			message: `The list goes on beyond ${ceiling}, the most read in one go${name ? ` (${name})` : ''}`,
			description: `Nothing was output, so no partial list is taken for the whole. If the list really is that long${name ? `, raise ${name}` : ''}; otherwise use Limit, or a filter, to read a part of it.`,
			itemIndex,
		},
	);
}

function recordId(record: IDataObject): string | undefined {
	const id = record && typeof record === 'object' ? record.id : undefined;
	return id === undefined || id === null || id === '' ? undefined : `${typeof id}:${String(id)}`;
}

function pageFingerprint(records: IDataObject[]): string {
	return `${records.length}:${JSON.stringify(records[0])}:${JSON.stringify(records[records.length - 1])}`;
}
