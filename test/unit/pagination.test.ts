import type { IDataObject } from 'n8n-workflow';

/**
 * The paging rules of transport/pagination.ts against a fake list service (the request replaced), one for each
 * kind of server the API document allows: it says only "currentPage, limit, page" (L3), not the list's shape,
 * where its total lives, the largest page or what comes past the end.
 */
const mockService = jest.fn<Promise<unknown>, [unknown, unknown, { qs?: IDataObject }?]>();
jest.mock('../../transport/request', () => {
	const actual = jest.requireActual('../../transport/request');
	const { readListPage: read } = jest.requireActual('../../transport/answers');
	return {
		...actual,
		sendAndRead: async (...args: [unknown, unknown, { qs?: IDataObject }?]) => {
			const raw = await mockService(...args);
			return { value: read(raw), bytes: JSON.stringify(raw ?? null).length };
		},
	};
});
import { readListPage } from '../../transport/answers';
import {
	iteratePages,
	listRecords,
	pageQuery,
	pagesFromTheEnd,
	readPage,
} from '../../transport/pagination';
import { startRun } from '../../transport/request';
import { DEFAULT_RUN_SETTINGS } from '../../transport/settings';

const withConcurrency = (concurrency: number) => ({ ...DEFAULT_RUN_SETTINGS, concurrency });

type Paging =
	| 'standard'
	| 'repeat-last'
	| 'nested-total'
	| 'no-total'
	| 'meta-total'
	| 'bare-array'
	| 'repeat-last-no-total'
	| 'ignore-page'
	| 'ignore-page-no-total';

interface FakeList {
	records: IDataObject[];
	paging?: Paging;
	/** The server's own cap on the page size, whatever `limit` asks. */
	maxPageSize?: number;
}

/** A context whose Request Options ask pages one by one (the rules below); the concurrent reading has its own tests. */
const ctx = {
	getNode: () => ({
		id: '1',
		name: 'Commerce Messaging',
		type: 'x',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	}),
};
/** A node run's context whose Request Options ask Concurrency 8 (its run is started below). */
const concurrentCtx = { ...ctx };
const mocked = mockService;
let asked: Array<{ currentPage: unknown; page: unknown; limit: unknown }> = [];

function serve(list: FakeList) {
	asked = [];
	mocked.mockReset();
	mocked.mockImplementation(async (_ctx, _route, spec = {}) => {
		const qs = spec.qs ?? {};
		asked.push({ currentPage: qs.currentPage, page: qs.page, limit: qs.limit });
		const paging = list.paging ?? 'standard';
		const limit = Math.min(Number(qs.limit), list.maxPageSize ?? Infinity);
		const pages = Math.max(1, Math.ceil(list.records.length / limit));
		let page = paging.startsWith('ignore-page') ? 1 : Number(qs.currentPage);
		if (paging.startsWith('repeat-last') && page > pages) page = pages;
		const items = list.records.slice((page - 1) * limit, page * limit);
		const total = list.records.length;
		switch (paging) {
			case 'nested-total':
				return { items, pagination: { total, page, limit } };
			case 'meta-total':
				return { results: items, meta: { total } };
			case 'no-total':
			case 'repeat-last-no-total':
			case 'ignore-page-no-total':
				return { items };
			case 'bare-array':
				return items;
			default:
				return { items, total, currentPage: page, limit };
		}
	});
}

const records = (count: number, withIds = true): IDataObject[] =>
	Array.from({ length: count }, (_, n) =>
		withIds ? { id: n + 1, name: `r${n + 1}` } : { name: `r${n + 1}`, n },
	);
const pagesAsked = () => asked.map((query) => query.currentPage);
const ids = (list: IDataObject[]) => list.map((record) => record.id);

describe('Paging (transport/pagination.ts) against every kind of list server', () => {
	it('L3: the one page query names currentPage, page and limit with the same 1-based number', () => {
		expect(pageQuery(3, 50)).toEqual({ currentPage: 3, page: 3, limit: 50 });
	});

	it('L3: readListPage finds the records and the total wherever the list keeps them', () => {
		const rows = [{ id: 1 }];
		expect(readListPage(rows)).toEqual({ records: rows, total: undefined });
		expect(readListPage({ items: rows, total: 7 })).toEqual({ records: rows, total: 7 });
		expect(readListPage({ results: rows, total: '7' })).toEqual({ records: rows, total: 7 });
		expect(readListPage({ items: rows, pagination: { total: 9, page: 1, limit: 1 } })).toEqual({
			records: rows,
			total: 9,
		});
		expect(readListPage({ data: rows, meta: { total: 4 } })).toEqual({ records: rows, total: 4 });
		expect(readListPage({ items: rows })).toEqual({ records: rows, total: undefined });
		expect(readListPage({ items: rows, total: 'many' })).toEqual({
			records: rows,
			total: undefined,
		});
		expect(readListPage(null)).toEqual({ records: [] });
	});

	describe.each<[Paging, number | undefined]>([
		['standard', undefined],
		['standard', 10],
		['repeat-last', undefined],
		['repeat-last', 10],
		['nested-total', undefined],
		['nested-total', 10],
		['meta-total', 10],
		['no-total', undefined],
		['no-total', 10],
		['repeat-last-no-total', undefined],
		['repeat-last-no-total', 10],
		['bare-array', 10],
	])('a %s server (largest page %s)', (paging, maxPageSize) => {
		it.each([0, 1, 9, 10, 11, 20, 45])(
			'L3: Return All of %i records ends with every record once, no error',
			async (count) => {
				serve({ records: records(count), paging, maxPageSize });
				const all = await listRecords(ctx as never, 'contactList', { pageSize: 25 });
				expect(ids(all)).toEqual(ids(records(count)));
				// Never an endless walk: at most one page past the end.
				const served = Math.min(25, maxPageSize ?? Infinity);
				expect(asked.length).toBeLessThanOrEqual(Math.ceil(count / served) + 1);
				expect(pagesAsked()).toEqual(asked.map((_, n) => n + 1));
			},
		);

		it('L3: a Limit returns exactly that many and asks no page it does not need', async () => {
			serve({ records: records(45), paging, maxPageSize });
			const first = await listRecords(ctx as never, 'contactList', { limit: 25 });
			expect(ids(first)).toEqual(ids(records(25)));
			expect(asked.length).toBe(Math.ceil(25 / Math.min(25, maxPageSize ?? Infinity)));
			expect(asked.every((query) => query.limit === 25)).toBe(true);
		});
	});

	it('L3: with a total, the list ends at the total: no page past the end is asked', async () => {
		serve({ records: records(30), paging: 'repeat-last', maxPageSize: 10 });
		await listRecords(ctx as never, 'contactList');
		expect(pagesAsked()).toEqual([1, 2, 3]);
		serve({ records: records(30), paging: 'nested-total', maxPageSize: 10 });
		await listRecords(ctx as never, 'contactList');
		expect(pagesAsked()).toEqual([1, 2, 3]);
	});

	it('L3: without a total, a repeated last page ends the list quietly, each record once', async () => {
		serve({ records: records(30), paging: 'repeat-last-no-total', maxPageSize: 10 });
		const all = await listRecords(ctx as never, 'contactList');
		expect(ids(all)).toEqual(ids(records(30)));
		expect(pagesAsked()).toEqual([1, 2, 3, 4]);
	});

	it('L3: an empty page ends the list without an error, even when a total says more remain', async () => {
		serve({ records: records(30), maxPageSize: 10 });
		const inner = mocked.getMockImplementation()!;
		mocked.mockImplementation(async (...args) => {
			const answer = (await inner(...args)) as IDataObject;
			return asked.length === 2 ? { ...answer, items: [] } : answer;
		});
		const all = await listRecords(ctx as never, 'contactList');
		expect(ids(all)).toEqual(ids(records(10)));
		expect(pagesAsked()).toEqual([1, 2]);
	});

	it('L3: a page that overlaps the one before keeps only the records not served yet', async () => {
		const rows = records(25);
		const pages = [rows.slice(0, 10), rows.slice(5, 15), rows.slice(15, 25)];
		serve({ records: rows });
		mocked.mockImplementation(async (_ctx, _route, spec = {}) => {
			asked.push({ currentPage: spec.qs?.currentPage, page: spec.qs?.page, limit: spec.qs?.limit });
			return { items: pages[Number(spec.qs?.currentPage) - 1] ?? [] };
		});
		const all = await listRecords(ctx as never, 'contactList');
		expect(ids(all)).toEqual(ids(rows.slice(0, 15)).concat(ids(rows.slice(15, 25))));
		expect(new Set(ids(all)).size).toBe(25);
	});

	it('L3: a service that ignores the page number, with a total that says more remain, is an error after two pages', async () => {
		serve({ records: records(45), paging: 'ignore-page', maxPageSize: 10 });
		await expect(listRecords(ctx as never, 'contactList')).rejects.toThrow(
			/same records for page 2 as for page 1: it seems to ignore the page parameter/,
		);
		expect(pagesAsked()).toEqual([1, 2]);
	});

	it('L3: a service that ignores the page number without any total ends after page 1 (like a repeated last page)', async () => {
		serve({ records: records(45), paging: 'ignore-page-no-total', maxPageSize: 10 });
		const all = await listRecords(ctx as never, 'contactList');
		expect(ids(all)).toEqual(ids(records(10)));
		expect(pagesAsked()).toEqual([1, 2]);
	});

	it('L3: records without ids: a repeated page is recognised whole, with and without a total', async () => {
		serve({ records: records(20, false), paging: 'ignore-page', maxPageSize: 10 });
		await expect(listRecords(ctx as never, 'contactList')).rejects.toThrow(
			/same records for page 2 as for page 1/,
		);
		serve({ records: records(20, false), paging: 'repeat-last-no-total', maxPageSize: 10 });
		const all = await listRecords(ctx as never, 'contactList');
		expect(all).toEqual(records(20, false));
		expect(pagesAsked()).toEqual([1, 2, 3]);
	});

	it("L3: ids that are objects or lists tell records apart by their JSON; a route's `recordKey` names another id field", async () => {
		const rows = records(25).map((record) => ({
			...record,
			id: { $oid: `oid-${String(record.id)}` },
		}));
		serve({ records: rows, maxPageSize: 10 });
		expect(await listRecords(ctx as never, 'contactList')).toEqual(rows);
		serve({ records: rows, paging: 'no-total', maxPageSize: 10 });
		expect(await listRecords(ctx as never, 'contactList')).toEqual(rows);
		// Order history's records carry `order_id`: a page shifted by one (a new order arrived) keeps each order once.
		const orders = records(15).map(({ id }) => ({ order_id: `O-${String(id)}` }));
		const pages = [orders.slice(0, 10), orders.slice(9, 15)];
		serve({ records: orders });
		mocked.mockImplementation(async (_ctx, _route, spec = {}) => ({
			items: pages[Number(spec.qs?.currentPage) - 1] ?? [],
		}));
		expect(await listRecords(ctx as never, 'orderHistory')).toEqual(orders);
	});

	it('L3: iteratePages hands over each page as it comes, so a caller can stop early', async () => {
		serve({ records: records(45), maxPageSize: 10 });
		const seen: unknown[] = [];
		for await (const page of iteratePages(ctx as never, 'contactList', { pageSize: 10 })) {
			seen.push(...ids(page));
			if (seen.length >= 20) break;
		}
		expect(seen).toEqual(ids(records(20)));
		expect(pagesAsked()).toEqual([1, 2]);
	});

	it('L3: readPage reads one page by its number, in any order (the New Contact trigger reads from the end)', async () => {
		serve({ records: records(45), paging: 'nested-total', maxPageSize: 10 });
		const first = await readPage(ctx as never, 'contactList', 1, 10, { qs: { state: 'x' } });
		expect(first).toMatchObject({ total: 45 });
		expect(
			ids((await readPage(ctx as never, 'contactList', 5, 10, { qs: { state: 'x' } })).records),
		).toEqual([41, 42, 43, 44, 45]);
		expect(mocked.mock.calls[1][2]?.qs).toEqual({ state: 'x', currentPage: 5, page: 5, limit: 10 });
	});

	it('L3: pages read from the end keep each record once, an id written as 5 on one page and "5" on another too', async () => {
		// Page 1 serves two of three records (the service's own cap), so the last page is page 2, read first.
		const pages = [
			[{ id: 1 }, { id: 2 }],
			[{ id: '2' }, { id: 3 }],
		];
		mocked.mockImplementation(async (_ctx, _route, spec = {}) => ({
			items: pages[Number(spec.qs?.currentPage) - 1],
			total: 3,
		}));
		const read: unknown[] = [];
		for await (const page of pagesFromTheEnd(ctx as never, 'contactList')) read.push(...ids(page));
		expect(read).toEqual([3, 1, 2]);
	});

	describe('pages side by side (Request Options > Concurrency 8)', () => {
		beforeAll(() => startRun(concurrentCtx as never, withConcurrency(8)));

		it('Throughput/L3: with a total, the pages after the first are asked together and every record comes once, in order', async () => {
			serve({ records: records(45), paging: 'standard', maxPageSize: 10 });
			const all = await listRecords(concurrentCtx as never, 'contactList');
			expect(ids(all)).toEqual(ids(records(45)));
			expect(pagesAsked()).toEqual([1, 2, 3, 4, 5]);
		});

		it('Throughput/L3: a Limit asks no page it does not need, even side by side', async () => {
			serve({ records: records(45), paging: 'nested-total', maxPageSize: 10 });
			const some = await listRecords(concurrentCtx as never, 'contactList', { limit: 23 });
			expect(ids(some)).toEqual(ids(records(23)));
			expect([...pagesAsked()].sort()).toEqual([1, 2, 3]);
		});

		// The documented figure (README, Request Options > Concurrency), as a literal: at most 8 pages side by side.
		it('Throughput/L3: a Return All asks at most 8 pages at once, whatever the Concurrency', async () => {
			const wideCtx = { ...ctx };
			startRun(wideCtx as never, withConcurrency(32));
			serve({ records: records(200), paging: 'standard', maxPageSize: 10 });
			const answer = mocked.getMockImplementation()!;
			let inFlight = 0;
			let mostInFlight = 0;
			mocked.mockImplementation(async (...args) => {
				mostInFlight = Math.max(mostInFlight, ++inFlight);
				await Promise.resolve(); // a turn of the microtask queue: the other pages of the window start meanwhile
				inFlight--;
				return await answer(...args);
			});
			const all = await listRecords(wideCtx as never, 'contactList');
			expect(ids(all)).toEqual(ids(records(200)));
			expect(mostInFlight).toBe(8);
		});

		it('Throughput/L3: without a total the pages stay one by one', async () => {
			serve({ records: records(30), paging: 'repeat-last-no-total', maxPageSize: 10 });
			const all = await listRecords(concurrentCtx as never, 'contactList');
			expect(ids(all)).toEqual(ids(records(30)));
			expect(pagesAsked()).toEqual([1, 2, 3, 4]);
		});
	});
});
