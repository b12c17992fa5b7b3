import {
	accountWithoutPasswordKey as accountId,
	cartEvent,
	eventKey,
	normaliseTotal,
	orderEvent,
} from '../../nodes/CommerceMessaging/helpers/deduplication';
import {
	decodeEntries,
	encodeEntries,
	forgetProcessMemory,
	FUTURE_TOLERANCE_SECONDS,
	NodeMemory,
	nodeMemory,
	SentEventLog,
} from '../../nodes/CommerceMessaging/helpers/deduplication/processStore';
import { sharedValues } from '../../nodes/CommerceMessaging/helpers/deduplication/sharedStore';
import { deduplicationMemories } from '../../nodes/CommerceMessaging/helpers/processState';

const HOUR = 3600;
const DAY = 24 * HOUR;
const T0 = 1_760_000_000;
const ACCOUNT = 'account-a';
const hashOf = (orderId: string, status = 'paid') => eventKey(ACCOUNT, orderEvent(orderId, status)).hash;

describe('deduplication log (pure)', () => {
	it('V4: an accepted event blocks the same key within the window, and no longer once it has passed', () => {
		const log = new SentEventLog();
		const hash = hashOf('ORD-1');
		expect(log.sentWithin(hash, DAY, T0)).toBeUndefined();

		expect(log.record(hash, T0, T0, DAY)).toBe(true);
		expect(log.sentWithin(hash, DAY, T0)).toBe(T0);
		expect(log.sentWithin(hash, DAY, T0 + DAY - 1)).toBe(T0);
		expect(log.sentWithin(hash, DAY, T0 + DAY)).toBeUndefined();
		// A shorter window set later applies at once to keys already stored.
		expect(log.sentWithin(hash, HOUR, T0 + 2 * HOUR)).toBeUndefined();
	});

	it('V4: a re-send after expiry starts a new window; an older or equal time changes nothing', () => {
		const log = new SentEventLog();
		const hash = hashOf('ORD-2');
		log.record(hash, T0, T0, DAY);
		expect(log.record(hash, T0 + DAY + 5, T0 + DAY + 5, DAY)).toBe(true);
		expect(log.record(hash, T0, T0 + DAY + 5, DAY)).toBe(false);
		expect(log.size).toBe(1);
		expect(log.sentWithin(hash, DAY, T0 + 2 * DAY)).toBe(T0 + DAY + 5);
	});

	it('V4: merging a saved copy keeps the later time of each event and leaves out expired, future and malformed ones', () => {
		const log = new SentEventLog();
		log.record('mine', T0 - 10, T0, DAY);
		const added = log.merge(
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
		expect(Object.fromEntries(log.entries())).toEqual({ fresh: T0 - HOUR, mine: T0 - 10, slightlyAhead: T0 + FUTURE_TOLERANCE_SECONDS });
		// Oldest first, whatever the order of the saved copy: the cap drops by send time.
		expect([...log.entries()].map(([hash]) => hash)).toEqual(['fresh', 'mine', 'slightlyAhead']);
		expect(log.merge([['fresh', T0 - HOUR]], T0, DAY)).toBe(false);
	});

	it('V4: stays bounded after 20,000 distinct keys, dropping the oldest and counting those still inside the window', () => {
		const log = new SentEventLog();
		const keys = Array.from({ length: 20_000 }, (_, i) => hashOf(`ORD-${i}`));
		keys.forEach((hash, i) => log.record(hash, T0 + i, T0 + i, 30 * DAY));

		expect(log.size).toBe(10_000);
		expect(log.sentWithin(keys[9_999], 30 * DAY, T0 + 20_000)).toBeUndefined();
		expect(log.sentWithin(keys[10_000], 30 * DAY, T0 + 20_000)).toBe(T0 + 10_000);
		expect(log.droppedInWindow).toBe(10_000);

		// Once the oldest key is past the window, dropping it loses nothing.
		const aged = new SentEventLog(1);
		aged.record('a', T0 - 30, T0, 60);
		aged.record('b', T0 + 40, T0 + 40, 60);
		expect([...aged.entries()]).toEqual([['b', T0 + 40]]);
		expect(aged.droppedInWindow).toBe(0);
	});

	it('V4: pruning forgets what is older than the longest window', () => {
		const log = new SentEventLog();
		log.record('old', T0 - 2 * HOUR, T0, DAY);
		log.record('new', T0 - 10, T0, DAY);
		log.prune(T0, HOUR);
		expect([...log.entries()]).toEqual([['new', T0 - 10]]);
	});

	it('V4: the text to save follows every change of the log (kept up to date, not rebuilt per save)', () => {
		const log = new SentEventLog(5);
		const same = () => expect(log.encoded()).toEqual(encodeEntries(log.entries()));
		same();
		for (let i = 0; i < 4; i++) log.record(`k${i}`.padEnd(10, '-'), T0 + i * 100, T0 + i * 100, DAY);
		same();
		log.record('k1'.padEnd(10, '-'), T0 + 1000, T0 + 1000, DAY); // sent again later: it moves to the end
		same();
		for (let i = 4; i < 9; i++) log.record(`k${i}`.padEnd(10, '-'), T0 + 1000 + i * 17, T0 + 1000 + i * 17, DAY); // over the cap
		same();
		log.prune(T0 + 1000 + 7 * 17 + DAY, DAY);
		same();
		log.merge([['m0'.padEnd(10, '-'), T0 + DAY]], T0 + DAY, DAY);
		same();
		log.record('k9'.padEnd(10, '-'), T0 + DAY + 1, T0 + DAY + 1, DAY);
		same();
		log.record('ka'.padEnd(10, '-'), T0 + DAY - 50, T0 + DAY + 1, DAY); // a clock set back
		log.record('kb'.padEnd(10, '-'), T0 + DAY + 2, T0 + DAY + 2, DAY);
		same();
		expect(decodeEntries(log.encoded())).toEqual([...log.entries()]);
	});

	it('V4: the saved copy is 10 characters per event sent in the same second, 11-13 otherwise, and reads back exactly', () => {
		const burst: Array<[string, number]> = Array.from({ length: 10_000 }, (_, i) => [hashOf(`SAVE-${i}`), T0 + Math.floor(i / 1000)]);
		const text = encodeEntries(burst);
		expect(text.first).toBe(T0);
		expect(text.events.length).toBeLessThanOrEqual(10 * 10_000 + 10);
		expect(decodeEntries(text)).toEqual(burst);
		expect(text.events).not.toContain('SAVE');
		// One a second, one every 8.6 s (10,000 a day), one an hour: a delta of 1, 2 and 3 characters.
		for (const [gap, perEvent] of [[1, 11], [9, 11], [3600, 13]]) {
			const spread: Array<[string, number]> = Array.from({ length: 100 }, (_, i) => [hashOf(`SP-${i}`), T0 + i * gap]);
			const encoded = encodeEntries(spread);
			expect(encoded.events.length).toBe(10 + 99 * perEvent);
			expect(decodeEntries(encoded)).toEqual(spread);
		}
		// A time before the event before (a clock set back) reads back exactly too.
		const setBack: Array<[string, number]> = [['aaaaaaaaaa', T0], ['bbbbbbbbbb', T0 - 5], ['cccccccccc', T0 + 7]];
		expect(decodeEntries(encodeEntries(setBack))).toEqual(setBack);
		expect(decodeEntries({ first: T0, events: text.events.slice(1) })).toBeUndefined();
		expect(decodeEntries({ first: T0, events: 'aaaaaaaaaa"bbbbbbbbbb' })).toBeUndefined();
		expect(decodeEntries({ events: text.events })).toBeUndefined();
		expect(decodeEntries({ first: T0, events: '' })).toEqual([]);
	});
});

describe('event keys', () => {
	it('V4: cart totals are normalised, so 49.9 and 49.90 are one cart event and 49.91 another', () => {
		expect(normaliseTotal(49.9)).toBe('49.9');
		expect(normaliseTotal(Number('49.90'))).toBe('49.9');
		expect(normaliseTotal(0.1 + 0.2)).toBe(normaliseTotal(0.3));
		expect(normaliseTotal(-0)).toBe('0');
		const cart = (total: number) => eventKey(ACCOUNT, cartEvent('c1', total));
		expect(cart(49.9).hash).toBe(cart(49.90).hash);
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
		const base = { baseUrl: 'https://api.example.com', username: 'shop@example.com', password: 'secret-1', sessionToken: 'tok' };
		const account = accountId(base);
		expect(accountId({ ...base, baseUrl: 'https://api2.example.com' })).not.toBe(account);
		expect(accountId({ ...base, baseUrl: 'https://api.example.com/v2' })).not.toBe(account);
		expect(accountId({ ...base, username: 'other@example.com' })).not.toBe(account);
		// The same account however the URL is written, and whatever its password, token or plugin key.
		for (const baseUrl of ['https://api.example.com/', ' https://API.example.com// ', 'https://api.example.com:443']) {
			expect(accountId({ ...base, baseUrl })).toBe(account);
		}
		expect(accountId({ ...base, password: 'secret-2', sessionToken: 'other', pluginApiKey: 'k' })).toBe(account);
		// Keys of one event differ between accounts; what is stored names neither the account nor a secret.
		const other = accountId({ ...base, username: 'other@example.com' });
		expect(eventKey(account, orderEvent('ORD-1', 'paid')).hash).not.toBe(eventKey(other, orderEvent('ORD-1', 'paid')).hash);
		expect(eventKey(account, orderEvent('ORD-1', 'paid')).label).toBe(eventKey(other, orderEvent('ORD-1', 'paid')).label);
		expect(account).toMatch(/^[A-Za-z0-9_-]{16}$/);
		expect(account).not.toMatch(/shop|example|secret/);
	});
});

describe('shared store values (pure)', () => {
	it('V4: an event recorded at its send is found, by its record or by the probe, for at least the window and less than twice it', () => {
		const windowSeconds = 2 * HOUR;
		const event = { hash: hashOf('SV-1'), windowSeconds };
		for (let offset = 0; offset < 2 * windowSeconds; offset += 997) {
			const sentAt = T0 + offset;
			const { record } = sharedValues(event, sentAt);
			const foundAt = (now: number) => Object.values(sharedValues(event, now)).includes(record);
			for (let later = 0; later < windowSeconds; later += 61) expect(foundAt(sentAt + later)).toBe(true);
			expect(foundAt(sentAt + 2 * windowSeconds)).toBe(false);
		}
		// Another window is another record: items with different windows never read each other's periods wrongly.
		expect(sharedValues({ ...event, windowSeconds: HOUR }, T0).record).not.toBe(sharedValues(event, T0).record);
	});
});

describe('deduplication memory of the process (helpers/processState.ts)', () => {
	afterEach(() => forgetProcessMemory());

	const fill = (memory: NodeMemory, events: number) => {
		for (let i = 0; i < events; i++) memory.log.record(`h${i}`, T0, T0, DAY);
	};

	// The documented figures, as literals (docs/deduplication.md): 10,000 events per node, 100,000 over all nodes.
	it('V4: past 100,000 events over all nodes, the least recently used memories go whole, never one with a send in flight', () => {
		const perNode = 10_000;
		const nodes = 100_000 / perNode;
		const busy = nodeMemory('wf:busy');
		fill(busy, perNode);
		busy.inFlight.set('h0', Promise.resolve(true));
		const idle = nodeMemory('wf:idle');
		fill(idle, perNode);
		for (let n = 2; n < nodes; n++) fill(nodeMemory(`wf:${n}`), perNode);
		// Exactly at the bound: everything kept.
		expect(deduplicationMemories.get('wf:busy')).toBe(busy);
		expect(deduplicationMemories.get('wf:idle')).toBe(idle);

		fill(nodeMemory('wf:new'), 1);
		nodeMemory('wf:new');
		// Over it: the oldest idle memory went; the busy one (now oldest) stayed.
		expect(deduplicationMemories.get('wf:idle')).toBeUndefined();
		expect(deduplicationMemories.get('wf:busy')).toBe(busy);
		let total = 0;
		for (const [, memory] of deduplicationMemories) total += memory.log.size;
		expect(total).toBeLessThanOrEqual(100_000);
	});
});
