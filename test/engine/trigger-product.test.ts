import { EmulatorData, failingAfterFirstPage, PollHarness } from '../../tools/harness/poll';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

type Logged = { method: string; path: string; url: string; status: number };

const PRODUCTS = '/api/v1/products/';
const SMALL_RETRIES = { maxAttempts: 2, maxRetryWaitSeconds: 1 };

describe('Commerce Messaging Trigger, New or Changed Product, polled by n8n against the emulator', () => {
	let sandbox: Sandbox;
	let data: EmulatorData;
	let nextMs = Date.now();
	/** Distinct, increasing updated_at instants. */
	const later = () => (nextMs = Math.max(nextMs + 1, Date.now()));
	const newHarness = (
		filters: Record<string, unknown> = {},
		credentials = credentialsFor(sandbox),
	) =>
		new PollHarness(credentials, {
			event: 'newOrChangedProduct',
			filters,
			requestOptions: SMALL_RETRIES,
		});
	const productIds = (poll: { items: Array<{ json: Record<string, unknown> }> }) =>
		poll.items.map((item) => item.json.id);
	const productRequests = () =>
		sandbox.state.requests.filter((r: Logged) => r.path === PRODUCTS) as Logged[];

	beforeAll(async () => {
		sandbox = await startSandbox({ maxPageSize: 10 });
		data = new EmulatorData(sandbox);
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	it('V5/A5: the first poll records the newest change and emits none of the catalogue', async () => {
		const harness = newHarness();
		const first = await harness.activate();
		expect(first.error).toBeUndefined();
		expect(first.emitted).toBe(false);
		// The seed's products 1001-1025 were changed last at 1025's creation: the window starts there.
		const changed = Date.parse(
			sandbox.state.productsOf(sandbox.state.userByName(DEMO.username).id).get('1025').updated_at,
		);
		expect(harness.nodeStaticData.cursor).toEqual({
			event: 'newOrChangedProduct',
			state: { from: new Date(changed).toISOString(), seen: [['1025', changed]] },
		});
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('V5/L3: new and changed products are emitted once each, oldest change first, across page boundaries', async () => {
		const harness = newHarness();
		await harness.activate();
		data.updateProduct(1003, { price: 19.9 }, later());
		const added = Array.from({ length: 12 }, (_, i) => `NEW-${i + 1}`);
		for (const id of added) data.addProducts([id], later());
		data.updateProduct(1020, { stock: 0 }, later());
		const poll = await harness.poll();
		expect(poll.error).toBeUndefined();
		expect(productIds(poll)).toEqual([1003, ...added, 1020]);
		expect(poll.items[0].json).toMatchObject({ id: 1003, price: 19.9, sku: 'SKU-1003' });
		expect((await harness.poll()).emitted).toBe(false);
		// A product changed again is emitted again, once.
		data.updateProduct('NEW-1', { name: 'Renamed' }, later());
		const again = await harness.poll();
		expect(again.items.map((item) => item.json)).toEqual([
			expect.objectContaining({ id: 'NEW-1', name: 'Renamed' }),
		]);
	});

	it('V5: products changed in the same instant, before and after a poll, are neither lost nor repeated', async () => {
		const harness = newHarness();
		await harness.activate();
		const instant = later();
		data.updateProduct(1001, { stock: 1 }, instant);
		data.updateProduct(1002, { stock: 2 }, instant);
		expect(productIds(await harness.poll())).toEqual([1001, 1002]);
		data.updateProduct(1004, { stock: 4 }, instant);
		expect(productIds(await harness.poll())).toEqual([1004]);
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('V5: the Change Type filter emits only new or only changed products', async () => {
		const newOnly = newHarness({ changeType: 'created' });
		const changedOnly = newHarness({ changeType: 'updated' });
		await newOnly.activate();
		await changedOnly.activate();
		data.addProducts(['TYPE-NEW'], later());
		data.updateProduct(1010, { price: 1 }, later());
		expect(productIds(await newOnly.poll())).toEqual(['TYPE-NEW']);
		expect(productIds(await changedOnly.poll())).toEqual([1010]);
		expect((await newOnly.poll()).emitted).toBe(false);
		expect((await changedOnly.poll()).emitted).toBe(false);
	});

	it('A5: without the plugin headers, refused by the service, the trigger says which credential fields are missing', async () => {
		const before = productRequests().length;
		const harness = newHarness({}, credentialsFor(sandbox, { ...DEMO, pluginKey: undefined }));
		const activation = await harness.activate();
		expect(activation.error?.message).toMatch(
			/plugin headers for this call \(fill in .*Plugin API Key/,
		);
		expect(productRequests().length).toBe(before + 1);
		expect(harness.nodeStaticData.cursor).toBeUndefined();
	});

	it('L1/L3: a poll failing half-way through the catalogue loses nothing and duplicates nothing', async () => {
		const harness = newHarness();
		await harness.activate();
		const before = JSON.stringify(harness.staticData);
		data.updateProduct(1005, { price: 5 }, later());
		data.updateProduct(1024, { price: 24 }, later());
		const failed = await failingAfterFirstPage(sandbox, PRODUCTS, () => harness.poll());
		expect(failed.error?.message).toMatch(/SERVICE_UNAVAILABLE/);
		expect(failed.emitted).toBe(false);
		expect(JSON.stringify(harness.staticData)).toBe(before);
		expect(productIds(await harness.poll())).toEqual([1005, 1024]);
	});

	it('V5: Fetch Test Event returns the most recently changed product and leaves the state alone', async () => {
		const harness = newHarness();
		await harness.activate();
		const state = JSON.stringify(harness.staticData);
		data.updateProduct(1015, { name: 'Latest change' }, later());
		const manual = await harness.fetchTestEvent();
		expect(manual.items.map((item) => item.json)).toEqual([
			expect.objectContaining({ id: 1015, name: 'Latest change' }),
		]);
		expect(JSON.stringify(harness.staticData)).toBe(state);
		expect(productIds(await harness.poll())).toEqual([1015]);
	});
});
