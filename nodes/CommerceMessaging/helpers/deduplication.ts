import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { acceptedOutput } from './eventFields';

/**
 * Rule V4: order and cart events are deduplicated on the client, so a retried item or a re-run workflow does not
 * send an event the service already accepted. What was sent lives in the node's workflow static data, which n8n
 * saves after every execution of an active workflow.
 */

/** Most keys one node keeps (about 26 bytes each once saved); beyond it the oldest are dropped. */
export const MAX_SENT_KEYS = 10_000;
export const DEFAULT_WINDOW_HOURS = 24;

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

	private constructor(
		readonly entries: SentEventMap,
		private readonly byAge: Map<string, number>,
		private readonly maxKeys: number,
		changed: boolean,
	) {
		this.changed = changed;
	}

	/**
	 * Reads saved state, dropping keys older than `maxAgeSeconds`, malformed values, and the oldest keys beyond
	 * `maxKeys`. When nothing had to be dropped the saved object itself is kept, so updates land in it.
	 */
	static load(
		saved: unknown,
		options: { nowSeconds: number; maxAgeSeconds: number; maxKeys?: number },
	): SentEventLog {
		const maxKeys = options.maxKeys ?? MAX_SENT_KEYS;
		const kept: Array<[string, number]> = [];
		let dropped = false;
		const isMap = typeof saved === 'object' && saved !== null && !Array.isArray(saved);
		if (isMap) {
			for (const [hash, sentAt] of Object.entries(saved as IDataObject)) {
				if (typeof sentAt === 'number' && Number.isFinite(sentAt) && options.nowSeconds - sentAt < options.maxAgeSeconds) {
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
			kept.splice(0, kept.length - maxKeys);
			dropped = true;
		}
		const entries = isMap && !dropped ? (saved as SentEventMap) : Object.fromEntries(kept);
		return new SentEventLog(entries, new Map(kept), maxKeys, dropped);
	}

	get size(): number {
		return this.byAge.size;
	}

	/** When the event was accepted, if that was less than `windowSeconds` ago. */
	sentWithin(hash: string, windowSeconds: number, nowSeconds: number): number | undefined {
		const sentAt = this.byAge.get(hash);
		return sentAt !== undefined && nowSeconds - sentAt < windowSeconds ? sentAt : undefined;
	}

	record(hash: string, nowSeconds: number): void {
		this.byAge.delete(hash);
		this.byAge.set(hash, nowSeconds);
		this.entries[hash] = nowSeconds;
		while (this.byAge.size > this.maxKeys) {
			const oldest = this.byAge.keys().next().value as string;
			this.byAge.delete(oldest);
			delete this.entries[oldest];
		}
		this.changed = true;
	}
}

/** The "Deduplicate" options of a push operation; `keyDescription` says what makes two events the same. */
export function deduplicationOptions(keyDescription: string): INodeProperties[] {
	return [
		{
			displayName: 'Deduplicate',
			name: 'deduplicate',
			type: 'boolean',
			default: true,
			description: `Whether to skip an event the service already accepted with ${keyDescription} within the deduplication window, so retries and re-runs do not send it twice. A skipped item is still output, with skipped: true. Across executions this holds for active workflows (n8n keeps node state only for them).`,
		},
		{
			displayName: 'Deduplication Window (Hours)',
			name: 'deduplicationWindowHours',
			type: 'number',
			typeOptions: { minValue: 0.01 },
			default: DEFAULT_WINDOW_HOURS,
			placeholder: '24',
			description: 'How long an accepted event blocks the same event. Used only when Deduplicate is on.',
		},
	];
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
 * longest window any item asks for), answers per item, and is saved by `finish`.
 */
export class Deduplication {
	private log: SentEventLog | undefined;

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

	/** Called only once the service accepted the event: a failed send must go out again on the next try. */
	markSent(key: EventKey, settings: DedupSettings): void {
		this.load(settings.windowSeconds).record(key.hash, this.nowSeconds());
	}

	/**
	 * Sends an event unless the same one was accepted within the item's window (then answers with a skipped
	 * item, so nothing silently disappears), and records its key once the service accepted it.
	 */
	async sendOnce(
		itemIndex: number,
		key: EventKey,
		identifiers: IDataObject,
		send: () => Promise<unknown>,
	): Promise<IDataObject> {
		const settings = readDedupSettings(this.ctx, itemIndex);
		if (settings.enabled) {
			const skipped = this.skippedOutput(key, settings, identifiers);
			if (skipped) return skipped;
		}
		const data = await send();
		if (settings.enabled) this.markSent(key, settings);
		return acceptedOutput(data, identifiers);
	}

	save(): void {
		if (!this.log?.changed) return;
		// Assigning through n8n's static data object is what marks it as changed, so n8n saves it.
		this.ctx.getWorkflowStaticData('node')[SENT_EVENTS_PROPERTY] = this.log.entries as IDataObject;
	}

	private load(maxAgeSeconds: number): SentEventLog {
		if (!this.log) {
			const saved = this.ctx.getWorkflowStaticData('node')[SENT_EVENTS_PROPERTY];
			this.log = SentEventLog.load(saved, { nowSeconds: this.nowSeconds(), maxAgeSeconds });
		}
		return this.log;
	}
}

/** The `prepare` hook of a deduplicated push operation: one run's state, loaded once. */
export async function prepareDeduplication(this: IExecuteFunctions, itemCount: number): Promise<Deduplication> {
	return Deduplication.start(this, itemCount);
}

/** The `finish` hook: saves what the run recorded, once (the router runs it even when an item stopped the run). */
export async function finishDeduplication(this: IExecuteFunctions, deduplication: Deduplication): Promise<void> {
	deduplication.save();
}
