import { Engine } from '../../tools/harness/engine';
import {
	credentialsFor,
	DEMO,
	startSandbox,
	type Sandbox,
	type SandboxRequestLog,
} from '../../tools/harness/sandbox';

/**
 * Hardening 13: Return All and Limit on every list the node reads, against each list server the API document
 * allows (it says only "currentPage, limit, page", rule L3): the emulator's paging variants, all with a server
 * that serves at most 10 records a page whatever `limit` asks.
 *   standard      the route's own shape (contacts and templates with a total, products and order history without)
 *   repeat-last   a page past the end answers the last page again
 *   nested-total  {items, pagination: {total, page, limit}} on every list
 *   no-total      no total anywhere
 */
const MODES = ['standard', 'repeat-last', 'nested-total', 'no-total'] as const;
type Mode = (typeof MODES)[number];
const SERVED = 10;

interface List {
	name: string;
	path: string;
	parameters: Record<string, unknown>;
	key: string;
	/** Whether the list's answer carries a total in this mode. */
	total: (mode: Mode) => boolean;
	expected: (sandbox: Sandbox, userId: number) => unknown[];
}

const withTotal = (mode: Mode) => mode !== 'no-total';
const nestedOnly = (mode: Mode) => mode === 'nested-total';

const LISTS: List[] = [
	{
		name: 'contacts',
		path: '/api/contacts/',
		parameters: { resource: 'contact', operation: 'getAll' },
		key: 'id',
		total: withTotal,
		expected: (sandbox, userId) =>
			sandbox.state.contactsOf(userId).map((c: { id: number }) => c.id),
	},
	{
		name: 'products',
		path: '/api/v1/products/',
		parameters: { resource: 'product', operation: 'getAll' },
		key: 'id',
		total: nestedOnly,
		expected: (sandbox, userId) =>
			[...sandbox.state.productsOf(userId).values()].map((p: { id: number }) => p.id),
	},
	{
		name: 'templates',
		path: '/api/v2/whatsapp/templates',
		parameters: { resource: 'template', operation: 'getAll' },
		key: 'id',
		total: withTotal,
		expected: (sandbox, userId) =>
			[...sandbox.state.templates.values()]
				.filter((t: { userId: number }) => t.userId === userId)
				.map((t: { id: number }) => t.id),
	},
	{
		name: 'order history (records without an id)',
		path: '/api/v1/order/history/',
		parameters: { resource: 'order', operation: 'getHistory' },
		key: 'order_id',
		total: nestedOnly,
		expected: (sandbox, userId) =>
			[...sandbox.state.ordersAscending(userId)]
				.reverse()
				.map((o: { order_id: string }) => o.order_id),
	},
];

describe('L3 paging on every list server the document allows (emulator paging variants, 10 records a page)', () => {
	let sandbox: Sandbox;
	let engine: Engine;
	let demoId: number;

	beforeAll(async () => {
		sandbox = await startSandbox({ maxPageSize: SERVED, reviewDelayMs: null });
		demoId = sandbox.state.userByName(DEMO.username).id;
		// Some lists end on a full page (50 contacts, 30 products, 20 templates), where only the total or the page
		// past the end can tell that the list is over; the order history ends on a short one (25).
		const at = new Date().toISOString();
		for (let n = 0; n < 5; n++)
			sandbox.state.addContact(demoId, { firstname: `Paging${n}`, phone: `+49151000000${n}` }, at);
		const products = sandbox.state.productsOf(demoId);
		for (let n = 1; n <= 5; n++)
			products.set(String(2000 + n), {
				id: 2000 + n,
				name: `Paging ${n}`,
				sku: `PG-${n}`,
				created_at: at,
				updated_at: at,
			});
		for (let n = 1; n <= 17; n++)
			sandbox.state.addTemplate(
				demoId,
				{ name: `paging_${n}`, language: 'en', body: 'x' },
				'APPROVED',
				at,
			);
		const clock = Date.now();
		for (let n = 1; n <= 20; n++)
			sandbox.state.upsertOrder(demoId, { order_id: `PG-${n}`, status: 'paid' }, clock + n);
		engine = new Engine(credentialsFor(sandbox));
	});
	afterAll(async () => await sandbox.close());

	const pagesAsked = (path: string, from: number) =>
		(sandbox.state.requests as SandboxRequestLog[])
			.slice(from)
			.filter(
				(request) =>
					request.method === 'GET' && request.path.replace(/\/$/, '') === path.replace(/\/$/, ''),
			)
			.map((request) => new URL(request.url ?? '', sandbox.url).searchParams);

	it('L3: Return All reads each list to its end: 50, 30 and 20 records ending on a full page, 25 on a short one', async () => {
		// Counts written out, not taken from the emulator's store: the cases below rely on these edges.
		const counts = [];
		for (const list of LISTS) {
			const result = await engine.run({ parameters: { ...list.parameters, returnAll: true } });
			expect(result.error).toBeUndefined();
			counts.push(new Set(result.items.map((item) => item.json[list.key])).size);
		}
		expect(counts).toEqual([50, 30, 20, 25]);
	});

	describe.each(MODES)('paging "%s"', (mode) => {
		beforeAll(() => sandbox.setConfig({ paging: mode }));
		afterAll(() => sandbox.setConfig({ paging: 'standard' }));

		it.each(LISTS)(
			'L3: Return All of the $name gives every record exactly once, in order, and no error',
			async (list) => {
				const from = sandbox.state.requests.length;
				const result = await engine.run({ parameters: { ...list.parameters, returnAll: true } });
				expect(result.error).toBeUndefined();
				const expected = list.expected(sandbox, demoId);
				expect(result.items.map((item) => item.json[list.key])).toEqual(expected);

				const pages = pagesAsked(list.path, from);
				const needed = Math.ceil(expected.length / SERVED);
				// With a total the list ends at it; without one, a full last page costs one more request (empty, or the
				// last page again), a short last page none.
				const expectedPages =
					list.total(mode) || expected.length % SERVED !== 0 ? needed : needed + 1;
				expect(pages.map((query) => query.get('currentPage'))).toEqual(
					Array.from({ length: expectedPages }, (_, n) => String(n + 1)),
				);
				expect(pages.every((query) => query.get('page') === query.get('currentPage'))).toBe(true);
			},
		);

		it.each(LISTS)(
			'L3: a Limit of 15 on the $name returns 15 records and asks only the 2 pages it needs',
			async (list) => {
				const from = sandbox.state.requests.length;
				const result = await engine.run({
					parameters: { ...list.parameters, returnAll: false, limit: 15 },
				});
				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => item.json[list.key])).toEqual(
					list.expected(sandbox, demoId).slice(0, 15),
				);
				const pages = pagesAsked(list.path, from);
				expect(pages.map((query) => [query.get('currentPage'), query.get('limit')])).toEqual([
					['1', '15'],
					['2', '15'],
				]);
			},
		);
	});

	it.each([1, 8])(
		'L3: a service that ignores the page number, with a total that says more remain, is an error (Concurrency %i)',
		async (concurrency) => {
			sandbox.setConfig({ paging: 'nested-total' });
			try {
				sandbox.faults.inject({
					method: 'GET',
					path: '/api/contacts/',
					kind: 'ignore-page',
					times: 1000,
				});
				const from = sandbox.state.requests.length;
				const result = await engine.run({
					parameters: {
						resource: 'contact',
						operation: 'getAll',
						returnAll: true,
						requestOptions: { concurrency },
					},
				});
				expect(result.error?.message).toMatch(
					/same records for page \d as for page 1: it seems to ignore the page parameter/,
				);
				// One by one it stops at page 2; side by side, at the end of the window the total allowed (4 pages more).
				expect(pagesAsked('/api/contacts/', from)).toHaveLength(concurrency === 1 ? 2 : 5);
			} finally {
				sandbox.faults.clear();
				sandbox.setConfig({ paging: 'standard' });
			}
		},
	);

	it('L3: without a total, a service that ignores the page number ends the list after page 1 (it looks like a repeated last page)', async () => {
		sandbox.setConfig({ paging: 'no-total' });
		try {
			sandbox.faults.inject({
				method: 'GET',
				path: '/api/contacts/',
				kind: 'ignore-page',
				times: 1000,
			});
			const from = sandbox.state.requests.length;
			const result = await engine.run({
				parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.id)).toEqual(
				sandbox.state
					.contactsOf(demoId)
					.slice(0, SERVED)
					.map((c: { id: number }) => c.id),
			);
			expect(pagesAsked('/api/contacts/', from)).toHaveLength(2);
		} finally {
			sandbox.faults.clear();
			sandbox.setConfig({ paging: 'standard' });
		}
	});
});
