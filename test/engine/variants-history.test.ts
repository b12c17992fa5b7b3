import { sleep } from 'n8n-workflow';

import { EmulatorData, PollHarness } from '../../tools/harness/poll';
import { Engine } from '../../tools/harness/engine';
import {
	credentialsFor,
	DEMO,
	startSandbox,
	type Sandbox,
	type SandboxRequestLog,
} from '../../tools/harness/sandbox';

/**
 * Rule V1: the order history's query parameters are not shown in the API document. The node sends status,
 * date_from and date_to; a service may read none of them (emulator orderHistoryFilters 'ignored') and list the whole
 * history, newest first. Order Get History must still output only the orders its filters ask for, and the New Order
 * trigger must neither emit old orders nor page through the whole history on every poll.
 */
const HISTORY = '/api/v1/order/history/';
const SERVED = 10;
const HOUR = 3_600_000;
const BASE = Date.parse('2025-03-01T00:00:00.000Z');
const OLD_ORDERS = 300;
const STATUSES = ['paid', 'shipped', 'pending'];
const SMALL_RETRIES = { maxAttempts: 2, maxRetryWaitSeconds: 1 };

interface Order {
	order_id: string;
	status: string;
	created_ms: number;
}

describe("Order history that ignores its filters (emulator orderHistoryFilters), run by n8n's engine", () => {
	let sandbox: Sandbox;
	let data: EmulatorData;
	let demoId: number;
	let nextMs = Date.now();
	const later = () => (nextMs = Math.max(nextMs + 1, Date.now()));

	beforeAll(async () => {
		sandbox = await startSandbox({ maxPageSize: SERVED, reviewDelayMs: null });
		data = new EmulatorData(sandbox);
		demoId = sandbox.state.userByName(DEMO.username).id;
		// 300 orders an hour apart, 12.5 days of history: 31 pages of 10 with the seed's five.
		for (let n = 0; n < OLD_ORDERS; n++)
			data.pushOrders([`HIST-${n}`], STATUSES[n % 3], BASE + n * HOUR);
	});
	afterAll(async () => await sandbox.close());

	const newestFirst = (): Order[] => [...sandbox.state.ordersAscending(demoId)].reverse();
	const historyPages = (from: number) =>
		(sandbox.state.requests as SandboxRequestLog[])
			.slice(from)
			.filter((r) => r.method === 'GET' && r.path === HISTORY);

	describe.each(['applied', 'ignored'] as const)(
		'Order Get History, filters %s by the service',
		(mode) => {
			let engine: Engine;
			beforeAll(() => {
				sandbox.setConfig({ orderHistoryFilters: mode });
				engine = new Engine(credentialsFor(sandbox));
			});
			afterAll(() => sandbox.setConfig({ orderHistoryFilters: 'applied' }));

			const getHistory = async (filters: Record<string, unknown>, limit?: number) => {
				const result = await engine.run({
					parameters: {
						resource: 'order',
						operation: 'getHistory',
						returnAll: limit === undefined,
						limit,
						filters,
					},
				});
				expect(result.error).toBeUndefined();
				return result.items.map((item) => item.json.order_id);
			};

			it('V1: Return All with a Status filter gives exactly the orders with that status, newest first', async () => {
				const expected = newestFirst()
					.filter((o) => o.status === 'shipped')
					.map((o) => o.order_id);
				expect(expected.length).toBeGreaterThan(SERVED * 3);
				expect(await getHistory({ status: 'shipped' })).toEqual(expected);
			});

			it('V1: Return All with Date From and Date To gives exactly the orders created in that window', async () => {
				const [from, to] = [BASE + 100 * HOUR, BASE + 124 * HOUR];
				const expected = newestFirst()
					.filter((o) => o.created_ms >= from && o.created_ms <= to)
					.map((o) => o.order_id);
				expect(expected).toHaveLength(25);
				const dates = {
					dateFrom: new Date(from).toISOString(),
					dateTo: new Date(to).toISOString(),
				};
				expect(await getHistory(dates)).toEqual(expected);
			});

			it('V1: a Limit with the filters gives the first orders that match, as many as asked', async () => {
				const from = BASE + 200 * HOUR;
				const expected = newestFirst()
					.filter((o) => o.status === 'pending' && o.created_ms >= from)
					.slice(0, 12)
					.map((o) => o.order_id);
				expect(expected).toHaveLength(12);
				expect(
					await getHistory({ status: 'pending', dateFrom: new Date(from).toISOString() }, 12),
				).toEqual(expected);
			});

			it('V1/L3: a Limit is not bounded by Max Records, and no Limit hint when fewer orders match than asked', async () => {
				const [from, to] = [BASE + 100 * HOUR, BASE + 104 * HOUR];
				const result = await engine.run({
					parameters: {
						resource: 'order',
						operation: 'getHistory',
						returnAll: false,
						limit: 8,
						filters: { dateFrom: new Date(from).toISOString(), dateTo: new Date(to).toISOString() },
						requestOptions: { maxRecords: 10 },
					},
				});
				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => item.json.order_id)).toEqual([
					'HIST-104',
					'HIST-103',
					'HIST-102',
					'HIST-101',
					'HIST-100',
				]);
				const hints = (
					result.run.data.resultData.runData['Commerce Messaging']?.[0] as {
						hints?: Array<{ message: string }>;
					}
				).hints;
				expect((hints ?? []).filter((hint) => hint.message.startsWith('Limit reached'))).toEqual(
					[],
				);
			});
		},
	);

	it('L3: an order that moves to the next page while the history is read (a new order arrived) is output once', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const from = sandbox.state.requests.length;
		// Page 2 waits before it is answered: the new order lands between pages 1 and 2, moving every order down one.
		sandbox.faults.inject({ method: 'GET', path: HISTORY, kind: 'slow', delayMs: 1_500, times: 2 });
		const running = engine.run({
			parameters: { resource: 'order', operation: 'getHistory', returnAll: true },
		});
		while (historyPages(from).length < 2) await sleep(20);
		data.pushOrders(['MOVED-BY'], 'paid', later());
		const result = await running;
		sandbox.faults.clear();
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => item.json.order_id);
		expect(new Set(ids).size).toBe(ids.length);
		// Every order held before the read, each once (the new one may or may not be read).
		expect(ids.filter((id) => id !== 'MOVED-BY')).toEqual(
			newestFirst()
				.map((order) => order.order_id)
				.filter((id) => id !== 'MOVED-BY'),
		);
	}, 30_000);

	describe('New Order trigger, the service ignoring date_from and status', () => {
		beforeAll(() => sandbox.setConfig({ orderHistoryFilters: 'ignored' }));
		afterAll(() => sandbox.setConfig({ orderHistoryFilters: 'applied' }));
		const newHarness = (filters: Record<string, unknown> = {}) =>
			new PollHarness(credentialsFor(sandbox), {
				event: 'newOrder',
				filters,
				requestOptions: SMALL_RETRIES,
			});
		const orderIds = (poll: { items: Array<{ json: Record<string, unknown> }> }) =>
			poll.items.map((item) => item.json.order_id);

		it('V1/L3: each poll reads only the pages down to its window, not the 31 pages of history, and emits each new order once', async () => {
			expect(Math.ceil(newestFirst().length / SERVED)).toBeGreaterThanOrEqual(30);
			const harness = newHarness();
			let from = sandbox.state.requests.length;
			const first = await harness.activate();
			expect(first.emitted).toBe(false);
			expect(historyPages(from)).toHaveLength(1);

			const fresh = ['IGN-1', 'IGN-2', 'IGN-3'];
			for (const id of fresh) data.pushOrders([id], 'paid', later());
			from = sandbox.state.requests.length;
			const poll = await harness.poll();
			expect(poll.error).toBeUndefined();
			expect(orderIds(poll)).toEqual(fresh);
			// The first page already reaches orders older than the look-back window: the poll stops there.
			expect(historyPages(from)).toHaveLength(1);

			from = sandbox.state.requests.length;
			expect((await harness.poll()).emitted).toBe(false);
			expect(historyPages(from)).toHaveLength(1);
		});

		it('V1: the Status filter is applied by the trigger itself', async () => {
			const harness = newHarness({ status: 'paid' });
			await harness.activate();
			data.pushOrders(['IGN-PENDING'], 'pending', later());
			data.pushOrders(['IGN-PAID'], 'paid', later());
			data.pushOrders(['IGN-SHIPPED'], 'shipped', later());
			expect(orderIds(await harness.poll())).toEqual(['IGN-PAID']);
			expect((await harness.poll()).emitted).toBe(false);
		});

		it("V1: Fetch Test Event returns the newest order with the filter's status, not the newest order", async () => {
			data.pushOrders(['IGN-TEST-PENDING'], 'pending', later());
			data.pushOrders(['IGN-TEST-PAID'], 'paid', later());
			expect(orderIds(await newHarness({ status: 'pending' }).fetchTestEvent())).toEqual([
				'IGN-TEST-PENDING',
			]);
			expect(orderIds(await newHarness().fetchTestEvent())).toEqual(['IGN-TEST-PAID']);
		});
	});

	it('L3: whole pages of new orders arriving while the history is read lose none: Get History and New Order', async () => {
		const arrive = (prefix: string) => {
			const ids = Array.from({ length: SERVED }, (_, i) => `${prefix}-${i}`);
			for (const id of ids) data.pushOrders([id], 'paid', later());
			return ids;
		};
		// Pages 1 to 4 wait before they are answered: a page's worth of new orders lands while page 2 and while page 4
		// are asked, so each holds the orders of the page read before it.
		const shiftDuring = async <T>(read: Promise<T>, prefix: string) => {
			const from = sandbox.state.requests.length;
			sandbox.faults.inject({ method: 'GET', path: HISTORY, kind: 'slow', delayMs: 800, times: 4 });
			const arrived: string[] = [];
			for (const page of [2, 4]) {
				for (const end = Date.now() + 5_000; historyPages(from).length < page && Date.now() < end; )
					await sleep(20);
				arrived.push(...arrive(`${prefix}-${page}`));
			}
			const result = await read;
			sandbox.faults.clear();
			return { result, arrived };
		};
		const held = newestFirst().map((order) => order.order_id);
		const history = await shiftDuring(
			new Engine(credentialsFor(sandbox)).run({
				parameters: { resource: 'order', operation: 'getHistory', returnAll: true },
			}),
			'SHIFT-READ',
		);
		expect(history.result.error).toBeUndefined();
		expect(history.result.items.map((item) => item.json.order_id)).toEqual(held);

		// Default Request Options: the slow pages stay within the Retry Budget.
		const harness = new PollHarness(credentialsFor(sandbox), {
			event: 'newOrder',
			orderOptions: { lookBackMinutes: 0 },
		});
		await harness.activate();
		const waiting = Array.from({ length: 45 }, (_, i) => `SHIFT-WAIT-${i}`);
		for (const id of waiting) data.pushOrders([id], 'paid', later());
		const poll = await shiftDuring(harness.poll(), 'SHIFT-POLL');
		const next = await harness.poll();
		expect([poll.result.error, next.error]).toEqual([undefined, undefined]);
		const emitted = [...poll.result.items, ...next.items].map((item) => String(item.json.order_id));
		expect(emitted.sort()).toEqual([...waiting, ...poll.arrived].sort());
	}, 30_000);
});
