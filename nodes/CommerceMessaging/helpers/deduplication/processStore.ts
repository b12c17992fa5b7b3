import { randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { deduplicationMemories, MAX_DEDUPLICATION_EVENTS } from '../processState';
import type { DedupEvent, DedupStore, Verdict } from './index';

/**
 * The store every deduplicating run uses: this process's memory of each node's accepted events (why in memory:
 * helpers/processState.ts; a send in flight is claimed with no await between the check and the claim), and its copy
 * in the node's static data, read back after a restart and saved when a run recorded an event.
 */

/** Characters of a stored hash: 60 bits, so among MAX_SENT_KEYS events kept a chance match is vanishingly rare. */
export const HASH_LENGTH = 10;

/** Most accepted events one node keeps; beyond it the oldest are dropped (reported when still inside the window). */
export const MAX_SENT_KEYS = 10_000;

/** How far ahead of this clock a saved send may lie (a small clock correction) before it is taken as bogus. */
export const FUTURE_TOLERANCE_SECONDS = 60;

/** Property of the node's static data holding the saved copy of its memory. */
export const SAVED_PROPERTY = 'deduplication';

/**
 * The saved form of a node's events, small (n8n writes static data whole after each execution that recorded one):
 * oldest first, each hash preceded by the seconds since the event before, in base 16 written with characters
 * base64url does not use (`~` first for an earlier time, after a clock was set back; none for the same second).
 */
export interface EventText {
	first: number;
	events: string;
}

const DELTA_DIGITS = '!$%&()*+,.:;<=>?';
const EARLIER = '~';

/** The delta written at `from` in `text`: its value and how many characters it takes. */
function readDelta(text: string, from: number): { seconds: number; length: number } {
	const earlier = text[from] === EARLIER;
	let seconds = 0;
	let at = earlier ? from + 1 : from;
	for (let digit = DELTA_DIGITS.indexOf(text[at]); at < text.length && digit >= 0; digit = DELTA_DIGITS.indexOf(text[++at])) {
		seconds = seconds * 16 + digit;
	}
	return { seconds: earlier ? -seconds : seconds, length: at - from };
}

export function encodeEntries(entries: Iterable<[string, number]>): EventText {
	let events = '';
	let first = 0;
	let last = Number.NaN;
	for (const [hash, sentAt] of entries) {
		let delta = '';
		for (let left = Math.abs(Math.round(sentAt - last)); left > 0; left = Math.floor(left / 16)) delta = DELTA_DIGITS[left % 16] + delta;
		if (Number.isNaN(last)) first = sentAt;
		else events += sentAt < last && delta ? EARLIER + delta : delta;
		events += hash;
		last = sentAt;
	}
	return { first, events };
}

const HASH = /^[A-Za-z0-9_-]+$/;

/** The entries of `encodeEntries`, or undefined when the saved value is not such a text (edited or damaged state). */
export function decodeEntries(saved: Partial<EventText> | undefined): Array<[string, number]> | undefined {
	const { first, events } = saved ?? {};
	if (typeof events !== 'string' || typeof first !== 'number' || !Number.isFinite(first)) return undefined;
	const entries: Array<[string, number]> = [];
	let sentAt = first;
	for (let at = 0; at < events.length; ) {
		const delta = entries.length > 0 ? readDelta(events, at) : { seconds: 0, length: 0 };
		sentAt += delta.seconds;
		at += delta.length;
		const hash = events.slice(at, at + HASH_LENGTH);
		if (hash.length !== HASH_LENGTH || !HASH.test(hash)) return undefined;
		entries.push([hash, sentAt]);
		at += HASH_LENGTH;
	}
	return entries;
}

/** Which events the service accepted, and when: hash -> epoch seconds, oldest first (the cap drops the oldest). */
export class SentEventLog {
	private byAge = new Map<string, number>();
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
		this.byAge.delete(hash);
		this.byAge.set(hash, sentAt);
		this.cap(nowSeconds, windowSeconds);
		return true;
	}

	/**
	 * Joins entries another copy saved (another process, or this one before a restart), keeping each event's later
	 * time; entries too old, malformed or dated in the future (a clock set back, edited state: they would block their
	 * event for longer than any window) are left out. Answers whether anything was new.
	 */
	merge(entries: Iterable<[string, number]>, nowSeconds: number, maxAgeSeconds: number): boolean {
		const merged = new Map(this.byAge);
		let added = false;
		for (const [hash, sentAt] of entries) {
			const live = Number.isFinite(sentAt) && nowSeconds - sentAt < maxAgeSeconds && sentAt <= nowSeconds + FUTURE_TOLERANCE_SECONDS;
			if (!live || (merged.get(hash) ?? -Infinity) >= sentAt) continue;
			merged.set(hash, sentAt);
			added = true;
		}
		if (!added) return false;
		this.byAge = new Map([...merged].sort((a, b) => a[1] - b[1]));
		this.cap(nowSeconds, maxAgeSeconds);
		return true;
	}

	/** Forgets events older than `maxAgeSeconds` (the longest window asked for): the oldest, at the front. */
	prune(nowSeconds: number, maxAgeSeconds: number): void {
		for (const [hash, sentAt] of this.byAge) {
			if (nowSeconds - sentAt < maxAgeSeconds) break;
			this.byAge.delete(hash);
		}
	}

	entries(): IterableIterator<[string, number]> {
		return this.byAge.entries();
	}

	/** The saved form of the entries (encodeEntries), written when n8n saves the node's static data. */
	encoded(): EventText {
		return encodeEntries(this.byAge.entries());
	}

	private cap(nowSeconds: number, windowSeconds: number): void {
		for (const [oldest, oldestAt] of this.byAge) {
			if (this.byAge.size <= this.maxKeys) break;
			this.byAge.delete(oldest);
			if (nowSeconds - oldestAt < windowSeconds) this.droppedInWindow++;
		}
	}
}

/** Tells this process's saved copies from another's (a queue-mode worker, or this n8n before a restart). */
const PROCESS_ID = randomBytes(6).toString('base64url');
const PROCESS_STARTED_AT = Math.floor(Date.now() / 1000);

export class NodeMemory {
	readonly log = new SentEventLog();
	/** Sends in flight, by event hash: resolves to whether the service accepted the event. */
	readonly inFlight = new Map<string, Promise<boolean>>();
	/** Tells the copies this memory saved from those saved by another memory (another process, or one dropped). */
	readonly copyId = randomBytes(6).toString('base64url');
}

/** The node's memory; memories of other nodes go, least recently used first, while all of them hold too many events. */
export function nodeMemory(nodeKey: string): NodeMemory {
	const memory = (deduplicationMemories.get(nodeKey) as NodeMemory | undefined) ?? new NodeMemory();
	deduplicationMemories.set(nodeKey, memory);
	let total = 0;
	for (const [, { log }] of deduplicationMemories) total += log.size;
	deduplicationMemories.dropOldest((_key, old) => {
		if (total <= MAX_DEDUPLICATION_EVENTS || old === memory) return false;
		if (old.inFlight.size === 0) total -= old.log.size;
		return true;
	});
	return memory;
}

/** Forgets everything: a restarted process, for tests. */
export function forgetProcessMemory(): void {
	deduplicationMemories.clear();
}

/** The saved copy of a node's memory: the process (PROCESS_ID) and memory (copyId, not read back by itself) that saved it, when (epoch s). */
interface SavedCopy extends EventText {
	process: string;
	copy: string;
	at: number;
}

export class ProcessStore implements DedupStore {
	/** Events this run claimed: settles their in-flight promise (true: accepted). */
	private readonly holds = new Map<string, { inFlight: Promise<boolean>; settle: (accepted: boolean) => void }>();
	/** Whether this run recorded an event the memory did not know: only then is the copy saved. */
	private recorded = false;
	/** What the run should tell the user, known at `finish`: events forgotten too soon, another process at work. */
	readonly hints: NodeExecutionHint[] = [];
	private readonly dropsBefore: number;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly memory: NodeMemory,
		private readonly longestWindowSeconds: number,
		private readonly nowSeconds: () => number,
		private readonly acrossProcesses: boolean,
		/** When another process saved this node's copy while this one was running (epoch seconds), if it did. */
		private readonly otherProcessSavedAt: number | undefined,
	) {
		this.dropsBefore = memory.log.droppedInWindow;
	}

	/**
	 * Joins the saved copy into the memory, unless it is the memory's own. `acrossProcesses`: whether the run also
	 * claims in n8n's shared store; if not, a copy another running process saved is reported (queue mode without it).
	 */
	static open(
		ctx: IExecuteFunctions,
		nodeKey: string,
		options: { longestWindowSeconds: number; nowSeconds: () => number; acrossProcesses: boolean },
	): ProcessStore {
		const { longestWindowSeconds, nowSeconds } = options;
		const memory = nodeMemory(nodeKey);
		const saved = ctx.getWorkflowStaticData('node')[SAVED_PROPERTY] as Partial<SavedCopy> | undefined;
		let otherProcessSavedAt: number | undefined;
		if (saved && typeof saved === 'object' && saved.copy !== memory.copyId) {
			const entries = decodeEntries(saved);
			if (entries) memory.log.merge(entries, nowSeconds(), longestWindowSeconds);
			const at = Number(saved.at);
			if (saved.process !== PROCESS_ID && at >= PROCESS_STARTED_AT) otherProcessSavedAt = at;
		}
		return new ProcessStore(ctx, memory, longestWindowSeconds, nowSeconds, options.acrossProcesses, otherProcessSavedAt);
	}

	async claimAll(events: DedupEvent[]): Promise<DedupEvent[]> {
		const now = this.nowSeconds();
		return events.filter((event) => this.memory.log.sentWithin(event.hash, event.windowSeconds, now) === undefined);
	}

	async claim(event: DedupEvent): Promise<Verdict> {
		for (;;) {
			const sentAt = this.memory.log.sentWithin(event.hash, event.windowSeconds, this.nowSeconds());
			if (sentAt !== undefined) return { outcome: 'sent', sentAt };
			const inFlight = this.memory.inFlight.get(event.hash);
			if (!inFlight) break;
			// Another execution sends it now: accepted, it is a duplicate; failed, this run sends it.
			await inFlight;
		}
		let settle: (accepted: boolean) => void = () => {};
		const inFlight = new Promise<boolean>((resolve) => (settle = resolve));
		this.memory.inFlight.set(event.hash, inFlight);
		this.holds.set(event.hash, { inFlight, settle });
		return { outcome: 'free' };
	}

	accepted(event: DedupEvent, sentAt: number): void {
		if (this.memory.log.record(event.hash, sentAt, this.nowSeconds(), event.windowSeconds)) this.recorded = true;
		this.settle(event.hash, true);
	}

	async release(event: DedupEvent): Promise<void> {
		this.settle(event.hash, false);
	}

	async finish(): Promise<void> {
		for (const hash of [...this.holds.keys()]) this.settle(hash, false);
		if (this.recorded) this.save();
		this.reportDrops();
		this.reportOtherProcess();
	}

	private settle(hash: string, accepted: boolean): void {
		const hold = this.holds.get(hash);
		if (!hold) return;
		this.holds.delete(hash);
		if (this.memory.inFlight.get(hash) === hold.inFlight) this.memory.inFlight.delete(hash);
		hold.settle(accepted);
	}

	/** Assigning through n8n's static data object is what marks it as changed, so n8n saves it. */
	private save(): void {
		const now = this.nowSeconds();
		this.memory.log.prune(now, this.longestWindowSeconds);
		const copy: SavedCopy = { process: PROCESS_ID, copy: this.memory.copyId, at: now, ...this.memory.log.encoded() };
		this.ctx.getWorkflowStaticData('node')[SAVED_PROPERTY] = copy as unknown as IDataObject;
	}

	private reportDrops(): void {
		const dropped = this.memory.log.droppedInWindow - this.dropsBefore;
		if (dropped <= 0) return;
		const message =
			`Deduplication kept only the newest ${MAX_SENT_KEYS.toLocaleString('en')} sent events: ${dropped} older ` +
			`${dropped === 1 ? 'one' : 'ones'} still inside the deduplication window ${dropped === 1 ? 'was' : 'were'} ` +
			'forgotten and would be sent again. Use a shorter window or split the events over several nodes.';
		this.hints.push({ message, type: 'warning' });
	}

	private reportOtherProcess(): void {
		if (this.otherProcessSavedAt === undefined || this.acrossProcesses) return;
		const message =
			`Another n8n process (a queue-mode worker or another main instance) ran this node at ` +
			`${new Date(this.otherProcessSavedAt * 1000).toISOString()}: deduplication reaches events sent by other ` +
			'processes only with the option Deduplicate Across Workers on.';
		this.hints.push({ message, type: 'warning' });
	}
}
