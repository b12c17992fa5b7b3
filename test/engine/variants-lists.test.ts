import type { IDataObject } from 'n8n-workflow';

import { Engine } from '../../tools/harness/engine';
import { listSearch } from '../../tools/harness/listSearch';
import { EmulatorData, PollHarness } from '../../tools/harness/poll';
import {
	credentialsFor,
	DEMO,
	startSandbox,
	type Sandbox,
	type SandboxRequestLog,
} from '../../tools/harness/sandbox';

/**
 * Rule L3 on every list the node reads, against every place the emulator can put a list in its answer
 * (listShape; the API document shows none): under `data` (the default), the records under `items`, `results` or
 * `records` beside `status` with no `data`, or a bare JSON array without envelope or total. The emulator serves 10
 * records a page whatever `limit` asks, so every list spans pages.
 */
const SHAPES = ['data', 'top-items', 'top-results', 'top-records', 'bare-array'] as const;
const SERVED = 10;

interface List {
	name: string;
	path: string;
	parameters: Record<string, unknown>;
	key: string;
	expected: (sandbox: Sandbox, userId: number) => unknown[];
}

const LISTS: List[] = [
	{
		name: 'Contact Get Many',
		path: '/api/contacts/',
		parameters: { resource: 'contact', operation: 'getAll' },
		key: 'id',
		expected: (sandbox, userId) =>
			sandbox.state.contactsOf(userId).map((c: { id: number }) => c.id),
	},
	{
		name: 'Product Get Many',
		path: '/api/v1/products/',
		parameters: { resource: 'product', operation: 'getAll' },
		key: 'id',
		expected: (sandbox, userId) =>
			[...sandbox.state.productsOf(userId).values()].map((p: { id: number }) => p.id),
	},
	{
		name: 'Template Get Many',
		path: '/api/v2/whatsapp/templates',
		parameters: { resource: 'template', operation: 'getAll' },
		key: 'id',
		expected: (sandbox, userId) =>
			[...sandbox.state.templates.values()]
				.filter((t: { userId: number }) => t.userId === userId)
				.map((t: { id: number }) => t.id),
	},
	{
		name: 'Order Get History',
		path: '/api/v1/order/history/',
		parameters: { resource: 'order', operation: 'getHistory' },
		key: 'order_id',
		expected: (sandbox, userId) =>
			[...sandbox.state.ordersAscending(userId)]
				.reverse()
				.map((o: { order_id: string }) => o.order_id),
	},
	{
		name: 'Other Endpoint (GET with Paginate)',
		path: '/api/contacts/',
		parameters: {
			resource: 'customApiCall',
			operation: 'request',
			method: 'GET',
			path: '/api/contacts/',
			paginate: true,
		},
		key: 'id',
		expected: (sandbox, userId) =>
			sandbox.state.contactsOf(userId).map((c: { id: number }) => c.id),
	},
];

describe('L3: every list the node reads, wherever the answer puts the list (emulator listShape), 10 records a page', () => {
	let sandbox: Sandbox;
	let engine: Engine;
	let data: EmulatorData;
	let demoId: number;

	beforeAll(async () => {
		sandbox = await startSandbox({ maxPageSize: SERVED, reviewDelayMs: null });
		demoId = sandbox.state.userByName(DEMO.username).id;
		data = new EmulatorData(sandbox);
		const at = new Date(Date.now() - 60_000).toISOString();
		for (let n = 1; n <= 14; n++)
			sandbox.state.addTemplate(
				demoId,
				{ name: `shape_${n}`, language: 'en', body: 'x' },
				'APPROVED',
				at,
			);
		data.pushOrders(
			Array.from({ length: 20 }, (_, n) => `SHAPE-${n + 1}`),
			'paid',
			Date.now() - 60_000,
		);
		engine = new Engine(credentialsFor(sandbox));
	});
	afterAll(async () => await sandbox.close());

	const pagesAsked = (path: string, from: number) =>
		(sandbox.state.requests as SandboxRequestLog[])
			.slice(from)
			.filter((request) => request.method === 'GET' && request.path === path)
			.map((request) => new URL(request.url ?? '', sandbox.url).searchParams);

	describe.each(SHAPES)('list shape "%s"', (shape) => {
		beforeAll(() => sandbox.setConfig({ listShape: shape }));
		afterAll(() => sandbox.setConfig({ listShape: 'data' }));

		it.each(LISTS)('L3: $name, Return All: every record once, in order, no error', async (list) => {
			const expected = list.expected(sandbox, demoId);
			// More than two served pages: a node that reads one page, or stops at a short page, misses records.
			expect(expected.length).toBeGreaterThan(SERVED + 5);
			const result = await engine.run({ parameters: { ...list.parameters, returnAll: true } });
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json[list.key])).toEqual(expected);
		});

		it.each(LISTS)(
			'L3: $name, Limit 15: the first 15 records, from the 2 pages needed',
			async (list) => {
				const from = sandbox.state.requests.length;
				const result = await engine.run({
					parameters: { ...list.parameters, returnAll: false, limit: 15 },
				});
				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => item.json[list.key])).toEqual(
					list.expected(sandbox, demoId).slice(0, 15),
				);
				expect(pagesAsked(list.path, from).map((query) => query.get('currentPage'))).toEqual([
					'1',
					'2',
				]);
			},
		);

		it('L3: the template and product pickers list every template and product', async () => {
			const templates = await listSearch(new Engine(credentialsFor(sandbox)), 'templateSearch');
			expect(templates.results.map((entry) => Number(entry.value)).sort((a, b) => a - b)).toEqual(
				LISTS[2].expected(sandbox, demoId),
			);
			const products = await listSearch(new Engine(credentialsFor(sandbox)), 'productSearch');
			expect(products.results.map((entry) => String(entry.value))).toEqual(
				LISTS[1].expected(sandbox, demoId).map(String),
			);
		});

		it('triggers: a new contact, a changed product, a reviewed template and a new order are each emitted once', async () => {
			const tag = shape.replace(/[^a-z]/g, '');
			const emitted = async (parameters: IDataObject, change: () => void, key: string) => {
				const harness = new PollHarness(credentialsFor(sandbox), parameters);
				const first = await harness.activate();
				expect(first.error).toBeUndefined();
				expect(first.emitted).toBe(false);
				change();
				const poll = await harness.poll();
				expect(poll.error).toBeUndefined();
				const after = await harness.poll();
				expect(after.emitted).toBe(false);
				return poll.items.map((item) => item.json[key]);
			};
			let contactId = 0;
			expect(
				await emitted(
					{ event: 'newContact' },
					() => (contactId = data.addContacts(1, `Shape${tag}`)[0].id),
					'id',
				),
			).toEqual([contactId]);
			expect(
				await emitted(
					{ event: 'newOrChangedProduct' },
					() => data.updateProduct(1007, { price: 7 }, Date.now() + 5),
					'id',
				),
			).toEqual([1007]);
			const pending = data.addPendingTemplate(`shape_review_${tag}`);
			expect(
				await emitted({ event: 'templateReviewed' }, () => sandbox.approveNow(pending.id), 'id'),
			).toEqual([pending.id]);
			expect(
				await emitted(
					{ event: 'newOrder' },
					() => data.pushOrders([`NEW-${tag}`], 'paid', Date.now() + 5),
					'order_id',
				),
			).toEqual([`NEW-${tag}`]);
		});
	});
});
