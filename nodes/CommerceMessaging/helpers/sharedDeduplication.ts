import type { IExecuteFunctions, ICheckProcessedOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * Rule V4 across n8n processes (queue mode: a main and several workers). Workflow static data cannot keep workers
 * apart: each execution loads its own copy and the last one saved wins. n8n's database-backed deduplication
 * helpers (`checkProcessedAndRecord` / `removeProcessed`, the store of the Remove Duplicates node) are shared by
 * every process of an instance, so an execution claims its event keys there for all its items at once before it
 * sends, and removes the claim of an event the service did not accept or the run never reached.
 *
 * What the store cannot do: n8n reads its row and writes it back whole, so calls made at the same time can undo
 * each other (see SharedClaims). The README gives the measured residual ("Scaling out").
 *
 * The store keeps hashes without times, so the window is kept in the values: an event is recorded in the
 * window-long period of its send and found while now is in that period or the next one. Across processes an
 * accepted event therefore blocks its repeats for at least the window and less than twice the window.
 */

/** Store values kept per node: three per sent event (its two periods and a claim token), ~MAX_SENT_KEYS events. */
export const SHARED_MAX_ENTRIES = 30_000;

const OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: SHARED_MAX_ENTRIES };

/** How long a claim settles before it is read back, plus up to as much again at random (ms). */
export const SETTLE_MS = 300;
/** Read-backs of a claim nobody holds any more (every write of it was overwritten) before sending anyway. */
const MAX_ROUNDS = 3;

/** How long this process keeps writing back the records of events it sent, and at most how many values per node. */
const REASSERT_MS = 10 * 60_000;
const REASSERT_MAX_VALUES = 2_000;

/**
 * Per node (workflow id + node id): the record values of events this process sent lately, and until when to write
 * them back. A call that read the row before a record was written and writes after its sender read it back drops
 * it (a CI run let 1 of 100 repeats through that way); every store call of this process writes them again.
 */
const recentRecords = new Map<string, Map<string, number>>();

/** Forgets the records this process writes back: a restarted process, for tests. */
export function resetRecentRecords(): void {
	recentRecords.clear();
}

function rememberRecords(nodeKey: string, values: string[], now = Date.now()): void {
	let records = recentRecords.get(nodeKey);
	if (!records) recentRecords.set(nodeKey, (records = new Map()));
	for (const value of values) {
		records.delete(value);
		records.set(value, now + REASSERT_MS);
	}
	while (records.size > REASSERT_MAX_VALUES) records.delete(records.keys().next().value as string);
}

/** The records to write back with a call (not those the call already carries); expired ones are forgotten. */
function recordsToReassert(nodeKey: string, carried: Set<string>, now = Date.now()): string[] {
	const records = recentRecords.get(nodeKey);
	if (!records) return [];
	const out: string[] = [];
	for (const [value, until] of records) {
		if (until <= now) records.delete(value);
		else if (!carried.has(value)) out.push(value);
	}
	return out;
}

/** The store values of one event key for a window: its period now and the previous one. */
export function sharedValues(hash: string, windowSeconds: number, nowSeconds: number): [string, string] {
	const period = Math.floor(nowSeconds / windowSeconds);
	return [`${hash}|${windowSeconds}|${period}`, `${hash}|${windowSeconds}|${period - 1}`];
}

export interface SharedKey {
	hash: string;
	windowSeconds: number;
}

interface Values {
	/** The event in its period now and in the previous one. */
	record: [string, string];
	/** This execution's own mark beside it: it survives only if no other write overwrote this one. */
	token: string;
}

const pause = async (ms: number) => await sleep(ms);
const settleTime = () => SETTLE_MS + Math.floor(Math.random() * SETTLE_MS);

/**
 * The claims one execution of the node holds in n8n's shared store. n8n keeps one row per node and every call
 * writes the whole row back, so a write can undo another made at the same time. Hence: claim (the event and a
 * token of this execution), wait, read back: the token still there means this claim won; the event there without
 * it means another execution's claim did. After the sends, the records are read back once more and written again
 * where an overlapping write dropped them.
 */
export class SharedClaims {
	/** Hashes this execution holds: it sends them, or releases the claim. */
	private readonly owned = new Map<string, Values>();

	/** Owned hashes the service accepted. */
	private readonly sent = new Set<string>();

	/** Owned hashes whose claim was released after a failed send. */
	private readonly released = new Set<string>();

	private readonly runToken = Math.random().toString(36).slice(2, 10);

	/** The node's row in n8n's store, as this process's write-backs know it. */
	private readonly nodeKey: string;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly nowSeconds: () => number,
	) {
		this.nodeKey = `${ctx.getWorkflow().id ?? ''}|${ctx.getNode().id ?? ctx.getNode().name}`;
	}

	/**
	 * Claims the keys (a few store calls for all of them). Undefined when n8n offers no store here (a workflow
	 * without an id, an engine without a database) or it failed: the node then deduplicates with static data alone.
	 */
	static async claim(
		ctx: IExecuteFunctions,
		keys: SharedKey[],
		nowSeconds: () => number,
	): Promise<SharedClaims | undefined> {
		const claims = new SharedClaims(ctx, nowSeconds);
		const unique = new Map<string, Values>();
		for (const key of keys) if (!unique.has(key.hash)) unique.set(key.hash, claims.valuesOf(key));
		if (!(await claims.tryClaim(unique))) return undefined;
		return claims;
	}

	/** Whether this execution holds the claim of `hash` now, claiming it if it was not asked yet. */
	async holds(hash: string, windowSeconds: number): Promise<boolean> {
		if (this.owned.has(hash)) return true;
		await this.tryClaim(new Map([[hash, this.valuesOf({ hash, windowSeconds })]]));
		return this.owned.has(hash);
	}

	/** The service accepted the event: its record stays. */
	accepted(hash: string): void {
		const values = this.owned.get(hash);
		if (!values) return;
		this.sent.add(hash);
		rememberRecords(this.nodeKey, values.record);
	}

	/** The send failed: the claim goes at once, so another execution (or a retry) may send the event. */
	async failed(hash: string): Promise<void> {
		const values = this.owned.get(hash);
		if (!values || this.sent.has(hash) || this.released.has(hash)) return;
		this.released.add(hash);
		await this.remove([...values.record, values.token]);
	}

	/**
	 * The run ends: claims of events it never sent go, and the records of the sent ones are read back after a
	 * moment and written again where an overlapping write dropped them.
	 */
	async finish(): Promise<void> {
		const unsent: string[] = [];
		const kept: string[] = [];
		for (const [hash, values] of this.owned) {
			if (this.sent.has(hash)) kept.push(...values.record);
			else if (!this.released.has(hash)) unsent.push(...values.record, values.token);
		}
		this.owned.clear();
		if (unsent.length > 0) await this.remove(unsent);
		for (let round = 0; round < MAX_ROUNDS - 1 && kept.length > 0; round++) {
			await pause(settleTime());
			const result = await this.call(kept);
			// The call wrote the dropped ones again; read back once more only if there were any.
			if (!result || result.new.length === 0) break;
			this.ctx.logger?.debug('Deduplication: records written again in n8n\'s shared store', {
				node: this.ctx.getNode().name,
				count: result.new.length,
			});
		}
	}

	private valuesOf(key: SharedKey): Values {
		const record = sharedValues(key.hash, key.windowSeconds, this.nowSeconds());
		return { record, token: `${record[0]}#${this.runToken}` };
	}

	/** Claims and reads back; false when the store is not available. */
	private async tryClaim(keys: Map<string, Values>): Promise<boolean> {
		if (keys.size === 0) return true;
		const first = await this.call([...keys.values()].flatMap((v) => [...v.record, v.token]));
		if (!first) return false;
		const taken = new Set(first.processed.map(String));
		const phantoms: string[] = [];
		let pending = new Map<string, Values>();
		for (const [hash, values] of keys) {
			if (values.record.some((value) => taken.has(value))) {
				phantoms.push(...[...values.record, values.token].filter((value) => !taken.has(value)));
			} else {
				pending.set(hash, values);
			}
		}
		for (let round = 1; pending.size > 0; round++) {
			await pause(settleTime());
			const check = await this.call([...pending.values()].flatMap((v) => [v.token, v.record[0]]));
			if (!check) break;
			const present = new Set(check.processed.map(String));
			const next = new Map<string, Values>();
			for (const [hash, values] of pending) {
				if (present.has(values.token)) this.owned.set(hash, values);
				else if (present.has(values.record[0])) phantoms.push(values.token);
				else if (round >= MAX_ROUNDS) this.owned.set(hash, values);
				// Else every write of this claim was overwritten (this read-back wrote it again): read back again.
				else next.set(hash, values);
			}
			pending = next;
		}
		// Claims that could not be read back are taken as held: the store failing must not lose events.
		for (const [hash, values] of pending) this.owned.set(hash, values);
		if (phantoms.length > 0) await this.remove(phantoms);
		return true;
	}

	/** One store call (check and record); undefined when the store is not available or failed twice. */
	private async call(values: string[]): Promise<{ new: unknown[]; processed: unknown[] } | undefined> {
		for (let attempt = 0; ; attempt++) {
			try {
				// Two executions creating the node's first row at once: one insert fails, the retry updates it.
				const asked = new Set(values);
				const result = await this.ctx.helpers.checkProcessedAndRecord(
					[...values, ...recordsToReassert(this.nodeKey, asked)],
					'node',
					OPTIONS,
				);
				// What the write-backs found is not this call's answer.
				return {
					new: result.new.filter((value) => asked.has(String(value))),
					processed: result.processed.filter((value) => asked.has(String(value))),
				};
			} catch (error) {
				if (attempt >= 1 || !this.storeExists()) {
					this.ctx.logger?.debug('Deduplication: n8n\'s shared store is not available, static data only', {
						node: this.ctx.getNode().name,
						reason: error instanceof Error ? error.message.split('\n')[0] : String(error),
					});
					return undefined;
				}
			}
		}
	}

	private storeExists(): boolean {
		return Boolean(this.ctx.getWorkflow().id) && typeof this.ctx.helpers.checkProcessedAndRecord === 'function';
	}

	private async remove(values: string[]): Promise<void> {
		try {
			await this.ctx.helpers.removeProcessed(values, 'node', OPTIONS);
		} catch (error) {
			// The claim stays: the event is blocked for its window rather than sent twice.
			this.ctx.logger?.warn('Deduplication: a claim could not be released in n8n\'s shared store', {
				node: this.ctx.getNode().name,
				reason: error instanceof Error ? error.message.split('\n')[0] : String(error),
			});
		}
	}
}
