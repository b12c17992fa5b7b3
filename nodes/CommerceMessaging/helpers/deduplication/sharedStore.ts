import { randomBytes } from 'crypto';
import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';

import type { CappedMap } from '../../../../transport/processState';
import { pause } from '../../../../transport/pacing';
import { SHARED_STORE_CALLS_KEPT, sharedLeftoversToRepeat, sharedRecordsToRepeat, sharedStoreCallTimes } from '../processState';
import type { DedupEvent, DedupStore, Verdict } from './index';

/**
 * Claims in n8n's database-backed deduplication store (`checkProcessedAndRecord` / `removeProcessed`, the store
 * of the Remove Duplicates node), which every process of an n8n instance shares: what keeps queue-mode workers
 * apart. Used only for items with Deduplicate Across Workers on, since it costs a pause and three database calls
 * per run.
 *
 * The store keeps one row per node: a list of values, each hashed to 24 characters. Every call reads the row and
 * writes it back whole, so a call can undo another made at the same time. The protocol is Fischer's mutual
 * exclusion over that one row: a run writes its events' records and a token of its own in one call, pauses longer
 * than such a call takes, and reads back. Its token still there: its write survived, the events are its to send.
 * Its token gone and an event's record there: another execution's claim overwrote this one, which yields. Both
 * gone: it claims again. It fails when a call takes longer than the pause from reading the row to writing it, so
 * the pause grows with the slowest call this process has seen.
 *
 * The store keeps no times, so the window is kept in the values: an event is recorded in the window-long period of
 * its send, and looked for in the period of now and the one before. Across processes an accepted event therefore
 * blocks its repeats for at least the window and less than twice the window.
 */

/** Values kept in the node's row: at 27 bytes each (24 characters, quotes, comma), under 100 KB of JSON. */
export const SHARED_MAX_VALUES = 3_600;

const OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: SHARED_MAX_VALUES };

/** The shortest pause between a claim and its read-back, plus up to as much again at random (ms). */
const SETTLE_MS = 300;
/** The pause is at least twice the slowest of this process's last store calls, and at most SETTLE_MAX_MS. */
const SETTLE_PER_CALL = 2;
const SETTLE_MAX_MS = 1_500;
/**
 * Read-backs of a claim nobody holds any more (every write of it was overwritten) before sending anyway: fewer
 * left claims unconfirmed in the queue test's bursts (docs/deduplication.md).
 */
const MAX_ROUNDS = 5;

function settleTime(): { ms: number; slowestCallMs: number } {
	const slowestCallMs = Math.max(0, ...sharedStoreCallTimes);
	const base = Math.min(SETTLE_MAX_MS, Math.max(SETTLE_MS, SETTLE_PER_CALL * slowestCallMs));
	return { ms: base + Math.floor(Math.random() * base), slowestCallMs };
}

/** How long this process writes back the records of events it sent (or removes leftovers again), at most how many per node. */
const REPEAT_MS = 10 * 60_000;
const REPEAT_MAX_VALUES = 500;

/*
 * Per node, in helpers/processState.ts: the records of events this process sent lately, written back with every
 * store call of this process (a call that read the row before a record was written and writes after its sender
 * read it back drops it), and the values it removed that can never become a record again (tokens, probes of a
 * period already past), removed again with each of its removals (a call that read the row before a removal and
 * writes after it puts them back).
 */
const recentRecords = sharedRecordsToRepeat;
const recentLeftovers = sharedLeftoversToRepeat;

/** Forgets what this process writes back or removes again and how slow its calls were: a restarted process, for tests. */
export function forgetSharedState(): void {
	recentRecords.clear();
	recentLeftovers.clear();
	sharedStoreCallTimes.length = 0;
}

function remember(byNode: CappedMap<string, Map<string, number>>, nodeKey: string, values: Iterable<string>, now = Date.now()): void {
	let kept = byNode.get(nodeKey);
	if (!kept) byNode.set(nodeKey, (kept = new Map()));
	for (const value of values) {
		kept.delete(value);
		kept.set(value, now + REPEAT_MS);
	}
	while (kept.size > REPEAT_MAX_VALUES) kept.delete(kept.keys().next().value as string);
}

/** The values to write back (or remove again) with a call, but those it already carries; expired ones go. */
function toRepeat(byNode: CappedMap<string, Map<string, number>>, nodeKey: string, carried: Set<string>, now = Date.now()): string[] {
	const kept = byNode.get(nodeKey);
	if (!kept) return [];
	const out: string[] = [];
	for (const [value, until] of kept) {
		if (until <= now) kept.delete(value);
		else if (!carried.has(value)) out.push(value);
	}
	return out;
}

/** The record of an event sent now, and the probe for a send in the period before. */
export function sharedValues(event: DedupEvent, nowSeconds: number): { record: string; probe: string } {
	const period = Math.floor(nowSeconds / event.windowSeconds);
	const value = (p: number) => `${event.hash}|${event.windowSeconds}|${p}`;
	return { record: value(period), probe: value(period - 1) };
}

interface Claim {
	event: DedupEvent;
	record: string;
	probe: string;
}

export class SharedStore implements DedupStore {
	/** Events this run holds: it sends them, or releases them. */
	private readonly owned = new Map<string, Claim>();
	private readonly sent = new Set<string>();
	private readonly released = new Set<string>();

	/** Values that are not records of a send: this run's tokens, and probes that found nothing. Removed at the end. */
	private readonly leftovers = new Set<string>();

	/** The leftovers that can never be a record (tokens, probes of the period before): removed again later too. */
	private readonly spent = new Set<string>();

	/** Set once a call failed: the run goes on with the process store alone. */
	private unavailable = false;

	/** Whether a call of this run reached the store (then its leftovers are removed even after a later failure). */
	private wrote = false;

	private readonly runToken = randomBytes(6).toString('base64url');
	private claims = 0;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly nodeKey: string,
		private readonly nowSeconds: () => number,
	) {}

	/** Undefined where n8n offers no store (a workflow without an id, an engine without a database). */
	static open(ctx: IExecuteFunctions, nodeKey: string, nowSeconds: () => number): SharedStore | undefined {
		if (!ctx.getWorkflow().id || typeof ctx.helpers.checkProcessedAndRecord !== 'function') return undefined;
		return new SharedStore(ctx, nodeKey, nowSeconds);
	}

	async claimAll(events: DedupEvent[]): Promise<DedupEvent[]> {
		await this.tryClaim(events);
		return events;
	}

	async claim(event: DedupEvent): Promise<Verdict> {
		if (!this.owned.has(event.hash) && !this.unavailable) await this.tryClaim([event]);
		return this.owned.has(event.hash) || this.unavailable ? { outcome: 'free' } : { outcome: 'claimed' };
	}

	/** Whether a call failed: the run then goes on with this process's own check only. */
	get isUnavailable(): boolean {
		return this.unavailable;
	}

	accepted(event: DedupEvent): void {
		const claim = this.owned.get(event.hash);
		if (!claim || this.sent.has(event.hash)) return;
		this.sent.add(event.hash);
		remember(recentRecords, this.nodeKey, [claim.record]);
	}

	/** At once, so another execution (or a retry) may send the event. */
	async release(event: DedupEvent): Promise<void> {
		const claim = this.owned.get(event.hash);
		if (!claim || this.sent.has(event.hash) || this.released.has(event.hash)) return;
		this.released.add(event.hash);
		await this.remove([claim.record]);
	}

	/** Removes, in one call, the claims of events the run never sent, its tokens and the probes that found nothing. */
	async finish(): Promise<void> {
		const values = new Set(this.leftovers);
		for (const [hash, claim] of this.owned) if (!this.sent.has(hash) && !this.released.has(hash)) values.add(claim.record);
		this.owned.clear();
		this.leftovers.clear();
		if (values.size > 0 && this.wrote) await this.remove([...values]);
		remember(recentLeftovers, this.nodeKey, this.spent);
		this.spent.clear();
	}

	/** Claims the events this run does not hold yet: one call, then a pause and a read-back per round. */
	private async tryClaim(events: DedupEvent[]): Promise<void> {
		const now = this.nowSeconds();
		const batch = new Map<string, Claim>();
		for (const event of events) {
			if (!this.owned.has(event.hash) && !batch.has(event.hash)) batch.set(event.hash, { event, ...sharedValues(event, now) });
		}
		if (batch.size === 0 || this.unavailable) return;
		const token = `#${this.runToken}.${++this.claims}`;
		// Probes first: where a batch is larger than the row, n8n keeps the newest values, the records and the token.
		const claims = [...batch.values()];
		const first = await this.call([...claims.map((claim) => claim.probe), ...claims.map((claim) => claim.record), token]);
		if (!first) return this.ownAll(batch);
		this.leftovers.add(token);
		this.spent.add(token);
		const taken = new Set(first.processed.map(String));
		const pending = new Map<string, Claim>();
		for (const [hash, claim] of batch) {
			const found = taken.has(claim.record) || taken.has(claim.probe);
			// Values this call wrote that hold no send: for an event found, what it did not find; else the probe.
			for (const value of found ? [claim.record, claim.probe] : [claim.probe]) if (!taken.has(value)) this.leftovers.add(value);
			if (!found) {
				pending.set(hash, claim);
				this.spent.add(claim.probe);
			}
		}
		try {
			await this.readBack(token, pending);
		} finally {
			// Cancelled during the pause: claims not decided yet are removed with the leftovers at the end.
			for (const claim of pending.values()) this.leftovers.add(claim.record);
		}
	}

	/** Pauses and reads back until every pending claim is decided, taking each decided one out of `pending`. */
	private async readBack(token: string, pending: Map<string, Claim>): Promise<void> {
		for (let round = 1; pending.size > 0; round++) {
			const settle = settleTime();
			this.ctx.logger?.debug('Deduplication: claim pause before the read-back', { node: this.ctx.getNode().name, ...settle });
			await pause(this.ctx, settle.ms);
			const check = await this.call([token, ...[...pending.values()].map((claim) => claim.record)]);
			const present = new Set((check?.processed ?? []).map(String));
			for (const [hash, claim] of pending) {
				const survived = !check || present.has(token);
				// Its record there without this run's token: another execution's claim overwrote this one.
				const overwritten = !survived && present.has(claim.record);
				// Else every write of the claim was overwritten and this read-back wrote it again: read back again.
				if (!survived && !overwritten && round < MAX_ROUNDS) continue;
				if (!overwritten) this.owned.set(hash, claim);
				if (!survived && !overwritten) {
					this.ctx.logger?.debug('Deduplication: a claim taken without a confirming read-back', { node: this.ctx.getNode().name, round });
				}
				pending.delete(hash);
			}
		}
	}

	/** Claims that could not be read back are taken as held: the store failing must not lose events. */
	private ownAll(claims: Map<string, Claim>): void {
		for (const [hash, claim] of claims) this.owned.set(hash, claim);
	}

	/** One store call (check and record); undefined when the store failed twice (the run goes on without it). */
	private async call(values: string[]): Promise<{ processed: unknown[] } | undefined> {
		const asked = new Set(values);
		for (let attempt = 0; ; attempt++) {
			const started = Date.now();
			try {
				// Two executions creating the node's first row at once: one insert fails, the retry updates it.
				const result = await this.ctx.helpers.checkProcessedAndRecord(
					[...values, ...toRepeat(recentRecords, this.nodeKey, asked)],
					'node',
					OPTIONS,
				);
				this.wrote = true;
				sharedStoreCallTimes.push(Date.now() - started);
				if (sharedStoreCallTimes.length > SHARED_STORE_CALLS_KEPT) sharedStoreCallTimes.shift();
				// What the write-backs found is not this call's answer.
				return { processed: result.processed.filter((value) => asked.has(String(value))) };
			} catch (error) {
				if (attempt >= 1) {
					this.unavailable = true;
					this.ctx.logger?.warn('Deduplication: n8n\'s shared store failed, this run deduplicates in its own process only', {
						node: this.ctx.getNode().name,
						reason: error instanceof Error ? error.message.split('\n')[0] : String(error),
					});
					return undefined;
				}
			}
		}
	}

	private async remove(values: string[]): Promise<void> {
		try {
			await this.ctx.helpers.removeProcessed([...values, ...toRepeat(recentLeftovers, this.nodeKey, new Set(values))], 'node', OPTIONS);
		} catch (error) {
			// The claim stays: the event is blocked for its window rather than sent twice.
			this.ctx.logger?.warn('Deduplication: a claim could not be released in n8n\'s shared store', {
				node: this.ctx.getNode().name,
				reason: error instanceof Error ? error.message.split('\n')[0] : String(error),
			});
		}
	}
}
