import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { acceptedOutput } from './eventFields';
import { resetRecentRecords, SharedClaims } from './sharedDeduplication';

/**
 * Rule V4: order and cart events are deduplicated on the client, so a retried item or a re-run workflow does not
 * send an event the service already accepted. What was sent lives in the node's workflow static data, which n8n
 * saves after every execution of an active workflow.
 */

/** Most keys one node keeps (about 26 bytes each once saved); beyond it the oldest are dropped. */
export const MAX_SENT_KEYS = 10_000;
export const DEFAULT_WINDOW_HOURS = 24;
/** How far ahead of this clock a saved send may lie (a small clock correction) before it is taken as bogus. */
export const FUTURE_TOLERANCE_SECONDS = 60;

/** Property of the node's static data holding the sent-event map. */
export const SENT_EVENTS_PROPERTY = 'sentEvents';

/** Short hash of an event key -> epoch seconds at which the service accepted the event. */
export type SentEventMap = Record<string, number>;

export interface EventKey {
	/** Readable form, shown on skipped items. */
	label: string;
	/** Stored form: compact, and free of the shop's identifiers. */
	hash: string;
}

export interface DedupSettings {
	enabled: boolean;
	windowSeconds: number;
}

function eventKey(kind: 'order' | 'cart', parts: string[]): EventKey {
	// JSON keeps ("a:b","c") and ("a","b:c") apart; 72 bits make a collision among 10,000 keys vanishingly rare.
	const hash = createHash('sha256').update(JSON.stringify([kind, ...parts])).digest('base64url').slice(0, 12);
	return { label: [kind, ...parts].join(':'), hash };
}

export function orderEventKey(orderId: string, status: string): EventKey {
	return eventKey('order', [orderId, status]);
}

export function cartEventKey(cartId: string, total: number): EventKey {
	return eventKey('cart', [cartId, normaliseTotal(total)]);
}

/** 49.9, 49.90 and 49.900000001 are one total; binary float noise never makes two keys. */
export function normaliseTotal(total: number): string {
	return String(Number(total.toFixed(6)) + 0);
}

/**
 * The pure store: which event keys the service accepted, and when. `entries` is the object saved in static
 * data; `byAge` holds the same keys oldest first so the size cap drops the oldest in constant time.
 */
export class SentEventLog {
	/** Whether `entries` differs from what was loaded. */
	changed: boolean;

	/** Keys the size cap dropped while they were still inside the window: those events could go out twice. */
	droppedInWindow: number;

	private constructor(
		private saved: SentEventMap,
		private byAge: Map<string, number>,
		private readonly maxKeys: number,
		private readonly maxAgeSeconds: number,
		changed: boolean,
		droppedInWindow: number,
	) {
		this.changed = changed;
		this.droppedInWindow = droppedInWindow;
	}

	/** The object to save in static data. */
	get entries(): SentEventMap {
		return this.saved;
	}

	/**
	 * Reads saved state, dropping keys older than `maxAgeSeconds`, keys dated in the future (a clock set back, or
	 * edited state: they would block their event for longer than any window), malformed values, and the oldest
	 * keys beyond `maxKeys`. When nothing had to be dropped the saved object itself is kept, so updates land in it.
	 */
	static load(
		saved: unknown,
		options: { nowSeconds: number; maxAgeSeconds: number; maxKeys?: number },
	): SentEventLog {
		const maxKeys = options.maxKeys ?? MAX_SENT_KEYS;
		const { nowSeconds, maxAgeSeconds } = options;
		const kept: Array<[string, number]> = [];
		let dropped = false;
		let droppedInWindow = 0;
		const isMap = typeof saved === 'object' && saved !== null && !Array.isArray(saved);
		if (isMap) {
			for (const [hash, sentAt] of Object.entries(saved as IDataObject)) {
				if (
					typeof sentAt === 'number' &&
					Number.isFinite(sentAt) &&
					nowSeconds - sentAt < maxAgeSeconds &&
					sentAt <= nowSeconds + FUTURE_TOLERANCE_SECONDS
				) {
					kept.push([hash, sentAt]);
				} else {
					dropped = true;
				}
			}
		} else if (saved !== undefined && saved !== null) {
			dropped = true;
		}
		kept.sort((a, b) => a[1] - b[1]);
		if (kept.length > maxKeys) {
			// Everything kept so far is inside the window.
			droppedInWindow = kept.length - maxKeys;
			kept.splice(0, droppedInWindow);
			dropped = true;
		}
		const entries = isMap && !dropped ? (saved as SentEventMap) : Object.fromEntries(kept);
		return new SentEventLog(entries, new Map(kept), maxKeys, maxAgeSeconds, dropped, droppedInWindow);
	}

	get size(): number {
		return this.byAge.size;
	}

	/** When the event was accepted, if that was less than `windowSeconds` ago. */
	sentWithin(hash: string, windowSeconds: number, nowSeconds: number): number | undefined {
		const sentAt = this.byAge.get(hash);
		return sentAt !== undefined && nowSeconds - sentAt < windowSeconds ? sentAt : undefined;
	}

	/** `sentAt` defaults to now; an earlier one is a send another execution made. */
	record(hash: string, nowSeconds: number, sentAt = nowSeconds): void {
		this.byAge.delete(hash);
		this.byAge.set(hash, sentAt);
		this.saved[hash] = sentAt;
		this.cap(nowSeconds);
		this.changed = true;
	}

	/**
	 * Joins a map another execution saved in the same static data object since this one was loaded: both
	 * executions' keys go into that object, which becomes this log's own, so neither overwrites the other.
	 */
	adopt(other: SentEventMap, nowSeconds: number): void {
		const theirs = SentEventLog.load(other, { nowSeconds, maxAgeSeconds: this.maxAgeSeconds, maxKeys: Infinity });
		const merged = new Map(theirs.byAge);
		for (const [hash, sentAt] of this.byAge) merged.set(hash, Math.max(sentAt, merged.get(hash) ?? -Infinity));
		for (const hash of Object.keys(other)) if (!merged.has(hash)) delete other[hash];
		for (const [hash, sentAt] of merged) if (other[hash] !== sentAt) other[hash] = sentAt;
		this.saved = other;
		this.byAge = new Map([...merged].sort((a, b) => a[1] - b[1]));
		this.cap(nowSeconds);
		this.changed = true;
	}

	private cap(nowSeconds: number): void {
		while (this.byAge.size > this.maxKeys) {
			const [oldest, oldestAt] = this.byAge.entries().next().value as [string, number];
			this.byAge.delete(oldest);
			delete this.saved[oldest];
			if (nowSeconds - oldestAt < this.maxAgeSeconds) this.droppedInWindow++;
		}
	}
}

/**
 * Sends in flight or done in this n8n process, by workflow, node and event key. Static data alone cannot keep two
 * executions running at once apart: n8n gives each its own copy (the last one saved wins), so both would see an
 * event as new. An execution claims a key before it sends; another one finding the claim waits for that send,
 * then skips the event if it was accepted or sends it itself if it failed. Done sends stay for their window,
 * since an execution that started earlier still holds state that does not know them.
 */
interface Claim {
	/** Set while the send runs; resolves to whether the service accepted it. */
	inFlight?: Promise<boolean>;
	/** Epoch seconds at which the service accepted the event. */
	sentAt?: number;
	/** Epoch seconds from which a done send no longer blocks. */
	until: number;
}

/** Most done sends the process keeps (about 100 bytes each); the oldest go first, sends in flight never. */
export const MAX_CLAIMS = 100_000;

const claims = new Map<string, Claim>();

function liveClaim(id: string, nowSeconds: number): Claim | undefined {
	const claim = claims.get(id);
	if (claim && !claim.inFlight && claim.until <= nowSeconds) {
		claims.delete(id);
		return undefined;
	}
	return claim;
}

function setClaim(id: string, claim: Claim, nowSeconds: number): void {
	claims.delete(id);
	claims.set(id, claim);
	// Oldest first: drop expired sends at the front and anything beyond the cap, never a send in flight.
	for (const [oldId, old] of claims) {
		if (old.inFlight) continue;
		if (claims.size <= MAX_CLAIMS && old.until > nowSeconds) break;
		claims.delete(oldId);
	}
}

/** Forgets every claim: a restarted process, for tests. */
export function resetClaims(): void {
	claims.clear();
	resetRecentRecords();
}

export function readDedupSettings(ctx: IExecuteFunctions, itemIndex: number): DedupSettings {
	const options = (ctx.getNodeParameter('options', itemIndex, {}) ?? {}) as IDataObject;
	const enabled = options.deduplicate !== false;
	const rawHours = options.deduplicationWindowHours ?? DEFAULT_WINDOW_HOURS;
	const hours = typeof rawHours === 'number' ? rawHours : Number(String(rawHours).trim() || NaN);
	if (enabled && !(Number.isFinite(hours) && hours > 0)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Item ${itemIndex}: "${String(rawHours)}" is not a deduplication window`,
			{ itemIndex, description: 'Use a number of hours above 0, e.g. 24.' },
		);
	}
	return { enabled, windowSeconds: hours * 3600 };
}

/**
 * One run's deduplication, created by an operation's `prepare`: loads the node's state once (pruned with the
 * longest window any item asks for), answers per item, and writes each accepted key to the state at once, so
 * n8n's Retry On Fail (which runs the node again with every item) sends only what did not get through.
 */
export class Deduplication {
	private log: SentEventLog | undefined;

	/** Keys dropped at the size cap that were already reported. */
	private reportedDrops = 0;

	/** This run's claims in n8n's store shared by all its processes (queue mode), when n8n offers one. */
	private shared: SharedClaims | undefined;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly nowSeconds: () => number,
	) {}

	static start(
		ctx: IExecuteFunctions,
		itemCount: number,
		nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
	): Deduplication {
		const run = new Deduplication(ctx, nowSeconds);
		let longestWindow = 0;
		for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
			try {
				const settings = readDedupSettings(ctx, itemIndex);
				if (settings.enabled) longestWindow = Math.max(longestWindow, settings.windowSeconds);
			} catch {
				// That item reports its own bad setting when it runs.
			}
		}
		// With deduplication off for every item the stored state is neither read nor written.
		if (longestWindow > 0) run.load(longestWindow);
		return run;
	}

	/**
	 * Claims, in ONE call to n8n's store shared by all its processes, the events of the items this process's own
	 * state does not already know as sent. `keyOf` gives an item's event key (undefined: the item reports its own
	 * error when it runs).
	 */
	async claimShared(itemCount: number, keyOf: (itemIndex: number) => EventKey | undefined): Promise<void> {
		const keys: Array<{ hash: string; windowSeconds: number }> = [];
		for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
			let settings: DedupSettings;
			let key: EventKey | undefined;
			try {
				settings = readDedupSettings(this.ctx, itemIndex);
				key = settings.enabled ? keyOf(itemIndex) : undefined;
			} catch {
				continue;
			}
			if (!key) continue;
			if (this.load(settings.windowSeconds).sentWithin(key.hash, settings.windowSeconds, this.nowSeconds()) !== undefined) {
				continue;
			}
			keys.push({ hash: key.hash, windowSeconds: settings.windowSeconds });
		}
		if (keys.length > 0) this.shared = await SharedClaims.claim(this.ctx, keys, this.nowSeconds);
	}

	/**
	 * The output for an item whose event was already accepted within its window, or undefined to send it.
	 * `identifiers` (the event's ids) go into that output so the skipped item still says which event it was.
	 */
	skippedOutput(key: EventKey, settings: DedupSettings, identifiers: IDataObject): IDataObject | undefined {
		const log = this.load(settings.windowSeconds);
		const sentAt = log.sentWithin(key.hash, settings.windowSeconds, this.nowSeconds());
		if (sentAt === undefined) return undefined;
		return {
			...identifiers,
			skipped: true,
			reason: 'duplicate',
			dedupKey: key.label,
			firstSentAt: new Date(sentAt * 1000).toISOString(),
		};
	}

	/**
	 * Called only once the service accepted the event (a failed send must go out again on the next try), and
	 * written to the node's state at once rather than at the end of the run.
	 */
	markSent(key: EventKey, settings: DedupSettings, sentAt = this.nowSeconds()): void {
		this.load(settings.windowSeconds).record(key.hash, this.nowSeconds(), sentAt);
		this.persist();
	}

	/**
	 * Sends an event unless the same one was accepted within the item's window, by this or another execution of
	 * the process (then answers with a skipped item, so nothing silently disappears), and records its key once
	 * the service accepted it.
	 */
	async sendOnce(
		itemIndex: number,
		key: EventKey,
		identifiers: IDataObject,
		send: () => Promise<unknown>,
	): Promise<IDataObject> {
		const settings = readDedupSettings(this.ctx, itemIndex);
		if (!settings.enabled) return acceptedOutput(await send(), identifiers);

		const claimId = this.claimId(key);
		// Check and claim with no await in between: two executions cannot both find the key free.
		for (;;) {
			const skipped = this.skippedOutput(key, settings, identifiers);
			if (skipped) {
				// Sent by this process: a shared claim this run made for it is the record of that send.
				this.shared?.accepted(key.hash);
				return skipped;
			}
			const claim = liveClaim(claimId, this.nowSeconds());
			if (!claim) break;
			if (claim.inFlight) {
				await claim.inFlight;
				continue;
			}
			if (claim.sentAt === undefined || this.nowSeconds() - claim.sentAt >= settings.windowSeconds) break;
			// Sent by another execution: recorded here too, so this run's saved state (the last saved wins) has it.
			this.markSent(key, settings, claim.sentAt);
		}

		let settle: (accepted: boolean) => void = () => {};
		const mine: Claim = { inFlight: new Promise<boolean>((resolve) => (settle = resolve)), until: Infinity };
		setClaim(claimId, mine, this.nowSeconds());
		let data: unknown;
		let accepted = false;
		let claimedElsewhere = false;
		try {
			// Another n8n process (a queue-mode worker) claimed the event: it sends it, this run skips it.
			claimedElsewhere = this.shared ? !(await this.shared.holds(key.hash, settings.windowSeconds)) : false;
			if (!claimedElsewhere) {
				data = await send();
				accepted = true;
				this.shared?.accepted(key.hash);
			}
		} finally {
			// A failed send releases the claim, so a waiting execution sends the event itself.
			if (!accepted) {
				if (!claimedElsewhere) await this.shared?.failed(key.hash);
				if (claims.get(claimId) === mine) claims.delete(claimId);
				settle(false);
			}
		}
		if (claimedElsewhere) {
			return { ...identifiers, skipped: true, reason: 'duplicate', dedupKey: key.label, claimedBy: 'another execution' };
		}
		const sentAt = this.nowSeconds();
		setClaim(claimId, { sentAt, until: sentAt + settings.windowSeconds }, sentAt);
		settle(true);
		this.markSent(key, settings, sentAt);
		return acceptedOutput(data, identifiers);
	}

	/** Releases the shared claims of events this run never sent. */
	async releaseUnsent(): Promise<void> {
		await this.shared?.finish();
	}

	/** Writes the recorded keys to the node's state and reports keys the size cap dropped inside their window. */
	save(): void {
		this.persist();
		this.reportDrops();
	}

	private persist(): void {
		if (!this.log?.changed) return;
		const state = this.ctx.getWorkflowStaticData('node');
		const current = state[SENT_EVENTS_PROPERTY];
		// Another execution sharing this static data object saved its own map meanwhile: join it, do not replace it.
		if (current !== this.log.entries && typeof current === 'object' && current !== null && !Array.isArray(current)) {
			this.log.adopt(current as SentEventMap, this.nowSeconds());
		}
		// Assigning through n8n's static data object is what marks it as changed, so n8n saves it.
		if (this.log.changed) state[SENT_EVENTS_PROPERTY] = this.log.entries as IDataObject;
	}

	private reportDrops(): void {
		const dropped = this.log?.droppedInWindow ?? 0;
		if (dropped === this.reportedDrops) return;
		this.reportedDrops = dropped;
		const message =
			`Deduplication kept only the newest ${MAX_SENT_KEYS.toLocaleString('en')} sent events: ${dropped} older ` +
			`${dropped === 1 ? 'one' : 'ones'} still inside the deduplication window ${dropped === 1 ? 'was' : 'were'} ` +
			'forgotten and would be sent again. Use a shorter window or split the events over several nodes.';
		// The hint shows on the node's output; the log line also reaches production executions nobody opens.
		if (typeof this.ctx.addExecutionHints === 'function') {
			this.ctx.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
		}
		this.ctx.logger?.warn(message, { node: this.ctx.getNode().name, workflowId: this.ctx.getWorkflow().id });
	}

	private claimId(key: EventKey): string {
		return JSON.stringify([this.ctx.getWorkflow().id ?? '', this.ctx.getNode().name, key.hash]);
	}

	private load(maxAgeSeconds: number): SentEventLog {
		if (!this.log) {
			const saved = this.ctx.getWorkflowStaticData('node')[SENT_EVENTS_PROPERTY];
			this.log = SentEventLog.load(saved, { nowSeconds: this.nowSeconds(), maxAgeSeconds });
		}
		return this.log;
	}
}

/**
 * The `prepare` hook of a deduplicated push operation: one run's state, loaded once, and its events claimed in
 * n8n's shared store in one call when `keyOf` (an item's event key) is given.
 */
export async function prepareDeduplication(
	this: IExecuteFunctions,
	itemCount: number,
	keyOf?: (itemIndex: number) => EventKey | undefined,
): Promise<Deduplication> {
	const deduplication = Deduplication.start(this, itemCount);
	if (keyOf) await deduplication.claimShared(itemCount, keyOf);
	return deduplication;
}

/**
 * The `finish` hook: saves what the run recorded and releases shared claims of events it never sent (the router
 * runs it even when an item stopped the run).
 */
export async function finishDeduplication(this: IExecuteFunctions, deduplication: Deduplication): Promise<void> {
	deduplication.save();
	await deduplication.releaseUnsent();
}
