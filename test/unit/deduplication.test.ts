import {
	cartEventKey,
	MAX_SENT_KEYS,
	normaliseTotal,
	orderEventKey,
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
});
