/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	cartEventKey,
	Deduplication,
	FUTURE_TOLERANCE_SECONDS,
	MAX_SENT_KEYS,
	normaliseTotal,
	orderEventKey,
	resetClaims,
	SentEventLog,
	type SentEventMap,
} from '../../nodes/CommerceMessaging/helpers/deduplication';

const HOUR = 3600;
const DAY = 24 * HOUR;
const T0 = 1_760_000_000;

describe('deduplication store (pure)', () => {
	it('V4: an accepted event blocks the same key within the window, and no longer once it has passed', () => {
		const log = SentEventLog.load(undefined, { nowSeconds: T0, maxAgeSeconds: DAY });
		const key = orderEventKey('ORD-1', 'paid');
		expect(log.sentWithin(key.hash, DAY, T0)).toBeUndefined();

		log.record(key.hash, T0);
		expect(log.sentWithin(key.hash, DAY, T0)).toBe(T0);
		expect(log.sentWithin(key.hash, DAY, T0 + DAY - 1)).toBe(T0);
		expect(log.sentWithin(key.hash, DAY, T0 + DAY)).toBeUndefined();
		// A shorter window set later applies at once to keys already stored.
		expect(log.sentWithin(key.hash, HOUR, T0 + 2 * HOUR)).toBeUndefined();
	});

	it('V4: a re-send after expiry starts a new window from the new send', () => {
		const log = SentEventLog.load(undefined, { nowSeconds: T0, maxAgeSeconds: DAY });
		const key = cartEventKey('cart-1', 49.9);
		log.record(key.hash, T0);
		log.record(key.hash, T0 + DAY + 5);
		expect(log.size).toBe(1);
		expect(log.sentWithin(key.hash, DAY, T0 + 2 * DAY)).toBe(T0 + DAY + 5);
		expect(log.entries).toEqual({ [key.hash]: T0 + DAY + 5 });
	});

	it('V4: loading prunes expired keys and malformed values, and says the state changed', () => {
		const saved: SentEventMap = { fresh: T0 - HOUR, stale: T0 - DAY - 1, edge: T0 - DAY };
		(saved as Record<string, unknown>).broken = 'yesterday';
		const log = SentEventLog.load(saved, { nowSeconds: T0, maxAgeSeconds: DAY });
		expect(log.entries).toEqual({ fresh: T0 - HOUR });
		expect(log.changed).toBe(true);
		expect(log.sentWithin('stale', 10 * DAY, T0)).toBeUndefined();
	});

	it('V4: loading clean state keeps the very object n8n holds, so updates land in the saved data', () => {
		const saved: SentEventMap = { a: T0 - 10, b: T0 - 5 };
		const log = SentEventLog.load(saved, { nowSeconds: T0, maxAgeSeconds: DAY });
		expect(log.changed).toBe(false);
		expect(log.entries).toBe(saved);
		log.record('c', T0);
		expect(saved.c).toBe(T0);
		expect(log.changed).toBe(true);
	});

	it('V4: state that is not a map (corrupted static data) is replaced, not trusted', () => {
		for (const saved of [['a', 1], 'text', 42]) {
			const log = SentEventLog.load(saved, { nowSeconds: T0, maxAgeSeconds: DAY });
			expect(log.size).toBe(0);
			expect(log.changed).toBe(true);
			expect(log.entries).toEqual({});
		}
	});

	it('V4: stays bounded after 20,000 distinct keys, dropping the oldest, and stays compact', () => {
		const log = SentEventLog.load(undefined, { nowSeconds: T0, maxAgeSeconds: 30 * DAY });
		const keys = Array.from({ length: 20_000 }, (_, i) => orderEventKey(`ORD-${i}`, 'paid').hash);
		keys.forEach((hash, i) => log.record(hash, T0 + i));

		expect(MAX_SENT_KEYS).toBe(10_000);
		expect(log.size).toBe(MAX_SENT_KEYS);
		expect(Object.keys(log.entries)).toHaveLength(MAX_SENT_KEYS);
		expect(log.sentWithin(keys[9_999], 30 * DAY, T0 + 20_000)).toBeUndefined();
		expect(log.sentWithin(keys[10_000], 30 * DAY, T0 + 20_000)).toBe(T0 + 10_000);
		expect(log.sentWithin(keys[19_999], 30 * DAY, T0 + 20_000)).toBe(T0 + 19_999);
		// Saved as JSON in the workflow: a hash and a number per key, never the growing list of events.
		const bytes = JSON.stringify(log.entries).length;
		expect(bytes).toBeLessThan(MAX_SENT_KEYS * 30);
	});

	it('V4: oversized saved state is cut to the newest keys when loaded', () => {
		const saved: SentEventMap = {};
		// Written newest first on purpose: the cap goes by send time, not by the order of the saved keys.
		for (let i = 12_000; i > 0; i--) saved[`k${i}`] = T0 - 12_000 + i;
		const log = SentEventLog.load(saved, { nowSeconds: T0, maxAgeSeconds: DAY });
		expect(log.size).toBe(MAX_SENT_KEYS);
		expect(log.changed).toBe(true);
		expect(log.entries.k2000).toBeUndefined();
		expect(log.entries.k2001).toBe(T0 - 9_999);
		expect(log.entries.k12000).toBe(T0);
	});

	it('V4: a custom cap is honoured the same way', () => {
		const log = SentEventLog.load(undefined, { nowSeconds: T0, maxAgeSeconds: DAY, maxKeys: 3 });
		for (const [i, hash] of ['a', 'b', 'c', 'd', 'e'].entries()) log.record(hash, T0 + i);
		expect(Object.keys(log.entries).sort()).toEqual(['c', 'd', 'e']);
	});

	it('V4: cart totals are normalised, so 49.9 and 49.90 are one cart event and 49.91 another', () => {
		expect(normaliseTotal(49.9)).toBe('49.9');
		expect(normaliseTotal(Number('49.90'))).toBe('49.9');
		expect(normaliseTotal(0.1 + 0.2)).toBe(normaliseTotal(0.3));
		expect(normaliseTotal(-0)).toBe('0');
		expect(cartEventKey('c1', 49.9).hash).toBe(cartEventKey('c1', 49.90).hash);
		expect(cartEventKey('c1', 49.9).hash).not.toBe(cartEventKey('c1', 49.91).hash);
		expect(cartEventKey('c1', 49.9).label).toBe('cart:c1:49.9');
	});

	it('V4: keys are compact, readable on output, and never confuse ids that contain the separator', () => {
		const key = orderEventKey('ORD-1', 'paid');
		expect(key.label).toBe('order:ORD-1:paid');
		expect(key.hash).toMatch(/^[A-Za-z0-9_-]{12}$/);
		expect(key.hash).not.toContain('ORD');
		expect(orderEventKey('a:b', 'c').hash).not.toBe(orderEventKey('a', 'b:c').hash);
		expect(orderEventKey('1', 'paid').hash).not.toBe(cartEventKey('1', 0).hash);
		expect(orderEventKey('ORD-1', 'paid').hash).not.toBe(orderEventKey('ORD-1', 'shipped').hash);
	});

	it('V4: keys dated in the future (a clock set back, edited state) are discarded on load', () => {
		const saved: SentEventMap = {
			now: T0,
			slightlyAhead: T0 + FUTURE_TOLERANCE_SECONDS,
			ahead: T0 + FUTURE_TOLERANCE_SECONDS + 1,
			farAhead: T0 + 365 * DAY,
		};
		const log = SentEventLog.load(saved, { nowSeconds: T0, maxAgeSeconds: DAY });
		expect(Object.keys(log.entries).sort()).toEqual(['now', 'slightlyAhead']);
		expect(log.changed).toBe(true);
		expect(log.sentWithin('farAhead', DAY, T0)).toBeUndefined();
	});

	it('V4: keys the size cap drops while still inside the window are counted (to be reported); expired ones are not', () => {
		const loaded = SentEventLog.load({ a: T0 - 30, b: T0 - 20, c: T0 - 10, old: T0 - 2 * DAY }, {
			nowSeconds: T0,
			maxAgeSeconds: DAY,
			maxKeys: 2,
		});
		expect(Object.keys(loaded.entries).sort()).toEqual(['b', 'c']);
		expect(loaded.droppedInWindow).toBe(1);
		loaded.record('d', T0);
		expect(loaded.droppedInWindow).toBe(2);

		// Once the oldest key is past the window, dropping it loses nothing.
		const aged = SentEventLog.load({ a: T0 - 30 }, { nowSeconds: T0, maxAgeSeconds: 60, maxKeys: 1 });
		aged.record('b', T0 + 40);
		expect(Object.keys(aged.entries)).toEqual(['b']);
		expect(aged.droppedInWindow).toBe(0);
	});
});

describe('deduplication between executions of one process (claims)', () => {
	/** One execution's context: its own copy of the node's static data, as n8n gives each execution. */
	function execution(options: IDataObject = {}, workflowId = 'wf-unit') {
		const staticData: IDataObject = {};
		const warn = jest.fn();
		const hints = jest.fn();
		const ctx = {
			getNodeParameter: (name: string) => (name === 'options' ? options : undefined),
			getNode: () => ({ name: 'Push' }),
			getWorkflow: () => ({ id: workflowId }),
			getWorkflowStaticData: () => staticData,
			addExecutionHints: hints,
			logger: { warn },
		} as unknown as IExecuteFunctions;
		return { ctx, staticData, warn, hints };
	}
	const key = orderEventKey('ORD-C', 'paid');
	const ids = { order_id: 'ORD-C', status: 'paid' };
	/** A send that finishes when told to. */
	function gate() {
		let finish: (ok: boolean) => void = () => {};
		const sends: number[] = [];
		const send = () =>
			new Promise<unknown>((resolve, reject) => {
				sends.push(1);
				finish = (ok) => (ok ? resolve({ order_id: 'ORD-C', status: 'paid' }) : reject(new Error('refused')));
			});
		return { send, sends, finish: (ok: boolean) => finish(ok) };
	}
	const tick = async () => await new Promise((resolve) => setImmediate(resolve));

	beforeEach(() => resetClaims());

	it('V4: an execution finding the key claimed waits, then skips the event the other one got accepted', async () => {
		const first = execution();
		const second = execution();
		const sendA = gate();
		const sendB = gate();
		const a = Deduplication.start(first.ctx, 1).sendOnce(0, key, ids, sendA.send);
		const b = Deduplication.start(second.ctx, 1).sendOnce(0, key, ids, sendB.send);
		await tick();
		expect(sendA.sends).toHaveLength(1);
		expect(sendB.sends).toHaveLength(0);
		sendA.finish(true);
		expect(await a).toEqual(ids);
		expect(await b).toMatchObject({ ...ids, skipped: true, reason: 'duplicate', dedupKey: 'order:ORD-C:paid' });
		expect(sendB.sends).toHaveLength(0);
		// The skipping execution keeps the key in its own state too: the last execution saved is what n8n keeps.
		expect(Object.keys(second.staticData.sentEvents as IDataObject)).toEqual([key.hash]);
	});

	it('V4: when the claimed send fails the claim is released and the waiting execution sends the event itself', async () => {
		const sendA = gate();
		const sendB = gate();
		const a = Deduplication.start(execution().ctx, 1).sendOnce(0, key, ids, sendA.send);
		const b = Deduplication.start(execution().ctx, 1).sendOnce(0, key, ids, sendB.send);
		await tick();
		sendA.finish(false);
		await expect(a).rejects.toThrow('refused');
		await tick();
		expect(sendB.sends).toHaveLength(1);
		sendB.finish(true);
		expect(await b).toEqual(ids);
		// And a third execution now skips it.
		const third = await Deduplication.start(execution().ctx, 1).sendOnce(0, key, ids, gate().send);
		expect(third.skipped).toBe(true);
	});

	it('V4: claims are per workflow, and a done send blocks only within the window of the item asking', async () => {
		let now = T0;
		const clock = () => now;
		const sent: string[] = [];
		const send = (label: string) => async () => {
			sent.push(label);
			return { accepted: label };
		};
		await Deduplication.start(execution().ctx, 1, clock).sendOnce(0, key, ids, send('first'));
		await Deduplication.start(execution({}, 'wf-other').ctx, 1, clock).sendOnce(0, key, ids, send('other workflow'));
		now = T0 + 2 * HOUR;
		const oneHour = execution({ deduplicationWindowHours: 1 });
		await Deduplication.start(oneHour.ctx, 1, clock).sendOnce(0, key, ids, send('window of one hour'));
		const skipped = await Deduplication.start(execution().ctx, 1, clock).sendOnce(0, key, ids, send('never'));
		expect(sent).toEqual(['first', 'other workflow', 'window of one hour']);
		expect(skipped.firstSentAt).toBe(new Date(now * 1000).toISOString());
	});

	it('V4: each accepted key is in the static data at once, before the run ends (Retry On Fail re-runs the node)', async () => {
		const run = execution();
		const dedup = Deduplication.start(run.ctx, 2);
		await dedup.sendOnce(0, key, ids, async () => ({ ok: true }));
		expect(Object.keys(run.staticData.sentEvents as IDataObject)).toEqual([key.hash]);
		await expect(
			dedup.sendOnce(1, orderEventKey('ORD-D', 'paid'), {}, async () => await Promise.reject(new Error('down'))),
		).rejects.toThrow('down');
		expect(Object.keys(run.staticData.sentEvents as IDataObject)).toEqual([key.hash]);
	});
});
