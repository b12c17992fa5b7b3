import {
	advance,
	byNaturalId,
	isAfter,
	newest,
	oldestFirst,
	pastLookBack,
	readLookBackState,
	readWatermark,
	readWatermarkState,
	stamp,
	startLookBack,
	timeOf,
	type Stamped,
	uniqueById,
} from '../../nodes/CommerceMessaging/trigger/watermark';

const T0 = '2025-03-01T10:00:00.000Z';
const T1 = '2025-03-01T10:00:00.001Z';
const item = (id: string, at: string, position = 0): Stamped =>
	stamp({ id, at }, id, at, position) as Stamped;

describe('Trigger watermark (pure logic)', () => {
	it('V1/V5/T3: a record is new when it is later than the watermark, or at its instant with an id not seen there', () => {
		const mark = { at: T0, ids: ['a'] };
		expect(isAfter(mark, item('a', T0))).toBe(false);
		expect(isAfter(mark, item('b', T0))).toBe(true);
		expect(isAfter(mark, item('a', T1))).toBe(true);
		expect(isAfter(mark, item('z', '2025-03-01T09:59:59.999Z'))).toBe(false);
	});

	it('V1/V5/T3: the same instant written in another ISO form is the same instant', () => {
		const mark = { at: T0, ids: ['a'] };
		expect(isAfter(mark, item('a', '2025-03-01T11:00:00+01:00'))).toBe(false);
	});

	it('V1/V5/T3: advancing keeps only the ids at the newest instant, merged with the old ones when the instant did not move', () => {
		expect(advance(undefined, [item('a', T0), item('b', T1), item('c', T1)])).toEqual({ at: T1, ids: ['b', 'c'] });
		expect(advance({ at: T1, ids: ['b'] }, [item('d', T1)])).toEqual({ at: T1, ids: ['b', 'd'] });
		expect(advance({ at: T0, ids: ['a'] }, [])).toEqual({ at: T0, ids: ['a'] });
		expect(advance(undefined, [])).toBeUndefined();
	});

	it('V1/V5/T3: the state stays as small as one instant\'s ids, however many records were seen', () => {
		let mark = advance(undefined, [item('first', T0)]);
		for (let i = 0; i < 10_000; i++) {
			const at = new Date(Date.parse(T0) + i).toISOString();
			mark = advance(mark, [item(`r${i}`, at)]);
		}
		expect(mark?.ids).toEqual(['r9999']);
		expect(JSON.stringify(mark).length).toBeLessThan(80);
	});

	it('V1/V5/T3: oldest first: by time, then list position, or natural id order when asked', () => {
		const items = [item('ORD-10', T1, 0), item('ORD-9', T1, 1), item('x', T0, 2)];
		expect(oldestFirst(items).map((i) => i.id)).toEqual(['x', 'ORD-10', 'ORD-9']);
		expect(oldestFirst(items, byNaturalId).map((i) => i.id)).toEqual(['x', 'ORD-9', 'ORD-10']);
		expect(newest(items)?.id).toBe('ORD-9');
	});

	it('V5/T3: a record listed twice (a list that shifted while it was paged) is kept once, at its first place', () => {
		const items = [item('a', T0, 0), item('b', T0, 1), item('a', T1, 2)];
		expect(uniqueById(items).map((i) => `${i.id}@${i.position}`)).toEqual(['a@0', 'b@1']);
	});

	it('V1/V5/T3: records without an id or a usable time are not placed on the timeline', () => {
		expect(stamp({}, undefined, T0, 0)).toBeUndefined();
		expect(stamp({}, 'a', 'not a date', 0)).toBeUndefined();
		expect(stamp({}, 7, T0, 0)?.id).toBe('7');
		expect(timeOf(0)).toBe(0);
	});

	it('V1/V5/T3: a malformed stored state is read as none, so the trigger starts anew instead of emitting everything', () => {
		expect(readWatermark({ at: 'yesterday', ids: [] })).toBeUndefined();
		expect(readWatermark({ at: T0, ids: [1] })).toBeUndefined();
		expect(readWatermarkState({ mark: null })).toEqual({ mark: null });
		expect(readWatermarkState({})).toBeUndefined();
		expect(readWatermarkState(undefined)).toBeUndefined();
	});
});

describe('Trigger look-back watermark (pure logic, New Order)', () => {
	const MIN = 60_000;
	const at = (minutes: number) => new Date(Date.parse(T0) + minutes * MIN).toISOString();
	const all = () => true;
	const ids = (records: Array<{ id?: unknown }>) => records.map((r) => r.id);

	it('V1: a record listed late with a timestamp inside the window is new once; one before the window is not', () => {
		let state = startLookBack({ at: at(0), ids: ['a'] });
		let poll = pastLookBack(state, [item('a', at(0)), item('b', at(5))], all, 10 * MIN);
		expect(ids(poll.records)).toEqual(['b']);
		state = poll.state;
		poll = pastLookBack(state, [item('late', at(3)), item('b', at(5)), item('tooLate', at(-1))], all, 10 * MIN);
		expect(ids(poll.records)).toEqual(['late']);
		expect(pastLookBack(poll.state, [item('late', at(3)), item('b', at(5))], all, 10 * MIN).records).toEqual([]);
	});

	it('V1: the window follows the newest record and forgets ids before it, but never starts earlier than before', () => {
		const state = startLookBack({ at: at(0), ids: ['a'] });
		expect(state).toEqual({ mark: { at: at(0), ids: ['a'] }, from: at(0), seen: [['a', Date.parse(at(0))]] });
		const poll = pastLookBack(state, [item('b', at(30)), item('c', at(31))], all, 10 * MIN);
		expect(poll.state.from).toBe(at(21));
		expect(poll.state.seen.map(([id]) => id)).toEqual(['b', 'c']);
		// Ids before the old start were never kept, so a longer window cannot reach back past it.
		const wider = pastLookBack(poll.state, [], all, 60 * MIN);
		expect(wider.state.from).toBe(at(21));
	});

	it('V1: the state stays bounded: beyond its cap the window starts at the oldest id kept, and says so', () => {
		let state = startLookBack({ at: at(0), ids: [] });
		const read = Array.from({ length: 30 }, (_, i) => item(`r${i}`, at(i / 10)));
		const poll = pastLookBack(state, read, all, 10 * MIN, undefined, 20);
		expect(poll.records).toHaveLength(30);
		expect(poll.narrowed).toBe(true);
		expect(poll.state.seen).toHaveLength(20);
		expect(poll.state.from).toBe(at(1));
		state = poll.state;
		// Records before the new start are no longer new, rather than new again.
		expect(pastLookBack(state, read, all, 10 * MIN, undefined, 20).records).toEqual([]);
	});

	it('V1: the documented cap keeps 5,000 ids of the look-back window (docs/trigger.md)', () => {
		const state = startLookBack({ at: at(0), ids: [] });
		const read = (count: number) => Array.from({ length: count }, (_, i) => item(`c${i}`, at(i / 1000)));
		expect(pastLookBack(state, read(5_000), all, 10 * MIN).narrowed).toBe(false);
		const over = pastLookBack(state, read(5_001), all, 10 * MIN);
		expect(over.narrowed).toBe(true);
		expect(over.state.seen).toHaveLength(5_000);
	});

	it('V1: a state stored before the look-back, or with a damaged window, starts the window at its mark', () => {
		const mark = { at: at(0), ids: ['a', 'b'] };
		expect(readLookBackState({ mark })).toEqual(startLookBack(mark));
		expect(readLookBackState({ mark, from: at(-5), seen: [['a', 1, 2], 'b'] })).toEqual(startLookBack(mark));
		expect(readLookBackState({ mark, from: 'yesterday', seen: [] })).toEqual(startLookBack(mark));
		expect(readLookBackState({ mark: null })).toEqual({ mark: null, from: null, seen: [] });
		const kept = { mark, from: at(-5), seen: [['x', Date.parse(at(-2))]] };
		expect(readLookBackState(kept)).toEqual(kept);
		expect(readLookBackState({ from: at(0), seen: [] })).toBeUndefined();
	});
});
