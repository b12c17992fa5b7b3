import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { timeOf } from '../../../transport/answers';
import { formatCount } from '../../../transport/format';
import { listRecords } from '../../../transport/pagination';
import type { ListRouteName } from '../../../transport/routes';
import type { PollEvent } from './index';

/**
 * The state of New Order, New or Changed Product and Template Review Finished: where the window of records still
 * read starts (ISO 8601; null: every record is new) and the records read from there on, as [id, epoch ms]. A record is
 * new when its stamp is at or after `from` and its (id, stamp) pair is not in `seen`: keyed by id AND stamp, a product
 * changed again is new, while an order, whose created_at never changes, is read once.
 */
export interface WindowState {
	from: string | null;
	seen: Array<[string, number]>;
}

export const EMPTY_WINDOW: WindowState = { from: null, seen: [] };

/** Most pairs a window keeps (docs/trigger.md); beyond them it starts at the oldest pair kept. */
export const MAX_LOOK_BACK_IDS = 5_000;

/** A record placed on the service's timeline. */
export interface Stamped {
	record: IDataObject;
	id: string;
	ms: number;
}

/** The record on the timeline, or undefined when it has no id (a number or a text) or no usable time. */
export function stamp(record: IDataObject, id: unknown, time: unknown) {
	const ms = timeOf(time);
	const hasId = (typeof id === 'string' && id !== '') || Number.isFinite(id);
	return hasId && ms !== undefined ? { record, id: String(id), ms } : undefined;
}

/** Oldest first, sorted in place; records sharing a stamp by id in natural order ("ORD-9" before "ORD-10"). */
export const oldestFirst = (items: Stamped[]) =>
	items.sort((a, b) => a.ms - b.ms || a.id.localeCompare(b.id, 'en', { numeric: true }));

/** A stored instant read back: null, or an ISO 8601 string holding a usable time. */
export const isStoredTime = (value: unknown) =>
	value === null || (typeof value === 'string' && timeOf(value) !== undefined);

/** A stored state read back; anything else (another event's, hand-edited) is undefined, so the event starts anew. */
export function readWindow(stored: unknown) {
	const { from, seen } = (stored ?? {}) as IDataObject;
	return isStoredTime(from) &&
		Array.isArray(seen) &&
		seen.every(
			(pair) => Array.isArray(pair) && typeof pair[0] === 'string' && Number.isFinite(pair[1]),
		)
		? ({ from, seen } as WindowState)
		: undefined;
}

/**
 * The newest stamp that n8n's clock at the poll's start (`now`) vouches for too. A later stamp (a clock glitch, a
 * pre-order, a local time written without its offset) is the service's word alone: taken for the present, one such
 * record would put every record stamped correctly after it below the window for good.
 */
export const newestVouched = (stamps: number[], now: number) =>
	stamps.reduce((newest, ms) => (ms <= now && ms > newest ? ms : newest), -Infinity);

/**
 * One poll over the records read (all those at or after `from`, at least): the new ones, oldest first, and the state
 * after them. The window then starts `lookBackMs` before the newest vouched stamp, never earlier than it did (pairs
 * before the old start were not kept). A record stamped later than `now` is emitted once and stays in `seen` until
 * the window passes its stamp. Beyond `maxSeen` pairs the window starts at the oldest pair kept: `narrowed`.
 */
export function advance(
	state: WindowState,
	read: Stamped[],
	now: number,
	lookBackMs: number,
	maxSeen = MAX_LOOK_BACK_IDS,
) {
	const fromMs = timeOf(state.from) ?? -Infinity;
	const key = (id: string, ms: number) => `${ms} ${id}`;
	const known = new Set(state.seen.map(([id, ms]) => key(id, ms)));
	// The new ones, keyed, so a record listed twice (a list that shifted while it was read) is taken once.
	const records = oldestFirst([
		...new Map(
			read
				.filter((item) => item.ms >= fromMs && !known.has(key(item.id, item.ms)))
				.map((item) => [key(item.id, item.ms), item]),
		).values(),
	]);
	const pairs = [...state.seen, ...records.map(({ id, ms }): [string, number] => [id, ms])];
	const stamps = pairs.map(([, ms]) => ms);
	let nextFrom = Math.max(fromMs, newestVouched(stamps, now) - lookBackMs);
	const kept = stamps.filter((ms) => ms >= nextFrom).sort((a, b) => a - b);
	const narrowed = kept.length > maxSeen;
	if (narrowed) nextFrom = kept[kept.length - maxSeen];
	return {
		records: records.map((item) => item.record),
		state: {
			// A start before any date (a Look-Back of millennia) is no start at all.
			from: timeOf(nextFrom) === undefined ? null : new Date(nextFrom).toISOString(),
			seen: pairs.filter(([, ms]) => ms >= nextFrom),
		},
		narrowed,
	};
}

/** An event read through the window: New Order, New or Changed Product, Template Review Finished. */
export function windowEvent(
	spec: Pick<PollEvent, 'name' | 'description' | 'properties' | 'readFilters'> & {
		/** The records from `from` on at least; `from` is undefined at activation, where only the newest ones matter. */
		read(ctx: IPollFunctions, from: number | undefined, now: number): Promise<Stamped[]>;
		/** How far behind the newest stamp the window starts; none when a record is listed as soon as it is stamped. */
		lookBackMs?(ctx: IPollFunctions): number;
		/** Whether the filters keep a record; a record they drop is remembered all the same, so it is not new later. */
		matches(record: IDataObject, filters: IDataObject): boolean;
		output?(record: IDataObject): IDataObject;
		latest?: PollEvent['latest'];
	},
): PollEvent<WindowState> {
	const output = spec.output ?? ((record) => record);
	return {
		...spec,
		readState: readWindow,
		// No look-back at activation: a record stamped before it is not new, even when it is listed late.
		start: async (ctx, now) =>
			advance(EMPTY_WINDOW, await spec.read(ctx, undefined, now), now, 0).state,
		async next(ctx, state, filters, now) {
			const lookBackMs = spec.lookBackMs?.(ctx) ?? 0;
			const poll = advance(
				state,
				await spec.read(ctx, timeOf(state.from) ?? -Infinity, now),
				now,
				lookBackMs,
			);
			if (poll.narrowed) {
				ctx.logger.warn(
					`${spec.name}: more than ${formatCount(MAX_LOOK_BACK_IDS)} records to remember; the window now starts at ${poll.state.from}, so a record listed later with an older time is not emitted`,
					{ node: ctx.getNode().name, workflowId: ctx.getWorkflow().id },
				);
			}
			return {
				records: poll.records.filter((record) => spec.matches(record, filters)).map(output),
				state: poll.state,
			};
		},
		latest:
			spec.latest ??
			(async (ctx, filters) => {
				// Every record, from the beginning.
				const newest = oldestFirst(await spec.read(ctx, -Infinity, Date.now()))
					.filter((item) => spec.matches(item.record, filters))
					.pop();
				return newest && output(newest.record);
			}),
	};
}

/**
 * The records of a whole list (it has no filter and no order), placed by their id and the time `timeOfRecord` reads;
 * a record without one is no event.
 */
export const readList =
	(route: ListRouteName, timeOfRecord: (record: IDataObject) => unknown) =>
	async (ctx: IPollFunctions) =>
		(await listRecords(ctx, route))
			.map((record) => stamp(record, record.id, timeOfRecord(record)))
			.filter((item) => item !== undefined);
