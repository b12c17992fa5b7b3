import {
	advance,
	EMPTY_WINDOW,
	MAX_LOOK_BACK_IDS,
	newestVouched,
	oldestFirst,
	readWindow,
	stamp,
	type Stamped,
	type WindowState,
} from '../../nodes/CommerceMessaging/trigger/watermark';
import { timeOf } from '../../transport/answers';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.parse('2025-03-01T10:00:00.000Z');
/** A record `id` stamped `minutes` after T0. */
const item = (id: string, minutes: number): Stamped =>
	stamp({ id }, id, T0 + minutes * MIN) as Stamped;
const ids = (records: Array<{ id?: unknown }>) => records.map((record) => record.id);
const iso = (minutes: number) => new Date(T0 + minutes * MIN).toISOString();
/** n8n's clock an hour after T0: every stamp of these tests up to +60 is in its past. */
const NOW = T0 + HOUR;

describe("The trigger's window (pure logic of New Order, New or Changed Product, Template Review Finished)", () => {
	it("V1/V5/T3: a record is new when its stamp is at or after the window's start and its (id, stamp) pair was not read", () => {
		const state: WindowState = { from: iso(0), seen: [['a', T0]] };
		const poll = advance(
			state,
			[item('a', 0), item('b', 0), item('a', 1), item('before', -1)],
			NOW,
			0,
		);
		// "a" stamped again is a product changed again; "a" at its old stamp was read; "before" is before the window.
		expect(poll.records).toEqual([{ id: 'b' }, { id: 'a' }]);
		expect(poll.state).toEqual({ from: iso(1), seen: [['a', T0 + MIN]] });
		expect(advance(poll.state, [item('a', 1)], NOW, 0).records).toEqual([]);
	});

	it('V1/V5/T3: the same instant written in another ISO form is the same instant', () => {
		const state: WindowState = { from: iso(0), seen: [['a', T0]] };
		expect(
			advance(state, [stamp({}, 'a', '2025-03-01T11:00:00+01:00') as Stamped], NOW, 0).records,
		).toEqual([]);
	});

	it('V1/V5/T3: records sharing an instant, before and after a poll, are neither lost nor repeated', () => {
		const first = advance(EMPTY_WINDOW, [item('b', 5), item('a', 5)], NOW, 0);
		expect(ids(first.records)).toEqual(['a', 'b']);
		const second = advance(first.state, [item('a', 5), item('b', 5), item('c', 5)], NOW, 0);
		expect(ids(second.records)).toEqual(['c']);
		expect(second.state.seen).toEqual([
			['a', T0 + 5 * MIN],
			['b', T0 + 5 * MIN],
			['c', T0 + 5 * MIN],
		]);
	});

	it('V1/V5/T3: oldest first; records sharing an instant by id in natural order; a record read twice is taken once', () => {
		expect(
			ids(oldestFirst([item('ORD-10', 1), item('ORD-9', 1), item('x', 0)]).map((i) => i.record)),
		).toEqual(['x', 'ORD-9', 'ORD-10']);
		expect(advance(EMPTY_WINDOW, [item('a', 1), item('a', 1)], NOW, 0).records).toHaveLength(1);
	});

	it('V1: the window starts the look-back before the newest stamp, never earlier than it did, forgetting what is before it', () => {
		const state: WindowState = { from: iso(0), seen: [['a', T0]] };
		const poll = advance(state, [item('b', 30), item('c', 31)], NOW, 10 * MIN);
		expect(poll.state).toEqual({
			from: iso(21),
			seen: [
				['b', T0 + 30 * MIN],
				['c', T0 + 31 * MIN],
			],
		});
		// A record listed late inside the window is new once; one before it is not.
		const late = advance(
			poll.state,
			[item('late', 25), item('b', 30), item('tooLate', 20)],
			NOW,
			10 * MIN,
		);
		expect(ids(late.records)).toEqual(['late']);
		expect(advance(late.state, [item('late', 25)], NOW, 10 * MIN).records).toEqual([]);
		// Pairs before the old start were not kept, so a longer look-back cannot reach back past it.
		expect(advance(poll.state, [], NOW, 60 * MIN).state.from).toBe(iso(21));
		// A look-back that reaches before any date (1e12 minutes) leaves the window open, every record kept.
		const open = advance(EMPTY_WINDOW, [item('a', 1), item('b', 2)], NOW, 1e12 * MIN);
		expect(open.state).toEqual({
			from: null,
			seen: [
				['a', T0 + MIN],
				['b', T0 + 2 * MIN],
			],
		});
		expect(ids(open.records)).toEqual(['a', 'b']);
	});

	it('V1: at activation (no look-back) the window starts at the newest stamp: nothing before it is new', () => {
		const start = advance(EMPTY_WINDOW, [item('old', 1), item('newest', 2)], NOW, 0).state;
		expect(start).toEqual({ from: iso(2), seen: [['newest', T0 + 2 * MIN]] });
		expect(
			ids(
				advance(start, [item('old', 1), item('newest', 2), item('next', 3)], NOW, 10 * MIN).records,
			),
		).toEqual(['next']);
	});

	it("V1/V5/T3: a record stamped later than n8n's clock is emitted once and moves the window no further than the present", () => {
		const ahead = item('ahead', 60 + 24 * 60);
		let poll = advance({ from: iso(0), seen: [] }, [ahead, item('a', 10)], NOW, 0);
		expect(ids(poll.records)).toEqual(['a', 'ahead']);
		expect(poll.state.from).toBe(iso(10));
		// Correct records after it are new, once; the record ahead stays remembered, so it is not new again.
		for (const [id, minutes] of [
			['b', 20],
			['c', 30],
		] as const) {
			poll = advance(poll.state, [ahead, item(id, minutes)], NOW, 0);
			expect(ids(poll.records)).toEqual([id]);
			expect(poll.state.seen.map(([seenId]) => seenId)).toContain('ahead');
		}
		// Once n8n's clock passed it, the window passes it too, and it is forgotten without being new again.
		const dayLater = NOW + 25 * HOUR;
		poll = advance(poll.state, [ahead, item('d', 60 + 25 * 60)], dayLater, 0);
		expect(ids(poll.records)).toEqual(['d']);
		expect(poll.state).toEqual({
			from: iso(60 + 25 * 60),
			seen: [['d', T0 + (60 + 25 * 60) * MIN]],
		});
		expect(advance(poll.state, [ahead], dayLater, 0).records).toEqual([]);
	});

	it("V1: with a record ahead at activation, the window starts at the newest stamp n8n's clock vouches for", () => {
		const start = advance(EMPTY_WINDOW, [item('ahead', 24 * 60), item('old', 5)], NOW, 0).state;
		expect(start).toEqual({
			from: iso(5),
			seen: [
				['old', T0 + 5 * MIN],
				['ahead', T0 + 24 * 60 * MIN],
			],
		});
		expect(
			ids(
				advance(start, [item('ahead', 24 * 60), item('old', 5), item('next', 6)], NOW, 0).records,
			),
		).toEqual(['next']);
		// Only records ahead: no start can be vouched for, so every other record is new.
		expect(advance(EMPTY_WINDOW, [item('ahead', 24 * 60)], NOW, 0).state).toEqual({
			from: null,
			seen: [['ahead', T0 + 24 * 60 * MIN]],
		});
	});

	it("V1/V5/T3: a service clock a few seconds ahead: each record once, remembered until n8n's clock passes it", () => {
		const skew = 5_000;
		let state: WindowState = { from: new Date(NOW).toISOString(), seen: [] };
		const emitted: unknown[] = [];
		const read: Stamped[] = [];
		for (let poll = 1; poll <= 10; poll++) {
			const now = NOW + poll * 2_000;
			read.push(stamp({ id: `r${poll}` }, `r${poll}`, now + skew) as Stamped);
			const result = advance(state, read, now, 0);
			emitted.push(...ids(result.records));
			state = result.state;
			// The records not yet behind n8n's clock, and the newest one behind it.
			expect(state.seen.length).toBeLessThanOrEqual(4);
		}
		expect(emitted).toEqual(Array.from({ length: 10 }, (_, i) => `r${i + 1}`));
	});

	it('V1: a service clock hours ahead costs one remembered pair per record of those hours, up to the cap', () => {
		let state: WindowState = { from: new Date(NOW).toISOString(), seen: [] };
		// 3 hours ahead, one order a second for an hour: every one of them is still ahead of n8n's clock.
		const read = Array.from(
			{ length: 3_600 },
			(_, i) => stamp({ id: `o${i}` }, `o${i}`, NOW + 3 * HOUR + i * 1_000) as Stamped,
		);
		for (let minute = 0; minute < 60; minute++) {
			const poll = advance(
				state,
				read.slice(minute * 60, minute * 60 + 60),
				NOW + minute * MIN,
				10 * MIN,
			);
			expect(poll.records).toHaveLength(60);
			state = poll.state;
		}
		expect(state.from).toBe(new Date(NOW).toISOString());
		expect(state.seen).toHaveLength(3_600);
		expect(JSON.stringify(state).length).toBeLessThan(3_600 * 25);
	});

	it('V1: the state stays bounded: beyond its cap the window starts at the oldest pair kept, and says so', () => {
		const read = Array.from({ length: 30 }, (_, i) => item(`r${i}`, i / 10));
		const poll = advance({ from: iso(0), seen: [] }, read, NOW, 10 * MIN, 20);
		expect(poll.records).toHaveLength(30);
		expect(poll.narrowed).toBe(true);
		expect(poll.state.seen).toHaveLength(20);
		expect(poll.state.from).toBe(iso(1));
		// Records before the new start are no longer new, rather than new again.
		expect(advance(poll.state, read, NOW, 10 * MIN, 20).records).toEqual([]);
	});

	it('V1: the documented cap keeps 5,000 pairs (docs/trigger.md)', () => {
		expect(MAX_LOOK_BACK_IDS).toBe(5_000);
		const read = (count: number) =>
			Array.from({ length: count }, (_, i) => item(`c${i}`, i / 1000));
		expect(advance({ from: iso(0), seen: [] }, read(5_000), NOW, 10 * MIN).narrowed).toBe(false);
		const over = advance({ from: iso(0), seen: [] }, read(5_001), NOW, 10 * MIN);
		expect(over.narrowed).toBe(true);
		expect(over.state.seen).toHaveLength(5_000);
	});

	it("V1/V5/T3: the newest stamp n8n's clock vouches for is the newest one not later than it", () => {
		expect(newestVouched([T0, NOW, NOW + 1], NOW)).toBe(NOW);
		expect(newestVouched([NOW + 1], NOW)).toBe(-Infinity);
	});

	it('V1/V5/T3: records without an id or a usable time are not placed on the timeline', () => {
		expect(stamp({}, undefined, T0)).toBeUndefined();
		expect(stamp({}, '', T0)).toBeUndefined();
		expect(stamp({}, 'a', 'not a date')).toBeUndefined();
		expect(stamp({}, 7, iso(0))?.id).toBe('7');
		expect(timeOf(0)).toBe(0);
		expect(timeOf(null)).toBeUndefined();
		// Past the range of a date (epoch nanoseconds, say): no time, rather than a poll failing on "Invalid time value".
		expect(timeOf(1e20)).toBeUndefined();
		expect(timeOf(Infinity)).toBeUndefined();
		expect(stamp({}, 'a', 1_700_000_000_000_000_000)).toBeUndefined();
	});

	it('V1/V5/T3: a stored state of another form or another event is none, so the trigger starts anew', () => {
		const kept = { from: iso(0), seen: [['a', T0]] };
		expect(readWindow(kept)).toEqual(kept);
		expect(readWindow({ from: null, seen: [] })).toEqual({ from: null, seen: [] });
		expect(readWindow({ mark: { at: iso(0), ids: ['a'] } })).toBeUndefined();
		expect(readWindow({ lastId: 7, createdAt: null })).toBeUndefined();
		expect(readWindow({ from: 'yesterday', seen: [] })).toBeUndefined();
		expect(readWindow({ from: iso(0), seen: [['a', 1, 2], 'b'] })).toEqual(undefined);
		expect(readWindow({ from: iso(0), seen: [['a', '1']] })).toBeUndefined();
		expect(readWindow(undefined)).toBeUndefined();
	});
});
