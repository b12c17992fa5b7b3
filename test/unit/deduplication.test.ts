import {
	accountWithoutPasswordKey as accountId,
	cartEvent,
	decodeEvents,
	encodeEvents,
	eventKey,
	forgetProcessState,
	FUTURE_TOLERANCE_SECONDS,
	memoryOf,
	NodeMemory,
	normaliseTotal,
	orderEvent,
} from '../../nodes/CommerceMessaging/helpers/deduplication';
import { sharedValues } from '../../nodes/CommerceMessaging/helpers/sharedDeduplication';

const HOUR = 3600;
const DAY = 24 * HOUR;
const T0 = 1_760_000_000;
const ACCOUNT = 'account-a';
const hashOf = (orderId: string, status = 'paid') =>
	eventKey(ACCOUNT, orderEvent(orderId, status)).hash;

describe("a node's memory of accepted events (pure)", () => {
	it('V4: an accepted event blocks the same key within the window, and no longer once it has passed', () => {
		const memory = new NodeMemory();
		const hash = hashOf('ORD-1');
		expect(memory.sentWithin(hash, DAY, T0)).toBeUndefined();

		expect(memory.record(hash, T0, T0, DAY)).toBe(true);
		expect(memory.sentWithin(hash, DAY, T0)).toBe(T0);
		expect(memory.sentWithin(hash, DAY, T0 + DAY - 1)).toBe(T0);
		expect(memory.sentWithin(hash, DAY, T0 + DAY)).toBeUndefined();
		// A shorter window set later applies at once to keys already stored.
		expect(memory.sentWithin(hash, HOUR, T0 + 2 * HOUR)).toBeUndefined();
	});

	it('V4: a re-send after expiry starts a new window; an older or equal time changes nothing', () => {
		const memory = new NodeMemory();
		const hash = hashOf('ORD-2');
		memory.record(hash, T0, T0, DAY);
		expect(memory.record(hash, T0 + DAY + 5, T0 + DAY + 5, DAY)).toBe(true);
		expect(memory.record(hash, T0, T0 + DAY + 5, DAY)).toBe(false);
		expect(memory.sent.size).toBe(1);
		expect(memory.sentWithin(hash, DAY, T0 + 2 * DAY)).toBe(T0 + DAY + 5);
	});

	it('V4: merging a saved copy keeps the later time of each event and leaves out expired, future and malformed ones', () => {
		const memory = new NodeMemory();
		memory.record('mine', T0 - 10, T0, DAY);
		const added = memory.merge(
			[
				['mine', T0 - 100],
				['fresh', T0 - HOUR],
				['stale', T0 - DAY - 1],
				['slightlyAhead', T0 + FUTURE_TOLERANCE_SECONDS],
				['ahead', T0 + FUTURE_TOLERANCE_SECONDS + 1],
				['broken', Number.NaN],
			],
			T0,
			DAY,
		);
		expect(added).toBe(true);
		// Oldest first, whatever the order of the saved copy: the cap drops by send time.
		expect([...memory.sent]).toEqual([
			['fresh', T0 - HOUR],
			['mine', T0 - 10],
			['slightlyAhead', T0 + FUTURE_TOLERANCE_SECONDS],
		]);
		expect(memory.merge([['fresh', T0 - HOUR]], T0, DAY)).toBe(false);
	});

	// The documented figure, as a literal (docs/deduplication.md): 10,000 events per node.
	it('V4: stays bounded after 20,000 distinct keys, dropping the oldest and counting those still inside the window', () => {
		const memory = new NodeMemory();
		const keys = Array.from({ length: 20_000 }, (_, i) => hashOf(`ORD-${i}`));
		keys.forEach((hash, i) => memory.record(hash, T0 + i, T0 + i, 30 * DAY));

		expect(memory.sent.size).toBe(10_000);
		expect(memory.sentWithin(keys[9_999], 30 * DAY, T0 + 20_000)).toBeUndefined();
		expect(memory.sentWithin(keys[10_000], 30 * DAY, T0 + 20_000)).toBe(T0 + 10_000);
		expect(memory.droppedInWindow).toBe(10_000);

		// Once the oldest key is past the window, dropping it loses nothing.
		const aged = new NodeMemory(1);
		aged.record('a', T0 - 30, T0, 60);
		aged.record('b', T0 + 40, T0 + 40, 60);
		expect([...aged.sent]).toEqual([['b', T0 + 40]]);
		expect(aged.droppedInWindow).toBe(0);
	});

	it('V4: pruning forgets what is older than the longest window', () => {
		const memory = new NodeMemory();
		memory.record('old', T0 - 2 * HOUR, T0, DAY);
		memory.record('new', T0 - 10, T0, DAY);
		memory.prune(T0, HOUR);
		expect([...memory.sent]).toEqual([['new', T0 - 10]]);
	});

	it('V4: the saved copy is 17 characters per event, reads back exactly, and refuses what it did not write', () => {
		const events: Array<[string, number]> = Array.from({ length: 10_000 }, (_, i) => [
			hashOf(`SAVE-${i}`),
			T0 + Math.floor(i / 7),
		]);
		const text = encodeEvents(events);
		expect(text).toHaveLength(17 * 10_000);
		expect(decodeEvents(text)).toEqual(events);
		expect(text).not.toContain('SAVE');
		expect(decodeEvents(text.slice(1))).toBeUndefined();
		expect(decodeEvents(`aaaaaaaaaa"${text.slice(11, 17)}`)).toBeUndefined();
		expect(decodeEvents(undefined)).toBeUndefined();
		expect(decodeEvents('')).toEqual([]);
	});
});

describe('event keys', () => {
	it('V4: cart totals are normalised, so 49.9 and 49.90 are one cart event and 49.91 another', () => {
		expect(normaliseTotal(49.9)).toBe('49.9');
		expect(normaliseTotal(Number('49.90'))).toBe('49.9');
		expect(normaliseTotal(0.1 + 0.2)).toBe(normaliseTotal(0.3));
		expect(normaliseTotal(-0)).toBe('0');
		const cart = (total: number) => eventKey(ACCOUNT, cartEvent('c1', total));
		expect(cart(49.9).hash).toBe(cart(49.9).hash);
		expect(cart(49.9).hash).not.toBe(cart(49.91).hash);
		expect(cart(49.9).label).toBe('cart:c1:49.9');
	});

	it('V4: keys are compact, readable on output, and never confuse ids that contain the separator', () => {
		const key = eventKey(ACCOUNT, orderEvent('ORD-1', 'paid'));
		expect(key.label).toBe('order:ORD-1:paid');
		expect(key.hash).toMatch(/^[A-Za-z0-9_-]{10}$/);
		expect(key.hash).not.toContain('ORD');
		expect(hashOf('a:b', 'c')).not.toBe(hashOf('a', 'b:c'));
		expect(hashOf('1')).not.toBe(eventKey(ACCOUNT, cartEvent('1', 0)).hash);
		expect(hashOf('ORD-1', 'paid')).not.toBe(hashOf('ORD-1', 'shipped'));
	});

	it('V4: the account is the Base URL and the username: another one makes another key, the password does not', () => {
		const base = {
			baseUrl: 'https://api.example.com',
			username: 'shop@example.com',
			password: 'secret-1',
			sessionToken: 'tok',
		};
		const account = accountId(base);
		expect(accountId({ ...base, baseUrl: 'https://api2.example.com' })).not.toBe(account);
		expect(accountId({ ...base, baseUrl: 'https://api.example.com/v2' })).not.toBe(account);
		expect(accountId({ ...base, username: 'other@example.com' })).not.toBe(account);
		// The same account however the URL is written, and whatever its password, token or plugin key.
		for (const baseUrl of [
			'https://api.example.com/',
			' https://API.example.com// ',
			'https://api.example.com:443',
		]) {
			expect(accountId({ ...base, baseUrl })).toBe(account);
		}
		expect(
			accountId({ ...base, password: 'secret-2', sessionToken: 'other', pluginApiKey: 'k' }),
		).toBe(account);
		// Keys of one event differ between accounts; what is stored names neither the account nor a secret.
		const other = accountId({ ...base, username: 'other@example.com' });
		expect(eventKey(account, orderEvent('ORD-1', 'paid')).hash).not.toBe(
			eventKey(other, orderEvent('ORD-1', 'paid')).hash,
		);
		expect(eventKey(account, orderEvent('ORD-1', 'paid')).label).toBe(
			eventKey(other, orderEvent('ORD-1', 'paid')).label,
		);
		expect(account).toMatch(/^[A-Za-z0-9_-]{16}$/);
		expect(account).not.toMatch(/shop|example|secret/);
	});
});

describe('shared store values (pure)', () => {
	it('V4: an event recorded at its send is found, by its record or by the probe, for at least the window and less than twice it', () => {
		const windowSeconds = 2 * HOUR;
		const hash = hashOf('SV-1');
		for (let offset = 0; offset < 2 * windowSeconds; offset += 997) {
			const sentAt = T0 + offset;
			const { record } = sharedValues(hash, windowSeconds, sentAt);
			const foundAt = (now: number) =>
				Object.values(sharedValues(hash, windowSeconds, now)).includes(record);
			for (let later = 0; later < windowSeconds; later += 61)
				expect(foundAt(sentAt + later)).toBe(true);
			expect(foundAt(sentAt + 2 * windowSeconds)).toBe(false);
		}
		// Another window is another record: items with different windows never read each other's periods wrongly.
		expect(sharedValues(hash, HOUR, T0).record).not.toBe(
			sharedValues(hash, windowSeconds, T0).record,
		);
	});
});

describe('the memories of the process', () => {
	afterEach(() => forgetProcessState());

	const fill = (memory: NodeMemory, events: number) => {
		for (let i = 0; i < events; i++) memory.record(`h${i}`, T0, T0, DAY);
	};

	// The documented figures, as literals (docs/deduplication.md): 10,000 events per node, 100,000 over all nodes.
	it('V4: past 100,000 events over all nodes, the least recently used memories go whole, never one with a send in flight', () => {
		const perNode = 10_000;
		const busy = memoryOf('wf:busy');
		fill(busy, perNode);
		busy.inFlight.set('h0', Promise.resolve(true));
		const idle = memoryOf('wf:idle');
		fill(idle, perNode);
		const others = Array.from({ length: 8 }, (_, n) => memoryOf(`wf:${n}`));
		for (const memory of others) fill(memory, perNode);
		// Exactly at the bound: everything kept (asking for a memory again gives the same one).
		expect(memoryOf(`wf:7`)).toBe(others[7]);

		fill(memoryOf('wf:new'), 1);
		memoryOf('wf:new');
		// Over it: the busy one (the oldest) stays; the oldest idle one went, whole.
		expect(memoryOf('wf:busy')).toBe(busy);
		expect(memoryOf('wf:idle')).not.toBe(idle);
		expect(memoryOf('wf:idle').sent.size).toBe(0);
	});
});
