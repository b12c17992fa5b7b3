import { EmulatorData, failingAfterFirstPage, PollHarness } from '../harness/poll';
import { credentialsFor, OTHER, startSandbox, type Sandbox } from '../harness/sandbox';

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
		return (): Logged[] => sandbox.state.requests.slice(start).filter((r: Logged) => r.path === HISTORY);
	};
	const newHarness = (filters: Record<string, unknown> = {}) =>
		new PollHarness(credentialsFor(sandbox), { event: 'newOrder', filters, requestOptions: SMALL_RETRIES });
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
		// The seed's newest order is ORD-1005.
		expect(harness.nodeStaticData.cursor).toMatchObject({ event: 'newOrder', state: { mark: { ids: ['ORD-1005'] } } });
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('V1: on an account without orders, Fetch Test Event returns nothing, and every order after activation is new', async () => {
		const harness = new PollHarness(credentialsFor(sandbox, OTHER), { event: 'newOrder', requestOptions: SMALL_RETRIES });
		const manual = await harness.fetchTestEvent();
		expect(manual.error).toBeUndefined();
		expect(manual.items).toEqual([]);
		await harness.activate();
		expect(harness.nodeStaticData.cursor).toEqual({ event: 'newOrder', state: { mark: null } });
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
		expect(harness.nodeStaticData.cursor).toMatchObject({
			state: { mark: { at: new Date(instant).toISOString(), ids: ['TIE-A', 'TIE-B', 'TIE-C'] } },
		});
	});

	it('V1: a later event for a known order (a status change) does not emit it again', async () => {
		const harness = newHarness();
		await harness.activate();
		data.pushOrders(['AGAIN-1'], 'pending', later());
		expect(orderIds(await harness.poll())).toEqual(['AGAIN-1']);
		data.pushOrders(['AGAIN-1'], 'paid', later());
		expect((await harness.poll()).emitted).toBe(false);
		const stored = sandbox.state.orders.get(sandbox.state.userByName('demo@shop.test').id).byId.get('AGAIN-1');
		expect(stored.status).toBe('paid');
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
});
