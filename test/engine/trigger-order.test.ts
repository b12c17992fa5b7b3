/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { EmulatorData, failingAfterFirstPage, PollHarness } from '../../tools/harness/poll';
import { credentialsFor, OTHER, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

type Logged = { method: string; path: string; url: string; status: number };

const HISTORY = '/api/v1/order/history/';
const SMALL_RETRIES = { maxAttempts: 2, maxRetryWaitSeconds: 1 };
const ids = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(3, '0')}`);

describe('Commerce Messaging Trigger, New Order, polled by n8n against the emulator', () => {
	let sandbox: Sandbox;
	let data: EmulatorData;
	let nextMs = Date.now();
	/** Distinct, increasing created_at instants, as orders arriving one after the other get. */
	const later = () => (nextMs = Math.max(nextMs + 1, Date.now()));
	const requestsSince = () => {
		const start = sandbox.state.requests.length;
		return (): Logged[] =>
			sandbox.state.requests.slice(start).filter((r: Logged) => r.path === HISTORY);
	};
	const newHarness = (
		filters: Record<string, unknown> = {},
		orderOptions: Record<string, unknown> = {},
	) =>
		new PollHarness(credentialsFor(sandbox), {
			event: 'newOrder',
			filters,
			orderOptions,
			requestOptions: SMALL_RETRIES,
		});
	const demoBook = () => sandbox.state.orders.get(sandbox.state.userByName('demo@shop.test').id);
	const orderIds = (poll: { items: Array<{ json: Record<string, unknown> }> }) =>
		poll.items.map((item) => item.json.order_id);

	beforeAll(async () => {
		sandbox = await startSandbox({ maxPageSize: 10 });
		data = new EmulatorData(sandbox);
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	it('V1: the first poll records the newest order and emits none of the history', async () => {
		const harness = newHarness();
		const first = await harness.activate();
		expect(first.error).toBeUndefined();
		expect(first.emitted).toBe(false);
		// The seed's newest order is ORD-1005: the window starts at it, and it is the one order read there.
		const newest = demoBook().byId.get('ORD-1005');
		expect(harness.nodeStaticData.cursor).toEqual({
			event: 'newOrder',
			state: { from: newest.created_at, seen: [['ORD-1005', Date.parse(newest.created_at)]] },
		});
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('V1: on an account without orders, Fetch Test Event returns nothing, and every order after activation is new', async () => {
		const harness = new PollHarness(credentialsFor(sandbox, OTHER), {
			event: 'newOrder',
			requestOptions: SMALL_RETRIES,
		});
		const manual = await harness.fetchTestEvent();
		expect(manual.error).toBeUndefined();
		expect(manual.items).toEqual([]);
		await harness.activate();
		expect(harness.nodeStaticData.cursor).toEqual({
			event: 'newOrder',
			state: { from: null, seen: [] },
		});
		expect((await harness.poll()).emitted).toBe(false);
		new EmulatorData(sandbox, OTHER.username).pushOrders(['OTHER-1', 'OTHER-2'], 'paid', later());
		expect(orderIds(await harness.poll())).toEqual(['OTHER-1', 'OTHER-2']);
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('V1/L3: orders pushed between polls are emitted once each, oldest first, across page boundaries', async () => {
		const harness = newHarness();
		await harness.activate();
		const pushed = ids('SPAN', 25);
		for (const id of pushed) data.pushOrders([id], 'paid', later());
		const calls = requestsSince();
		const poll = await harness.poll();
		expect(poll.error).toBeUndefined();
		expect(orderIds(poll)).toEqual(pushed);
		expect(poll.items[0].json).toMatchObject({ order_id: 'SPAN-001', status: 'paid', total: 10 });
		// Only what is new was asked for, three pages of ten at most, from the watermark on.
		const urls = calls().map((r) => new URL(r.url, sandbox.url));
		expect(urls.length).toBeLessThanOrEqual(3);
		expect(urls.every((url) => url.searchParams.get('date_from'))).toBe(true);
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('V1: orders sharing one created_at instant, before and after a poll, are neither lost nor repeated', async () => {
		const harness = newHarness();
		await harness.activate();
		const instant = later();
		data.pushOrders(['TIE-B', 'TIE-A'], 'paid', instant);
		expect(orderIds(await harness.poll())).toEqual(['TIE-A', 'TIE-B']);
		// Another order in the very same millisecond, seen only by the next poll.
		data.pushOrders(['TIE-C'], 'paid', instant);
		expect(orderIds(await harness.poll())).toEqual(['TIE-C']);
		expect((await harness.poll()).emitted).toBe(false);
		const { seen } = (harness.nodeStaticData.cursor as { state: { seen: Array<[string, number]> } })
			.state;
		expect(
			seen
				.filter(([, ms]) => ms === instant)
				.map(([id]) => id)
				.sort(),
		).toEqual(['TIE-A', 'TIE-B', 'TIE-C']);
	});

	it('V1: a later event for a known order (a status change) does not emit it again', async () => {
		const harness = newHarness();
		await harness.activate();
		data.pushOrders(['AGAIN-1'], 'pending', later());
		expect(orderIds(await harness.poll())).toEqual(['AGAIN-1']);
		data.pushOrders(['AGAIN-1'], 'paid', later());
		expect((await harness.poll()).emitted).toBe(false);
		const stored = sandbox.state.orders
			.get(sandbox.state.userByName('demo@shop.test').id)
			.byId.get('AGAIN-1');
		expect(stored.status).toBe('paid');
	});

	it('V1: a poll that starts while the previous one still runs emits nothing: each order is emitted once', async () => {
		const harness = newHarness();
		await harness.activate();
		data.pushOrders(['OVERLAP-1', 'OVERLAP-2', 'OVERLAP-3'], 'paid', later());
		// The history answers slowly, so the second poll starts while the first is still reading.
		sandbox.faults.inject({ method: 'GET', path: HISTORY, kind: 'slow', delayMs: 300 });
		const emitted = await harness.pollTwiceAtOnce();
		expect(emitted.map((item) => item.json.order_id)).toEqual([
			'OVERLAP-1',
			'OVERLAP-2',
			'OVERLAP-3',
		]);
		sandbox.faults.clear();
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('V1: the Status filter emits only orders with that status, and the others are not emitted later either', async () => {
		const harness = newHarness({ status: 'paid' });
		await harness.activate();
		data.pushOrders(['FILTER-1'], 'pending', later());
		data.pushOrders(['FILTER-2'], 'paid', later());
		data.pushOrders(['FILTER-3'], 'cancelled', later());
		const poll = await harness.poll();
		expect(orderIds(poll)).toEqual(['FILTER-2']);
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('E5/L1: a 429 beyond the retry budget fails the poll without changing its state; the next poll emits each order once', async () => {
		const harness = newHarness();
		await harness.activate();
		const before = JSON.stringify(harness.staticData);
		const pushed = ids('LIMIT', 4);
		for (const id of pushed) data.pushOrders([id], 'paid', later());
		sandbox.faults.inject({ method: 'GET', path: HISTORY, kind: '429', retryAfter: 30 });
		const failed = await harness.poll();
		expect(failed.emitted).toBe(false);
		expect(failed.error?.message).toMatch(/RATE_LIMIT_EXCEEDED/);
		expect(failed.error?.description ?? failed.error?.message).toMatch(/30 s/);
		expect(JSON.stringify(harness.staticData)).toBe(before);
		const recovered = await harness.poll();
		expect(orderIds(recovered)).toEqual(pushed);
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('L1/L3: a poll failing half-way through the history pages loses nothing and duplicates nothing', async () => {
		const harness = newHarness();
		await harness.activate();
		const before = JSON.stringify(harness.staticData);
		const pushed = ids('HALF', 25);
		for (const id of pushed) data.pushOrders([id], 'paid', later());
		const failed = await failingAfterFirstPage(sandbox, HISTORY, () => harness.poll());
		expect(failed.error?.message).toMatch(/SERVICE_UNAVAILABLE/);
		expect(JSON.stringify(harness.staticData)).toBe(before);
		expect(orderIds(await harness.poll())).toEqual(pushed);
	});

	it('V1: Fetch Test Event returns the newest order (matching the Status filter) and leaves the state alone', async () => {
		const harness = newHarness({ status: 'pending' });
		await harness.activate();
		const state = JSON.stringify(harness.staticData);
		data.pushOrders(['TEST-PENDING'], 'pending', later());
		data.pushOrders(['TEST-PAID'], 'paid', later());
		const manual = await harness.fetchTestEvent();
		expect(orderIds(manual)).toEqual(['TEST-PENDING']);
		expect(JSON.stringify(harness.staticData)).toBe(state);
		expect(orderIds(await newHarness().fetchTestEvent())).toEqual(['TEST-PAID']);
	});

	describe('orders listed late (look-back)', () => {
		const MINUTE = 60_000;

		it('V1: an order that shows up after a poll, with a created_at older than orders already emitted, is emitted once', async () => {
			const harness = newHarness();
			await harness.activate();
			const early = later();
			const recent = later();
			data.pushOrders(['ONTIME-1'], 'paid', recent);
			expect(orderIds(await harness.poll())).toEqual(['ONTIME-1']);
			// Listed only now, though created before ONTIME-1 (a service whose history lags behind its writes).
			data.pushOrders(['LATE-1'], 'paid', early);
			const late = await harness.poll();
			expect(late.error).toBeUndefined();
			expect(orderIds(late)).toEqual(['LATE-1']);
			expect((await harness.poll()).emitted).toBe(false);
			// A status change of either is still not a new order.
			data.pushOrders(['LATE-1', 'ONTIME-1'], 'shipped', later());
			expect((await harness.poll()).emitted).toBe(false);
		});

		it('V1: a stored state of another form (hand-edited, foreign) starts anew: nothing is emitted twice', async () => {
			const harness = newHarness();
			await harness.activate();
			const instant = later();
			data.pushOrders(['OLDSTATE-1', 'OLDSTATE-2'], 'paid', instant);
			expect(orderIds(await harness.poll())).toEqual(['OLDSTATE-1', 'OLDSTATE-2']);
			harness.nodeStaticData.cursor = {
				event: 'newOrder',
				state: { mark: { at: new Date(instant).toISOString(), ids: ['OLDSTATE-1', 'OLDSTATE-2'] } },
			};
			expect((await harness.poll()).emitted).toBe(false);
			data.pushOrders(['OLDSTATE-3'], 'paid', later());
			expect(orderIds(await harness.poll())).toEqual(['OLDSTATE-3']);
		});

		it("V1: with the emulator's history lagging behind its writes, each order is emitted once when it shows up", async () => {
			const harness = newHarness();
			await harness.activate();
			sandbox.setConfig({ orderVisibilityDelayMs: 1000 });
			try {
				data.pushOrders(['LAG-1', 'LAG-2'], 'paid');
				expect((await harness.poll()).emitted).toBe(false);
				await new Promise((resolve) => setTimeout(resolve, 1100));
				data.pushOrders(['LAG-3'], 'paid');
				expect(orderIds(await harness.poll())).toEqual(['LAG-1', 'LAG-2']);
				await new Promise((resolve) => setTimeout(resolve, 1100));
				expect(orderIds(await harness.poll())).toEqual(['LAG-3']);
				expect((await harness.poll()).emitted).toBe(false);
			} finally {
				sandbox.setConfig({ orderVisibilityDelayMs: 0 });
			}
		});

		it("V1: an order without a readable created_at is reported in n8n's log, not emitted, and does not stop the others", async () => {
			const harness = newHarness();
			await harness.activate();
			const warn = jest.spyOn(Container.get(Logger), 'warn');
			const book = demoBook();
			// Written straight into the store, as a service returning a broken record would list it: newest first.
			const broken = { order_id: 'NO-TIME-1', status: 'paid', created_at: 'not a date' };
			Object.defineProperty(broken, 'created_ms', {
				value: Date.now() + 365 * 24 * 60 * MINUTE,
				enumerable: false,
			});
			book.list.push(broken);
			book.byId.set(broken.order_id, broken);
			try {
				data.pushOrders(['WITH-TIME-1'], 'paid', later());
				const poll = await harness.poll();
				expect(poll.error).toBeUndefined();
				expect(orderIds(poll)).toEqual(['WITH-TIME-1']);
				const messages = warn.mock.calls.map(([message]) => String(message));
				expect(
					messages.some((m) =>
						/New Order: 1 order\(s\) .*no readable created_at.*NO-TIME-1/.test(m),
					),
				).toBe(true);
			} finally {
				book.list.splice(book.list.indexOf(broken), 1);
				book.byId.delete(broken.order_id);
				warn.mockRestore();
			}
		});

		it('V1: an unreadable order whose 20 KB id carries line breaks is logged on one bounded line, not as a forged log line', async () => {
			const harness = newHarness();
			await harness.activate();
			const warn = jest.spyOn(Container.get(Logger), 'warn');
			const book = demoBook();
			const forged = `${'x'.repeat(20_000)}\n2026-01-01T00:00:00.000Z | error | Forged by the service\r\u2028`;
			const broken = { order_id: forged, status: 'paid', created_at: null };
			Object.defineProperty(broken, 'created_ms', {
				value: Date.now() + 365 * 24 * 60 * MINUTE,
				enumerable: false,
			});
			book.list.push(broken);
			book.byId.set(broken.order_id, broken);
			try {
				data.pushOrders(['BESIDE-FORGED-1'], 'paid', later());
				const poll = await harness.poll();
				expect(orderIds(poll)).toEqual(['BESIDE-FORGED-1']);
				const [message] = warn.mock.calls
					.map(([logged]) => String(logged))
					.filter((m) => m.startsWith('New Order:'));
				expect(message).toMatch(
					/^New Order: 1 order\(s\) .*no readable created_at.*"x{80}\.\.\."$/,
				);
				expect(message).not.toMatch(/[\r\n\u2028\u2029]/);
				expect(message.length).toBeLessThan(300);
			} finally {
				book.list.splice(book.list.indexOf(broken), 1);
				book.byId.delete(broken.order_id);
				warn.mockRestore();
			}
		});

		it('V1: the look-back is a setting; an order listed later than that behind the newest one is not emitted', async () => {
			// An account of its own, so this test owns the newest instants, all in the past as n8n's clock sees them.
			const user = { username: 'lookback@shop.test', password: 'lookback-password' };
			sandbox.addUser({ ...user, apiAccess: true });
			const own = new EmulatorData(sandbox, user.username);
			const base = Date.now() - 30 * MINUTE;
			const harnessFor = (orderOptions: Record<string, unknown>) =>
				new PollHarness(credentialsFor(sandbox, user), {
					event: 'newOrder',
					orderOptions,
					requestOptions: SMALL_RETRIES,
				});
			const oneMinute = harnessFor({ lookBackMinutes: 1 });
			const tenMinutes = harnessFor({});
			await oneMinute.activate();
			await tenMinutes.activate();
			own.pushOrders(['NEWEST-1'], 'paid', base + 5 * MINUTE);
			expect(orderIds(await oneMinute.poll())).toEqual(['NEWEST-1']);
			expect(orderIds(await tenMinutes.poll())).toEqual(['NEWEST-1']);
			own.pushOrders(['BEHIND-3MIN'], 'paid', base + 2 * MINUTE);
			expect((await oneMinute.poll()).emitted).toBe(false);
			expect(orderIds(await tenMinutes.poll())).toEqual(['BEHIND-3MIN']);
			const state = tenMinutes.nodeStaticData.cursor as {
				state: { from: string; seen: Array<[string, number]> };
			};
			expect(state.state.from).toBe(new Date(base - 5 * MINUTE).toISOString());
			expect(state.state.seen.map(([id]) => id).sort()).toEqual(['BEHIND-3MIN', 'NEWEST-1']);
			// Each poll asked from the start of its window, rounded down to the second.
			const calls = requestsSince();
			await tenMinutes.poll();
			const [call] = calls();
			expect(new URL(call.url, sandbox.url).searchParams.get('date_from')).toBe(
				new Date(Math.floor((base - 5 * MINUTE) / 1000) * 1000).toISOString(),
			);
		});
	});
});
