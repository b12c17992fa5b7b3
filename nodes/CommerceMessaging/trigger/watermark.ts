import type { IDataObject } from 'n8n-workflow';

/**
 * Where a timestamped event stream was read up to: the newest record timestamp seen (the service's own clock,
 * never ours) and the ids of the records AT that timestamp. A record is new when it is later than `at`, or exactly
 * at `at` with an id not in `ids`: records sharing a timestamp are neither lost nor repeated, and the state stays
 * as small as the number of records sharing one timestamp, whatever the size of the account.
 */
export interface Watermark {
	/** ISO 8601, millisecond precision. */
	at: string;
	ids: string[];
}

/** A record placed on the service's timeline. `position` keeps the list order for records sharing a timestamp. */
export interface Stamped {
	record: IDataObject;
	id: string;
	ms: number;
	position: number;
}

/** Epoch milliseconds of an ISO 8601 string or epoch number; undefined when the value is no usable time. */
export function timeOf(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : ms;
}

/** A record id as a string (ids may be numbers or strings); undefined when the record has none. */
export function idOf(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value !== '') return value;
	return undefined;
}

export function stamp(record: IDataObject, id: unknown, time: unknown, position: number): Stamped | undefined {
	const recordId = idOf(id);
	const ms = timeOf(time);
	if (recordId === undefined || ms === undefined) return undefined;
	return { record, id: recordId, ms, position };
}

/** Records listed twice (a list that shifted while it was paged) are kept once, at their first place. */
export function uniqueById(items: Stamped[]): Stamped[] {
	const seen = new Set<string>();
	return items.filter((item) => !seen.has(item.id) && seen.add(item.id));
}

export function isAfter(mark: Watermark, item: Pick<Stamped, 'id' | 'ms'>): boolean {
	const markMs = Date.parse(mark.at);
	return item.ms > markMs || (item.ms === markMs && !mark.ids.includes(item.id));
}

/**
 * The watermark after `seen` (records read by a poll that fully succeeded). Only the newest timestamp's ids are
 * kept; when that timestamp is the old one, its old ids are kept too.
 */
export function advance(mark: Watermark | undefined, seen: Array<Pick<Stamped, 'id' | 'ms'>>): Watermark | undefined {
	let newest = mark ? Date.parse(mark.at) : -Infinity;
	for (const item of seen) if (item.ms > newest) newest = item.ms;
	if (newest === -Infinity) return undefined;
	const ids = new Set<string>(mark && Date.parse(mark.at) === newest ? mark.ids : []);
	for (const item of seen) if (item.ms === newest) ids.add(item.id);
	return { at: new Date(newest).toISOString(), ids: [...ids].sort() };
}

type Order = (a: Stamped, b: Stamped) => number;

const byPosition: Order = (a, b) => a.position - b.position;

/** Ids in natural order ("ORD-9" before "ORD-10"), for lists whose order among equal timestamps means nothing. */
export const byNaturalId: Order = (a, b) => a.id.localeCompare(b.id, 'en', { numeric: true });

/** Oldest first; records sharing a timestamp in `tieBreak` order (by default their list order). */
export function oldestFirst(items: Stamped[], tieBreak: Order = byPosition): Stamped[] {
	return [...items].sort((a, b) => a.ms - b.ms || tieBreak(a, b));
}

/** The newest record (the last of its timestamp in position order), or undefined for none. */
export function newest(items: Stamped[]): Stamped | undefined {
	const sorted = oldestFirst(items);
	return sorted[sorted.length - 1];
}

/** Reads a stored watermark back; anything malformed (hand-edited, older format) is undefined. */
export function readWatermark(value: unknown): Watermark | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const { at, ids } = value as IDataObject;
	if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return undefined;
	if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return undefined;
	return { at, ids: ids as string[] };
}

/** The state of a watermarked event. null: nothing existed when the trigger started, so every record is new. */
export interface WatermarkState {
	mark: Watermark | null;
}

export function readWatermarkState(stored: unknown): WatermarkState | undefined {
	const mark = (stored as IDataObject | undefined)?.mark;
	if (mark === null) return { mark: null };
	const watermark = readWatermark(mark);
	return watermark ? { mark: watermark } : undefined;
}

/**
 * One poll of a watermarked event: the records after the mark, oldest first, that the filter keeps, and the mark
 * moved past everything seen (filtered-out records included, so they are not read as new again).
 */
export function pastWatermark(
	state: WatermarkState,
	seen: Stamped[],
	keep: (record: IDataObject) => boolean,
	tieBreak?: Order,
): { records: IDataObject[]; state: WatermarkState } {
	const { mark } = state;
	const fresh = mark ? seen.filter((item) => isAfter(mark, item)) : seen;
	return {
		records: oldestFirst(fresh, tieBreak)
			.map((item) => item.record)
			.filter(keep),
		state: { mark: advance(mark ?? undefined, fresh) ?? null },
	};
}

/** The second a time falls in: a lower bound for a service filter that may compare at second precision. */
export function floorToSecond(ms: number): number {
	return Math.floor(ms / 1000) * 1000;
}

/** Most ids a look-back state keeps; beyond them the window shrinks to the newest records. */
export const MAX_LOOK_BACK_IDS = 5_000;

/**
 * A watermark that also reads a short window behind itself again, for a list where a record can show up a little
 * after a poll with a timestamp older than records already seen. `from` is where that window starts (null: no
 * start, every record is new); `seen` holds [id, epoch ms] of the records from `from` on that were already read
 * (emitted or filtered out). A record is new when it is at or after `from` and its id is not in `seen`.
 */
export interface LookBackState extends WatermarkState {
	from: string | null;
	seen: Array<[string, number]>;
}

/** A look-back state starting at a mark: nothing before it is new, and the ids at its instant were seen. */
export function startLookBack(mark: Watermark | undefined): LookBackState {
	if (!mark) return { mark: null, from: null, seen: [] };
	const ms = Date.parse(mark.at);
	return { mark, from: mark.at, seen: mark.ids.map((id) => [id, ms]) };
}

function readSeen(value: unknown): Array<[string, number]> | undefined {
	if (!Array.isArray(value)) return undefined;
	const valid = value.every(
		(entry) => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number' && Number.isFinite(entry[1]),
	);
	return valid ? (value as Array<[string, number]>) : undefined;
}

/**
 * Reads a stored look-back state. A plain `{at, ids}` watermark (as a workflow activated with an older version of
 * the package saved it) or a damaged window starts the window at the mark: nothing emitted before is emitted again.
 */
export function readLookBackState(stored: unknown): LookBackState | undefined {
	const base = readWatermarkState(stored);
	if (!base) return undefined;
	const { from, seen } = stored as IDataObject;
	const seenIds = readSeen(seen);
	const fromValid = (from === null && base.mark === null) || (typeof from === 'string' && !Number.isNaN(Date.parse(from)));
	if (!seenIds || !fromValid) return startLookBack(base.mark ?? undefined);
	return { mark: base.mark, from: from as string | null, seen: seenIds };
}

/**
 * One poll of a look-back event: the records not read before, oldest first, that the filter keeps, and the state
 * after them. The window then starts `lookBackMs` before the newest record, never earlier than it did (ids before
 * the old start were not kept), and later when more than `maxIds` records fall in it; `narrowed` says so.
 */
export function pastLookBack(
	state: LookBackState,
	read: Stamped[],
	keep: (record: IDataObject) => boolean,
	lookBackMs: number,
	tieBreak?: Order,
	maxIds = MAX_LOOK_BACK_IDS,
): { records: IDataObject[]; state: LookBackState; narrowed: boolean } {
	const fromMs = state.from === null ? -Infinity : Date.parse(state.from);
	const known = new Set(state.seen.map(([id]) => id));
	const fresh = uniqueById(read).filter((item) => item.ms >= fromMs && !known.has(item.id));
	const mark = advance(state.mark ?? undefined, fresh) ?? null;
	let nextFrom = mark ? Math.max(fromMs, Date.parse(mark.at) - lookBackMs) : fromMs;
	let seen: Array<[string, number]> = [...state.seen, ...fresh.map((item): [string, number] => [item.id, item.ms])];
	seen = seen.filter(([, ms]) => ms >= nextFrom);
	let narrowed = false;
	if (seen.length > maxIds) {
		seen.sort((a, b) => a[1] - b[1]);
		// Everything before the cut is forgotten, so the window starts at the oldest record kept.
		nextFrom = seen[seen.length - maxIds][1];
		seen = seen.filter(([, ms]) => ms >= nextFrom);
		narrowed = true;
	}
	return {
		records: oldestFirst(fresh, tieBreak)
			.map((item) => item.record)
			.filter(keep),
		state: { mark, from: Number.isFinite(nextFrom) ? new Date(nextFrom).toISOString() : null, seen },
		narrowed,
	};
}
