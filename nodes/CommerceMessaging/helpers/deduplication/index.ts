import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { CREDENTIAL_TYPE, normalizeBaseUrl, readCredentials } from '../../../../transport/auth';
import { getSession } from '../../../../transport/session';
import { itemError, readBoolean, readDecimal } from '../parameters';
import { forgetProcessMemory, HASH_LENGTH, ProcessStore } from './processStore';
import { forgetSharedState, SharedStore } from './sharedStore';

/**
 * Rule V4: an order or cart event (order id + status; cart id + total) the service accepted through an account (Base
 * URL + username) is not sent through it again within the item's window; the item is output with `skipped: true`.
 * An event is recorded only once accepted, so a failed send goes out on the next try. It holds within and between
 * runs of one n8n process and across restarts (processStore.ts), and across processes with Deduplicate Across
 * Workers (sharedStore.ts). The guarantee, its limits and its cost: docs/deduplication.md.
 */

/** One item's deduplication options (descriptions/options.ts); `acrossProcesses`: also claim in n8n's shared store. */
export interface DedupSettings {
	enabled: boolean;
	windowSeconds: number;
	acrossProcesses: boolean;
}

export const DEFAULT_WINDOW_HOURS = 24;
const WINDOW_FORM = 'Use a number of hours above 0, e.g. 24.';

/** Reads an item's deduplication options once; a bad value becomes that item's error, thrown when the item runs. */
export function readDedupSettings(ctx: IExecuteFunctions, itemIndex: number): DedupSettings | Error {
	try {
		const enabled = readBoolean(ctx, 'options.deduplicate', itemIndex, { label: 'Deduplicate', fallback: true });
		if (!enabled) return { enabled, windowSeconds: 0, acrossProcesses: false };
		const hours = readDecimal(ctx, 'options.deduplicationWindowHours', itemIndex, {
			label: 'deduplication window',
			min: 0,
			fallback: DEFAULT_WINDOW_HOURS,
			description: WINDOW_FORM,
		});
		if (hours === 0) throw itemError(ctx, itemIndex, '0 is not a valid deduplication window', WINDOW_FORM);
		const acrossProcesses = readBoolean(ctx, 'options.deduplicateAcrossWorkers', itemIndex, { label: 'Deduplicate Across Workers', fallback: false });
		return { enabled, windowSeconds: hours * 3600, acrossProcesses };
	} catch (error) {
		return error as Error;
	}
}

/** What makes two events the same (the account aside): the kind and the event's own ids. */
export interface EventIdentity {
	kind: 'order' | 'cart';
	parts: string[];
}

export function orderEvent(orderId: string, status: string): EventIdentity {
	return { kind: 'order', parts: [orderId, status] };
}

export function cartEvent(cartId: string, total: number): EventIdentity {
	return { kind: 'cart', parts: [cartId, normaliseTotal(total)] };
}

/** 49.9, 49.90 and 49.900000001 are one total; binary float noise never makes two keys. */
export function normaliseTotal(total: number): string {
	return String(Number(total.toFixed(6)) + 0);
}

/** An event's label (on skipped items) and stored hash, account included. JSON keeps ("a:b","c") and ("a","b:c") apart. */
export function eventKey(account: string, event: EventIdentity): { label: string; hash: string } {
	const hash = createHash('sha256')
		.update(JSON.stringify([event.kind, account, ...event.parts]))
		.digest('base64url')
		.slice(0, HASH_LENGTH);
	return { label: [event.kind, ...event.parts].join(':'), hash };
}

/** The account a credential logs in to, hashed: Base URL (as URLs write it) and username, not the password nor the name. */
export function accountWithoutPasswordKey(data: ICredentialDataDecryptedObject): string {
	const { baseUrl, username } = readCredentials(data);
	const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
	const canonical = url ? normalizeBaseUrl(`${url.protocol}//${url.host}${url.pathname}`) : baseUrl;
	return createHash('sha256').update(JSON.stringify([canonical, username])).digest('base64url').slice(0, 16);
}

/** One event as a store sees it: its hash (account included) and the window of the item asking. */
export interface DedupEvent {
	hash: string;
	windowSeconds: number;
}

/** A claim's answer: this run now holds the event (nobody the store reaches sends it meanwhile), the service accepted it within the window, or another execution holds it. */
export type Verdict = { outcome: 'free' } | { outcome: 'sent'; sentAt: number } | { outcome: 'claimed' };

/**
 * What every store offers one run: `claimAll` the run's events before any send (answering those left to the next
 * store), `claim` one (held until `accepted` or `release`d), and `finish` (save what it recorded, drop what it holds).
 */
export interface DedupStore {
	claimAll(events: DedupEvent[]): Promise<DedupEvent[]>;
	claim(event: DedupEvent): Promise<Verdict>;
	accepted(event: DedupEvent, sentAt: number): void;
	release(event: DedupEvent): Promise<void>;
	finish(): Promise<void>;
}

/** Everything one run's deduplication holds. Settings come from the caller (one read per item), keys from `sendOnce`. */
export class Deduplication {
	/** Items answered with `skipped: true`: their event was sent before. */
	skipped = 0;
	/** Events sent while n8n's shared store could not be reached: checked by this worker only. */
	sentWithoutSharedStore = 0;

	private constructor(
		private readonly settings: ReadonlyArray<DedupSettings | Error>,
		private readonly account: string,
		private readonly nowSeconds: () => number,
		private readonly processStore?: ProcessStore,
		private readonly sharedStore?: SharedStore,
	) {}

	/**
	 * Opens the stores the items need (none when deduplication is off for all: nothing is read or written), and claims
	 * at once in n8n's shared store the events (`eventOf`) of the items with Deduplicate Across Workers on.
	 */
	static async start(
		ctx: IExecuteFunctions,
		options: { settings: ReadonlyArray<DedupSettings | Error>; eventOf?: (itemIndex: number) => EventIdentity; nowSeconds?: () => number },
	): Promise<Deduplication> {
		const { settings } = options;
		const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
		const enabled = settings.filter((s): s is DedupSettings => !(s instanceof Error) && s.enabled);
		const acrossProcesses = enabled.some((s) => s.acrossProcesses);
		const account = enabled.length > 0 ? await readAccount(ctx, acrossProcesses) : undefined;
		// None on, or no readable credential (no event can be sent then either: the sends report that).
		if (account === undefined) return new Deduplication(settings, '', nowSeconds);

		const node = ctx.getNode();
		const nodeKey = JSON.stringify([ctx.getWorkflow().id ?? '', node.id ?? node.name]);
		const sharedStore = acrossProcesses ? SharedStore.open(ctx, nodeKey, nowSeconds) : undefined;
		const processStore = ProcessStore.open(ctx, nodeKey, {
			longestWindowSeconds: enabled.reduce((longest, s) => Math.max(longest, s.windowSeconds), 0),
			nowSeconds,
			acrossProcesses: sharedStore !== undefined,
		});
		const run = new Deduplication(settings, account, nowSeconds, processStore, sharedStore);
		if (!sharedStore || !options.eventOf) return run;
		let claimed = false;
		try {
			await run.claimAll(options.eventOf);
			claimed = true;
		} finally {
			// Cancelled while claiming: the router never reaches `finish`, so the claims go here.
			if (!claimed) await run.finish();
		}
		return run;
	}

	/**
	 * Sends an event unless the same one was accepted through this account within the item's window (then answers a
	 * skipped item: nothing silently disappears); records it once accepted. Sent without the shared store it asked
	 * for (unreachable, or this n8n has none), the item says so: `crossWorkerCheck: 'skipped'`.
	 */
	async sendOnce(itemIndex: number, event: EventIdentity, identifiers: IDataObject, deliver: () => Promise<IDataObject>): Promise<IDataObject> {
		const settings = this.settings[itemIndex];
		if (settings instanceof Error) throw settings;
		if (!settings?.enabled || !this.processStore) return await deliver();

		const key = eventKey(this.account, event);
		const stores = this.storesFor(settings);
		const dedupEvent: DedupEvent = { hash: key.hash, windowSeconds: settings.windowSeconds };
		const skipped = (why: IDataObject) => {
			this.skipped++;
			return { ...identifiers, skipped: true, reason: 'duplicate', dedupKey: key.label, ...why };
		};
		const held: DedupStore[] = [];
		for (const store of stores) {
			const verdict = await store.claim(dedupEvent);
			if (verdict.outcome === 'free') {
				held.push(store);
			} else if (verdict.outcome === 'sent') {
				// Sent through this process: a claim another store holds for it is that send's record.
				for (const other of stores) if (other !== store) other.accepted(dedupEvent, verdict.sentAt);
				return skipped({ firstSentAt: new Date(verdict.sentAt * 1000).toISOString() });
			} else {
				for (const other of held) await other.release(dedupEvent);
				return skipped({ claimedBy: 'another execution' });
			}
		}

		let output: IDataObject | undefined;
		try {
			output = await deliver();
		} finally {
			// Not accepted: the claims go, so a waiting execution or the next try sends the event.
			if (output === undefined) for (const store of stores) await store.release(dedupEvent);
		}
		const sentAt = this.nowSeconds();
		for (const store of stores) store.accepted(dedupEvent, sentAt);
		if (!settings.acrossProcesses || (this.sharedStore && !this.sharedStore.isUnavailable)) return output;
		this.sentWithoutSharedStore++;
		return { ...output, crossWorkerCheck: 'skipped' };
	}

	/** What the process store found worth telling at `finish` (its hints). */
	get storeHints(): NodeExecutionHint[] {
		return this.processStore?.hints ?? [];
	}

	/** Saves what the run recorded and drops the claims it still holds (the router runs it even after a failure). */
	async finish(): Promise<void> {
		try {
			await this.processStore?.finish();
		} finally {
			await this.sharedStore?.finish();
		}
	}

	private storesFor(settings: DedupSettings): DedupStore[] {
		const stores: DedupStore[] = [];
		if (this.processStore) stores.push(this.processStore);
		if (settings.acrossProcesses && this.sharedStore) stores.push(this.sharedStore);
		return stores;
	}

	/** Claims, before the sends, the events of the items that ask for the shared store and the memory does not know. */
	private async claimAll(eventOf: (itemIndex: number) => EventIdentity): Promise<void> {
		let open: DedupEvent[] = [];
		this.settings.forEach((settings, itemIndex) => {
			if (settings instanceof Error || !settings.enabled || !settings.acrossProcesses) return;
			try {
				open.push({ hash: eventKey(this.account, eventOf(itemIndex)).hash, windowSeconds: settings.windowSeconds });
			} catch {
				// That item reports its own bad input when it runs.
			}
		});
		for (const store of [this.processStore, this.sharedStore]) if (store) open = await store.claimAll(open);
	}
}

/**
 * The run's account, from its transport session unless the run claims across processes first (a session opened
 * before the claim's pause would hold an ageing token). Undefined when the credential is unusable: sends report it.
 */
async function readAccount(ctx: IExecuteFunctions, beforeAPause: boolean): Promise<string | undefined> {
	try {
		return accountWithoutPasswordKey(beforeAPause ? await ctx.getCredentials(CREDENTIAL_TYPE) : (await getSession(ctx)).data);
	} catch {
		return undefined;
	}
}

/** Forgets all that this process holds (memory, claims, write-backs): a restarted process, for tests. */
export function forgetProcessState(): void {
	forgetProcessMemory();
	forgetSharedState();
}

export { MAX_SENT_KEYS, SAVED_PROPERTY } from './processStore';
export { SHARED_MAX_VALUES } from './sharedStore';
