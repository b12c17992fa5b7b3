import {
	advance,
	byNaturalId,
	isAfter,
	newest,
	oldestFirst,
	readWatermark,
	readWatermarkState,
	stamp,
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
