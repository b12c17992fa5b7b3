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
