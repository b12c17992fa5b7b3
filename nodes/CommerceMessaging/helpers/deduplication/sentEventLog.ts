import { HASH_LENGTH } from './eventKey';
import { deltaText, encodeEntries, readDelta, type EventText } from './eventText';

/** Most accepted events one node keeps; beyond it the oldest are dropped (reported when still inside the window). */
export const MAX_SENT_KEYS = 10_000;

/** How far ahead of this clock a saved send may lie (a small clock correction) before it is taken as bogus. */
export const FUTURE_TOLERANCE_SECONDS = 60;

/**
 * Which events the service accepted, and when: event hash -> epoch seconds, oldest first, so the size cap drops the
 * oldest in constant time. Pure: the process memory (processMemory.ts) holds one per node.
 */
export class SentEventLog {
	private byAge = new Map<string, number>();

	/** `encodeEntries(this.entries())`, kept up to date as events come and go: saving costs what changed. */
	private text: EventText = { first: 0, events: '' };
	/** The send time of the last event in `text`. */
	private textLast = 0;
	/** Set when an event moved or the order was rebuilt: `text` is then made again when asked for. */
	private textStale = false;

	/** Keys the size cap dropped while still inside the window they were judged by: they could go out twice. */
	droppedInWindow = 0;

	constructor(private readonly maxKeys = MAX_SENT_KEYS) {}

	get size(): number {
		return this.byAge.size;
	}

	/** When the event was accepted, if that was less than `windowSeconds` ago. */
	sentWithin(hash: string, windowSeconds: number, nowSeconds: number): number | undefined {
		const sentAt = this.byAge.get(hash);
		return sentAt !== undefined && nowSeconds - sentAt < windowSeconds ? sentAt : undefined;
	}

	/** An accepted event; a later acceptance of the same event starts its window again. Answers whether it was new. */
	record(hash: string, sentAt: number, nowSeconds: number, windowSeconds: number): boolean {
		const known = this.byAge.get(hash);
		if (known !== undefined && known >= sentAt) return false;
		if (known !== undefined) this.textStale = true;
		this.byAge.delete(hash);
		this.byAge.set(hash, sentAt);
		if (!this.textStale) this.append(hash, sentAt);
		this.cap(nowSeconds, windowSeconds);
		return true;
	}

	/**
	 * Joins entries another copy saved (another process, or this one before a restart), keeping the later time of
	 * each event. Entries older than `maxAgeSeconds`, dated in the future (a clock set back, edited state: they would
	 * block their event for longer than any window) or malformed are left out. Answers whether anything was new.
	 */
	merge(entries: Iterable<[string, number]>, nowSeconds: number, maxAgeSeconds: number): boolean {
		let added = false;
		const merged = new Map(this.byAge);
		for (const [hash, sentAt] of entries) {
			if (!isLive(sentAt, nowSeconds, maxAgeSeconds) || (merged.get(hash) ?? -Infinity) >= sentAt) continue;
			merged.set(hash, sentAt);
			added = true;
		}
		if (!added) return false;
		this.byAge = new Map([...merged].sort((a, b) => a[1] - b[1]));
		this.textStale = true;
		this.cap(nowSeconds, maxAgeSeconds);
		return true;
	}

	/** Forgets events older than `maxAgeSeconds` (the longest window asked for): the oldest, at the front. */
	prune(nowSeconds: number, maxAgeSeconds: number): void {
		for (const [hash, sentAt] of this.byAge) {
			if (nowSeconds - sentAt < maxAgeSeconds) break;
			this.dropOldest(hash);
		}
	}

	entries(): IterableIterator<[string, number]> {
		return this.byAge.entries();
	}

	/** The entries as `encodeEntries` writes them. */
	encoded(): EventText {
		if (this.textStale) {
			this.text = encodeEntries(this.byAge.entries());
			for (const [, sentAt] of this.byAge) this.textLast = sentAt;
			this.textStale = false;
		}
		return this.text;
	}

	private cap(nowSeconds: number, windowSeconds: number): void {
		while (this.byAge.size > this.maxKeys) {
			const [oldest, oldestAt] = this.byAge.entries().next().value as [string, number];
			this.dropOldest(oldest);
			if (nowSeconds - oldestAt < windowSeconds) this.droppedInWindow++;
		}
	}

	private append(hash: string, sentAt: number): void {
		if (this.text.events === '') {
			this.text = { first: sentAt, events: hash };
			this.textLast = sentAt;
			return;
		}
		this.text = { first: this.text.first, events: this.text.events + deltaText(sentAt - this.textLast) + hash };
		this.textLast = sentAt;
	}

	/** The oldest event goes; the one after it becomes the first, its delta turned into `first`. */
	private dropOldest(hash: string): void {
		this.byAge.delete(hash);
		if (this.textStale) return;
		const next = readDelta(this.text.events, HASH_LENGTH);
		this.text = {
			first: this.text.first + next.seconds,
			events: this.text.events.slice(HASH_LENGTH + next.length),
		};
	}
}

function isLive(sentAt: number, nowSeconds: number, maxAgeSeconds: number): boolean {
	return Number.isFinite(sentAt) && nowSeconds - sentAt < maxAgeSeconds && sentAt <= nowSeconds + FUTURE_TOLERANCE_SECONDS;
}
