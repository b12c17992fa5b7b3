import { EmulatorData, PollHarness } from '../../tools/harness/poll';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

type Logged = { path: string };

const POLLS = 200;
/** Characters of JSON the workflow's static data may take, whatever the account's size. */
const STATE_BOUND = 300;

describe("Commerce Messaging Trigger: bounded state over a large account, through n8n's poll machinery", () => {
	let sandbox: Sandbox;
	let data: EmulatorData;
	let nextMs = Date.now();
	const later = () => (nextMs = Math.max(nextMs + 1, Date.now()));
	const stateSize = (harness: PollHarness) => JSON.stringify(harness.staticData).length;

	beforeAll(async () => {
		sandbox = await startSandbox({ recordRequests: true });
		data = new EmulatorData(sandbox);
		data.addContacts(3000, 'Large');
		for (let i = 0; i < 3000; i++)
			data.pushOrders([`BULK-${i}`], 'paid', Date.parse('2024-01-01T00:00:00Z') + i * 1000);
		data.addProducts(
			Array.from({ length: 1000 }, (_, i) => `BULK-${i}`),
			Date.parse('2024-01-01T00:00:00Z'),
		);
		for (let i = 0; i < 300; i++) {
			const template = data.addPendingTemplate(`bulk_${i}`);
			sandbox.approveNow(template.id);
			// Reviews of the past, one minute apart (a loop would review hundreds in one millisecond).
			sandbox.state.templates.get(template.id).reviewed_at = new Date(
				Date.parse('2024-06-01T00:00:00Z') + i * 60_000,
			).toISOString();
		}
	});
	afterAll(async () => await sandbox.close());

	/** Polls POLLS times, adding `add(i)` records before poll i; checks that every record fires once, in order. */
	async function pollMany(
		event: string,
		add: (poll: number) => string[],
		key: string,
		polls = POLLS,
		parameters = {},
	) {
		const harness = new PollHarness(credentialsFor(sandbox), { event, ...parameters });
		await harness.activate();
		const expected: string[] = [];
		const emitted: string[] = [];
		let largestState = stateSize(harness);
		for (let i = 0; i < polls; i++) {
			expected.push(...add(i));
			const poll = await harness.poll();
			expect(poll.error).toBeUndefined();
			emitted.push(...poll.items.map((item) => String(item.json[key])));
			largestState = Math.max(largestState, stateSize(harness));
		}
		expect(emitted).toEqual(expected);
		return largestState;
	}

	it('C1: New Contact keeps one number, and each poll costs at most three requests, after 200 polls over 3,000+ contacts', async () => {
		const start = sandbox.state.requests.length;
		const largest = await pollMany(
			'newContact',
			(i) => data.addContacts(i % 3, `Poll${i}-`).map((c) => String(c.id)),
			'id',
		);
		expect(largest).toBeLessThan(STATE_BOUND);
		const contactCalls = sandbox.state.requests
			.slice(start)
			.filter((r: Logged) => r.path === '/api/contacts/');
		// Activation's login probe and start, then at most 2 requests per poll (page 1 and the last page or two).
		expect(contactCalls.length).toBeLessThanOrEqual(3 + POLLS * 3);
	});

	const newOrders = (prefix: string) => (i: number) => {
		const ids = Array.from({ length: i % 4 }, (_, n) => `${prefix}-${i}-${n}`);
		// Every fourth poll, two orders share one instant.
		const instant = later();
		ids.forEach((id, n) => data.pushOrders([id], 'paid', i % 4 === 3 && n < 2 ? instant : later()));
		return ids;
	};

	it('V1: New Order without a look-back keeps one instant and its ids after 200 polls over 3,000+ orders', async () => {
		const largest = await pollMany('newOrder', newOrders('POLL'), 'order_id', POLLS, {
			orderOptions: { lookBackMinutes: 0 },
		});
		expect(largest).toBeLessThan(STATE_BOUND);
	});

	it('V1: New Order with its look-back keeps only the ids inside the window, never more than its cap', async () => {
		// All ~300 orders of this test fall inside the default 10-minute window, so each is remembered once; the
		// state holds about one short entry per order (id and time), not the orders themselves.
		const largest = await pollMany('newOrder', newOrders('WINDOW'), 'order_id');
		const ordersInWindow = Array.from({ length: POLLS }, (_, i) => i % 4).reduce(
			(sum, n) => sum + n,
			0,
		);
		expect(largest).toBeLessThan(STATE_BOUND + ordersInWindow * 40);
	});

	it('V5: New or Changed Product keeps one instant and its ids after 200 polls over 1,000 products', async () => {
		const largest = await pollMany(
			'newOrChangedProduct',
			(i) => {
				if (i % 2) return [];
				const id = `BULK-${(i * 7) % 1000}`;
				data.updateProduct(id, { stock: i }, later());
				return [id];
			},
			'id',
		);
		expect(largest).toBeLessThan(STATE_BOUND);
	});

	it('T3: Template Review Finished keeps one instant and its ids after 200 polls over 300+ reviewed templates', async () => {
		const largest = await pollMany(
			'templateReviewed',
			(i) => {
				if (i % 3) return [];
				const template = data.addPendingTemplate(`late_${i}`);
				sandbox.approveNow(template.id);
				return [String(template.id)];
			},
			'id',
		);
		expect(largest).toBeLessThan(STATE_BOUND);
	});
});
