import { randomBytes } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

import { pause } from '../../../transport/request';

/**
 * Deduplicate Across Workers: claims in n8n's database-backed deduplication store (`checkProcessedAndRecord` /
 * `removeProcessed`, the store of the Remove Duplicates node), which every process of an n8n instance shares. Only
 * for items with the option on: it costs a pause and three database calls per run.
 *
 * The store keeps one row per node, a list of values hashed to 24 characters; every call reads the row and writes it
 * back whole, so a call can undo another made at the same time. The protocol is Fischer's mutual exclusion over that
 * row: a run writes its events' records and a token of its own in one call, pauses longer than such a call takes,
 * and reads back. Its token still there: its write survived, the events are its own. Its token gone and an event's
 * record there: another execution's claim overwrote this one, or a row read before brought back the claim of one that
 * has given the event up; it yields unless another execution's yield mark is there. Both gone: it claims again. It
 * fails when a call takes longer than the pause from reading the row to writing it, so the pause grows with the
 * slowest call.
 *
 * The store keeps no times, so the window is kept in the values: an event is recorded in the window-long period of
 * its send and looked for in the period of now and the one before; across processes a repeat is blocked for at least
 * the window and less than twice the window.
 */

/**
 * The store keeps at most `maxEntries` values in the node's row (each n8n's hash as JSON): a row small enough to read
 * and write per call.
 */
const OPTIONS = { mode: 'entries', maxEntries: 3_600 } as const;

/** The pause between a claim and its read-back: at least SETTLE_MS and twice the slowest of the last CALLS_KEPT calls, at most SETTLE_MAX_MS, plus up to as much again at random. */
const SETTLE_MS = 300;
const SETTLE_MAX_MS = 1_500;
const CALLS_KEPT = 10;
/** Read-backs of a claim nobody holds any more before sending anyway (fewer left claims unconfirmed in queue-mode bursts: docs/deduplication.md). */
const MAX_ROUNDS = 5;
/**
 * How long a process writes back the records of events it sent (a call that read the row before a record was written
 * and writes after its sender read it back drops it), and removes again the values it removed that can never be a
 * record (a call that read the row before a removal and writes after it puts them back); at most how many per node.
 */
const REPEAT_MS = 10 * 60_000;
const REPEAT_MAX_VALUES = 500;

/** What a process keeps of a node's row between runs: the values to write back, those to remove again, the last calls' times. */
export interface SharedHistory {
	writeBack: Map<string, number>;
	removeAgain: Map<string, number>;
	callTimes: number[];
}

function remember(kept: Map<string, number>, values: Iterable<string>) {
	for (const value of values) {
		kept.delete(value);
		kept.set(value, Date.now() + REPEAT_MS);
	}
	while (kept.size > REPEAT_MAX_VALUES) kept.delete(kept.keys().next().value as string);
}

/** A call's values, then those to write back (or remove again) with it that it does not carry already; expired ones go. */
function withRepeats(kept: Map<string, number>, values: string[]) {
	for (const [value, until] of kept) if (until <= Date.now()) kept.delete(value);
	const carried = new Set(values);
	return [...values, ...[...kept.keys()].filter((value) => !carried.has(value))];
}

/** The record of an event sent now (its window-long period), and the probe for a send in the period before. */
export function sharedValues(hash: string, windowSeconds: number, nowSeconds: number) {
	const period = Math.floor(nowSeconds / windowSeconds);
	return {
		record: `${hash}|${windowSeconds}|${period}`,
		probe: `${hash}|${windowSeconds}|${period - 1}`,
	};
}

/** The mark an execution leaves on an event it gave up to another. */
const yieldMark = (claim: { record: string }) => `${claim.record}|yielded`;

export class SharedClaims {
	/** Events this run holds and has not sent or released yet: their record and probe, by event hash. */
	private readonly owned = new Map<string, ReturnType<typeof sharedValues>>();
	/**
	 * Values that hold no send: this run's tokens, and what its claims wrote beside a send found. Removed at the end.
	 * Empty until a call reached the store: the first call that does leaves its token here.
	 */
	private readonly toRemove = new Set<string>();
	/** Those of them that can never be a record (tokens, probes of the period before): removed again later too. */
	private readonly removeAgain = new Set<string>();
	/** Events this run gave up to another execution: it does not claim them again. */
	private readonly gaveUp = new Set<string>();
	/** Set once a call failed: the run goes on with this process's own check only. */
	unavailable = false;

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly history: SharedHistory,
	) {}

	/** Claims the events this run does not hold yet: one call, then a pause and a read-back per round. */
	async claimAll(events: Array<{ hash: string; windowSeconds: number }>) {
		const now = Math.floor(Date.now() / 1000);
		// This call's claims not decided yet, by event hash.
		const pending = new Map(
			events
				.filter(({ hash }) => !this.owned.has(hash) && !this.gaveUp.has(hash))
				.map(({ hash, windowSeconds }) => [hash, sharedValues(hash, windowSeconds, now)]),
		);
		if (pending.size === 0 || this.unavailable) return;
		// A token of this claim alone: a later claim's read-back must not find an earlier one's.
		const token = `#${randomBytes(6).toString('base64url')}`;
		// Values this run wrote that hold no send (a probe, a claim beside a send found): found again, they are no send.
		const ownJunk = new Set(this.toRemove);
		const asked = new Map(pending);
		// Probes first: where a batch is larger than the row, n8n keeps the newest values, the records and the token.
		const claims = [...pending.values()];
		const written = await this.call([
			...claims.map((claim) => claim.probe),
			...claims.map((claim) => claim.record),
			token,
		]);
		// Claims that could not be read back are taken as held: the store failing must not lose events.
		if (!written) return void pending.forEach((claim, hash) => this.owned.set(hash, claim));
		const first = new Set([...written].filter((value) => !ownJunk.has(value)));
		this.toRemove.add(token);
		this.removeAgain.add(token);
		for (const [hash, claim] of pending) {
			const found = first.has(claim.record) || first.has(claim.probe);
			// Values this call wrote that hold no send: for an event found, what it did not find; else the probe.
			for (const value of found ? [claim.record, claim.probe] : [claim.probe])
				if (!first.has(value)) this.toRemove.add(value);
			// Found: another execution sent or holds the event, which is decided.
			if (found) pending.delete(hash);
			else this.removeAgain.add(claim.probe);
		}
		// The claims read back: a row read before may bring back the claim of an execution that has given the event up.
		const contested = new Map(pending);
		const node = this.ctx.getNode().name;
		try {
			// Pauses and reads back until every pending claim is decided, taking each decided one out of `pending`.
			for (let round = 1; pending.size > 0; round++) {
				const slowestCallMs = Math.max(0, ...this.history.callTimes);
				const ms = Math.floor(
					Math.min(SETTLE_MAX_MS, Math.max(SETTLE_MS, 2 * slowestCallMs)) * (1 + Math.random()),
				);
				this.ctx.logger?.debug('Deduplication: claim pause before the read-back', {
					node,
					ms,
					slowestCallMs,
				});
				await pause(this.ctx, ms);
				const present = await this.call([
					token,
					...[...pending.values()].map((claim) => claim.record),
				]);
				const survived = !present || present.has(token);
				for (const [hash, claim] of pending) {
					// Its record there without this run's token: another execution's claim overwrote this one, which yields.
					if (!survived && present.has(claim.record)) pending.delete(hash);
					// Its token there: the claim is this run's. Neither there: this read-back wrote the claim again, so it is
					// read back again, and after MAX_ROUNDS taken unconfirmed.
					else if (survived || round >= MAX_ROUNDS) {
						if (!survived)
							this.ctx.logger?.debug(
								'Deduplication: a claim taken without a confirming read-back',
								{
									node,
									round,
								},
							);
						this.owned.set(hash, claim);
						pending.delete(hash);
					}
				}
			}
			// An execution that gives an event up marks it, and one whose claim was overwritten gives it up only where no
			// other has yet: of two executions, one sends. The marks go again with this process's next calls.
			const givenUp = [...asked].filter(([hash]) => !this.owned.has(hash));
			const marks = givenUp.length
				? await this.call(givenUp.map(([, claim]) => yieldMark(claim)))
				: undefined;
			for (const [hash, claim] of givenUp)
				if (contested.has(hash) && marks?.has(yieldMark(claim))) this.owned.set(hash, claim);
				else {
					this.gaveUp.add(hash);
					remember(this.history.writeBack, [yieldMark(claim)]);
				}
		} finally {
			// Cancelled during the pause: claims not decided yet are removed at the end.
			for (const claim of pending.values()) this.toRemove.add(claim.record);
		}
	}

	/** Whether this run holds the event (claiming it now if not yet tried); false: another execution does. */
	async claim(hash: string, windowSeconds: number) {
		await this.claimAll([{ hash, windowSeconds }]);
		return this.owned.has(hash) || this.unavailable;
	}

	/** The event was sent: its claim is its record, written back with this process's next calls. */
	accepted(hash: string) {
		const claim = this.take(hash);
		if (claim) remember(this.history.writeBack, [claim.record]);
	}

	/**
	 * At once, so another execution (or a retry) may send the event: its record, and its probe, which a claim of the
	 * event would otherwise take for a send of the period before.
	 */
	async release(hash: string) {
		const claim = this.take(hash);
		if (claim) await this.remove([claim.record, claim.probe]);
	}

	/** The claim this run holds for the event, which it no longer holds. */
	private take(hash: string) {
		const claim = this.owned.get(hash);
		this.owned.delete(hash);
		return claim;
	}

	/**
	 * Removes, in one call, the claims of events the run never sent, its tokens and the probes that found nothing; only
	 * when a call reached the store.
	 */
	async finish() {
		if (this.toRemove.size > 0)
			await this.remove([
				...new Set([...this.toRemove, ...[...this.owned.values()].map((claim) => claim.record)]),
			]);
		remember(this.history.removeAgain, this.removeAgain);
	}

	/** One check-and-record call: the asked values found in the row; undefined when the store failed twice. */
	private async call(values: string[], retry = true): Promise<Set<string> | undefined> {
		const started = Date.now();
		try {
			const result = await this.ctx.helpers.checkProcessedAndRecord(
				withRepeats(this.history.writeBack, values),
				'node',
				OPTIONS,
			);
			const times = this.history.callTimes;
			if (times.push(Date.now() - started) > CALLS_KEPT) times.shift();
			// The write-backs exclude the asked values, so what they found never answers a question about those.
			return new Set(result.processed.map(String));
		} catch (error) {
			// Two executions creating the node's first row at once: one insert fails, the retry updates it.
			if (retry) return await this.call(values, false);
			this.unavailable = true;
			this.warn(
				"Deduplication: n8n's shared store failed, this run deduplicates in its own process only",
				error,
			);
			return undefined;
		}
	}

	private async remove(values: string[]) {
		await this.ctx.helpers
			.removeProcessed(withRepeats(this.history.removeAgain, values), 'node', OPTIONS)
			.catch((error) =>
				// The claim stays: the event is blocked for its window rather than sent twice.
				this.warn("Deduplication: a claim could not be released in n8n's shared store", error),
			);
	}

	private warn(message: string, error: unknown) {
		this.ctx.logger?.warn(message, {
			node: this.ctx.getNode().name,
			reason: error instanceof Error ? error.message.split('\n')[0] : String(error),
		});
	}
}
