import { EmulatorData, PollHarness } from '../harness/poll';
import { credentialsFor, startSandbox, type Sandbox } from '../harness/sandbox';

type Logged = { path: string };

const POLLS = 200;
/** Characters of JSON the workflow's static data may take, whatever the account's size. */
const STATE_BOUND = 300;

describe('Commerce Messaging Trigger: bounded state over a large account, through n8n\'s poll machinery', () => {
	let sandbox: Sandbox;
	let data: EmulatorData;
	let nextMs = Date.now();
	const later = () => (nextMs = Math.max(nextMs + 1, Date.now()));
	const stateSize = (harness: PollHarness) => JSON.stringify(harness.staticData).length;

	beforeAll(async () => {
		sandbox = await startSandbox({ recordRequests: true });
		data = new EmulatorData(sandbox);
		data.addContacts(3000, 'Large');
		for (let i = 0; i < 3000; i++) data.pushOrders([`BULK-${i}`], 'paid', Date.parse('2024-01-01T00:00:00Z') + i * 1000);
		data.addProducts(Array.from({ length: 1000 }, (_, i) => `BULK-${i}`), Date.parse('2024-01-01T00:00:00Z'));
		for (let i = 0; i < 300; i++) {
			const template = data.addPendingTemplate(`bulk_${i}`);
			sandbox.approveNow(template.id);
			// Reviews of the past, one minute apart (a loop would review hundreds in one millisecond).
			sandbox.state.templates.get(template.id).reviewed_at = new Date(Date.parse('2024-06-01T00:00:00Z') + i * 60_000).toISOString();
		}
	});
	afterAll(async () => await sandbox.close());

	/** Polls POLLS times, adding `add(i)` records before poll i; checks that every record fires once, in order. */
	async function pollMany(event: string, add: (poll: number) => string[], key: string, polls = POLLS) {
		const harness = new PollHarness(credentialsFor(sandbox), { event });
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
		const contactCalls = sandbox.state.requests.slice(start).filter((r: Logged) => r.path === '/api/contacts/');
		// Activation's login probe and start, then at most 2 requests per poll (page 1 and the last page or two).
		expect(contactCalls.length).toBeLessThanOrEqual(3 + POLLS * 3);
	});

	it('V1: New Order keeps one instant and its ids after 200 polls over 3,000+ orders', async () => {
		const largest = await pollMany(
			'newOrder',
			(i) => {
				const ids = Array.from({ length: i % 4 }, (_, n) => `POLL-${i}-${n}`);
				// Every fourth poll, two orders share one instant.
				const instant = later();
				ids.forEach((id, n) => data.pushOrders([id], 'paid', i % 4 === 3 && n < 2 ? instant : later()));
				return ids;
			},
			'order_id',
		);
		expect(largest).toBeLessThan(STATE_BOUND);
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
