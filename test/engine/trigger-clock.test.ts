/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { EmulatorData, PollHarness, type PollOutcome } from '../../tools/harness/poll';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

const DAY = 24 * 3600_000;
const SMALL_RETRIES = { maxAttempts: 2, maxRetryWaitSeconds: 1 };

type Event = 'newOrder' | 'newOrChangedProduct' | 'templateReviewed';
type WindowCursor = { state: { from: string | null; seen: Array<[string, number]> } };

/**
 * Records whose timestamp is ahead of n8n's clock: one stamped a day ahead (a clock glitch, a pre-order, a local
 * time written without its offset) among correct ones, and a service whose clock runs a few seconds ahead. Each
 * test has an account of its own, so the records it adds are the only ones its trigger reads.
 */
describe("Commerce Messaging Trigger: timestamps ahead of n8n's clock, polled by n8n against the emulator", () => {
	let sandbox: Sandbox;
	let accounts = 0;
	const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

	/** A fresh account, its emulator data, and a trigger on it for `event`. */
	function setUp(event: Event) {
		accounts++;
		const user = {
			username: `clock-${accounts}@shop.test`,
			password: 'clock-password',
			pluginKey: `clock-plugin-key-${accounts}`,
		};
		sandbox.addUser({ ...user, apiAccess: true });
		const data = new EmulatorData(sandbox, user.username);
		const trigger = new PollHarness(credentialsFor(sandbox, user), {
			event,
			requestOptions: SMALL_RETRIES,
		});
		return { data, trigger };
	}

	const idsOf = (poll: PollOutcome, key = 'id') => {
		expect(poll.error).toBeUndefined();
		return poll.items.map((item) => String(item.json[key]));
	};

	/** The records of each kind: added with a stamp `atMs`, and the ids the trigger emits them under. */
	const kinds: Record<
		Event,
		{ key: string; add(data: EmulatorData, id: string, atMs: number): string }
	> = {
		newOrder: {
			key: 'order_id',
			add(data, id, atMs) {
				data.pushOrders([id], 'paid', atMs);
				return id;
			},
		},
		newOrChangedProduct: {
			key: 'id',
			add(data, id, atMs) {
				data.addProducts([id], atMs);
				return id;
			},
		},
		templateReviewed: {
			key: 'id',
			add(data, id, atMs) {
				const template = data.addPendingTemplate(id);
				sandbox.approveNow(template.id);
				sandbox.state.templates.get(template.id).reviewed_at = new Date(atMs).toISOString();
				return String(template.id);
			},
		},
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ maxPageSize: 10 });
	});
	afterAll(async () => await sandbox.close());

	const events: Array<[string, Event]> = [
		['V1: New Order', 'newOrder'],
		['V5: New or Changed Product', 'newOrChangedProduct'],
		['T3: Template Review Finished', 'templateReviewed'],
	];

	it.each(events)(
		'%s: a record stamped a day ahead is emitted once, and each correct one after it once, over several polls',
		async (_name, event) => {
			const { data, trigger } = setUp(event);
			const { key, add } = kinds[event];
			await trigger.activate();
			const future = add(data, 'future_one', Date.now() + DAY);
			const first = add(data, 'correct_0', Date.now());
			expect(idsOf(await trigger.poll(), key)).toEqual([first, future]);
			for (let i = 1; i <= 3; i++) {
				await pause(3);
				const correct = add(data, `correct_${i}`, Date.now());
				expect(idsOf(await trigger.poll(), key)).toEqual([correct]);
			}
			expect((await trigger.poll()).emitted).toBe(false);
			// The window stays in the present; the record ahead is remembered until the window passes its stamp.
			const { state } = trigger.nodeStaticData.cursor as WindowCursor;
			expect(Date.parse(state.from as string)).toBeLessThanOrEqual(Date.now());
			expect(state.seen.map(([id]) => id)).toContain(future);
		},
	);

	it.each(events)(
		'%s: a record stamped a day ahead before activation neither hides the correct ones after it nor fires',
		async (_name, event) => {
			const { data, trigger } = setUp(event);
			const { key, add } = kinds[event];
			add(data, 'old_one', Date.now() - 60_000);
			add(data, 'ahead_one', Date.now() + DAY);
			await trigger.activate();
			for (let i = 0; i < 3; i++) {
				await pause(3);
				const correct = add(data, `after_${i}`, Date.now());
				expect(idsOf(await trigger.poll(), key)).toEqual([correct]);
			}
			expect((await trigger.poll()).emitted).toBe(false);
		},
	);

	it.each(events)(
		"%s: with the service's clock a few seconds ahead of n8n's, each record is emitted once",
		async (_name, event) => {
			const { data, trigger } = setUp(event);
			const { key, add } = kinds[event];
			const serviceNow = () => Date.now() + 3_000;
			await trigger.activate();
			const emitted: string[] = [];
			const added: string[] = [];
			// Each record is ahead of n8n's clock for the next polls or so, then behind it.
			for (let i = 0; i < 8; i++) {
				// Two records a poll, one of them while the previous poll's records are still ahead of n8n's clock.
				added.push(add(data, `skew_${i}_a`, serviceNow()));
				await pause(3);
				added.push(add(data, `skew_${i}_b`, serviceNow()));
				emitted.push(...idsOf(await trigger.poll(), key));
				await pause(400);
			}
			emitted.push(...idsOf(await trigger.poll(), key));
			expect(emitted).toEqual(added);
		},
		20_000,
	);
});
