import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE, getSession } from '../../../../transport';
import { acceptedOutput } from '../eventFields';
import { accountId, eventKey, type EventIdentity } from './eventKey';
import { forgetProcessMemory } from './processMemory';
import { ProcessStore } from './processStore';
import { readDedupSettings, type DedupSettings } from './settings';
import { forgetSharedState, SharedStore } from './sharedStore';
import type { DedupEvent, DedupStore } from './store';

/**
 * Rule V4: order and cart events are deduplicated on the client, so a retried item or a re-run workflow does not
 * send an event the service already accepted. Details and figures: docs/deduplication.md.
 *
 * The guarantee: an event (order id + status; cart id + total) that the service accepted through an account (the
 * credential's Base URL + username) is not sent through that account again within the item's window (24 h by
 * default); the item is output with `skipped: true` instead. An event is recorded only once the service accepted
 * it, so a failed send goes out on the next try and Retry On Fail sends only what did not get through. It holds
 * - within a run, and between runs of the node in one n8n process, also runs at the same time: the process
 *   memory (processMemory.ts), where a run claims an event before sending it and others wait for that send;
 * - across restarts: the memory's copy in the node's static data (processStore.ts), which n8n saves when an
 *   execution of an active workflow ends (not after manual runs);
 * - across n8n processes (queue-mode workers, several mains) only with Deduplicate Across Workers on: claims in
 *   n8n's database-backed store (sharedStore.ts), for a pause and three database calls per run.
 *
 * Its limits:
 * - the newest 10,000 events per node are kept (a key dropped inside its window is reported);
 * - n8n saves static data when an execution ends, and the last one saved wins; each copy holds what the process
 *   knew when its run ended, so after a restart the events recorded after that moment (by executions that ended
 *   before the last-saved one) can go out again;
 * - across processes: n8n's store is not atomic; two deliveries of one event at the same instant on two workers
 *   both go out when a store call takes longer than the claim's pause, and the store keeps the newest 3,600
 *   values (about one per event); older repeats are caught only where a worker's memory or static data has them.
 */

/** Everything one run's deduplication holds. Settings come from the caller (one read per item), keys from `send`. */
export class Deduplication {
	private constructor(
		private readonly settings: ReadonlyArray<DedupSettings | Error | undefined>,
		private readonly account: string,
		private readonly nowSeconds: () => number,
		private readonly processStore?: ProcessStore,
		private readonly sharedStore?: SharedStore,
	) {}

	/**
	 * Opens the stores the items need: none when deduplication is off for all of them (nothing is read or written),
	 * the process store, and n8n's shared store when an item has Deduplicate Across Workers on; then claims, in the
	 * shared store, the events (`eventOf`) of those items at once.
	 */
	static async start(
		ctx: IExecuteFunctions,
		options: {
			settings: ReadonlyArray<DedupSettings | Error | undefined>;
			eventOf?: (itemIndex: number) => EventIdentity;
			nowSeconds?: () => number;
		},
	): Promise<Deduplication> {
		const { settings } = options;
		const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
		const enabled = settings.filter((s): s is DedupSettings => !(s instanceof Error) && s?.enabled === true);
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
	 * Sends an event unless the same one was accepted through this account within the item's window (then answers
	 * with a skipped item, so nothing silently disappears), and records it once the service accepted it.
	 */
	async send(
		itemIndex: number,
		event: EventIdentity,
		identifiers: IDataObject,
		send: () => Promise<unknown>,
	): Promise<IDataObject> {
		const settings = this.settings[itemIndex];
		if (settings instanceof Error) throw settings;
		if (!settings?.enabled || !this.processStore) return acceptedOutput(await send(), identifiers);

		const key = eventKey(this.account, event);
		const stores = this.storesFor(settings);
		const dedupEvent: DedupEvent = { hash: key.hash, windowSeconds: settings.windowSeconds };
		const skipped = { ...identifiers, skipped: true, reason: 'duplicate', dedupKey: key.label };
		const held: DedupStore[] = [];
		for (const store of stores) {
			const verdict = await store.claim(dedupEvent);
			if (verdict.outcome === 'free') {
				held.push(store);
			} else if (verdict.outcome === 'sent') {
				// Sent through this process: a claim another store holds for it is that send's record.
				for (const other of stores) if (other !== store) other.accepted(dedupEvent, verdict.sentAt);
				return { ...skipped, firstSentAt: new Date(verdict.sentAt * 1000).toISOString() };
			} else {
				for (const other of held) await other.release(dedupEvent);
				return { ...skipped, claimedBy: 'another execution' };
			}
		}

		let data: unknown;
		let accepted = false;
		try {
			data = await send();
			accepted = true;
		} finally {
			// Not accepted: the claims go, so a waiting execution or the next try sends the event.
			if (!accepted) for (const store of stores) await store.release(dedupEvent);
		}
		const sentAt = this.nowSeconds();
		for (const store of stores) store.accepted(dedupEvent, sentAt);
		return acceptedOutput(data, identifiers);
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
			if (settings instanceof Error || !settings?.enabled || !settings.acrossProcesses) return;
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
 * The account the run's credential logs in to, read once. Usually from the run's transport session, whose read the
 * requests use too (in n8n 2.40.7 a `getCredentials` costs about 18 ms, as much as the rest of a one-event
 * execution). Not when the run claims across processes first: the session would then be read before the claim's
 * pause and hold a token that other workers may renew meanwhile (more logins), so it opens at the first request.
 * Undefined when the credential cannot be used (the sends then report why).
 */
async function readAccount(ctx: IExecuteFunctions, beforeAPause: boolean): Promise<string | undefined> {
	try {
		return accountId(beforeAPause ? await ctx.getCredentials(CREDENTIAL_TYPE) : (await getSession(ctx)).data);
	} catch {
		return undefined;
	}
}

/**
 * The `prepare` hook of a deduplicated push operation: each item's options read once, and, for the items that
 * claim in n8n's shared store, their events (`eventOf` reads the item's ids).
 */
export async function prepareDeduplication(
	ctx: IExecuteFunctions,
	itemCount: number,
	eventOf: (itemIndex: number) => EventIdentity,
): Promise<Deduplication> {
	const settings = Array.from({ length: itemCount }, (_, itemIndex) => readDedupSettings(ctx, itemIndex));
	return await Deduplication.start(ctx, { settings, eventOf });
}

/** Forgets all that this process holds (memory, claims, write-backs): a restarted process, for tests. */
export function forgetProcessState(): void {
	forgetProcessMemory();
	forgetSharedState();
}

/** The `finish` hook of a deduplicated push operation. */
export async function finishDeduplication(this: IExecuteFunctions, deduplication: Deduplication): Promise<void> {
	await deduplication.finish();
}

export { accountId, cartEvent, eventKey, normaliseTotal, orderEvent, type EventIdentity, type EventKey } from './eventKey';
export { DEFAULT_WINDOW_HOURS, dedupSettings, readDedupSettings, type DedupSettings } from './settings';
export { MAX_SENT_KEYS } from './sentEventLog';
export { SAVED_PROPERTY } from './processStore';
export { SHARED_MAX_VALUES } from './sharedStore';
