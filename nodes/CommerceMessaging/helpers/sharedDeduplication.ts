import type { IExecuteFunctions, ICheckProcessedOptions } from 'n8n-workflow';

/**
 * Rule V4 across n8n processes (queue mode: a main and several workers). Workflow static data cannot keep workers
 * apart: each execution loads its own copy and the last one saved wins. n8n's database-backed deduplication
 * helpers (`checkProcessedAndRecord` / `removeProcessed`, the store of the Remove Duplicates node) are shared by
 * every process of an instance, so an execution records ("claims") its event keys there in ONE call before it
 * sends, and removes the claim of an event the service did not accept.
 *
 * What the store cannot do: n8n reads its row and writes it back, so two executions claiming the same key at
 * the same instant can both find it free. The README gives the measured residual ("Scaling out").
 *
 * The store keeps hashes without times, so the window is kept in the values: an event is recorded in the
 * window-long period of its send and found while now is in that period or the next one. Across processes an
 * accepted event therefore blocks its repeats for at least the window and less than twice the window.
 */

/** Store values kept per node: two per sent event (its period and the one before), like MAX_SENT_KEYS events. */
export const SHARED_MAX_ENTRIES = 20_000;

const OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: SHARED_MAX_ENTRIES };

/** The store values of one event key for a window: its period now and the previous one. */
export function sharedValues(hash: string, windowSeconds: number, nowSeconds: number): [string, string] {
	const period = Math.floor(nowSeconds / windowSeconds);
	return [`${hash}|${windowSeconds}|${period}`, `${hash}|${windowSeconds}|${period - 1}`];
}

export interface SharedKey {
	hash: string;
	windowSeconds: number;
}

/** The claims one execution of the node holds in n8n's shared store. */
export class SharedClaims {
	/** Hashes this execution claimed: it sends them, or releases the claim. */
	private readonly owned = new Map<string, [string, string]>();

	/** Owned hashes whose outcome is settled (accepted, or released after a failure). */
	private readonly settled = new Set<string>();

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly nowSeconds: () => number,
	) {}

	/**
	 * Claims the keys in one store call. Undefined when n8n offers no store here (a workflow without an id, an
	 * engine without a database) or the store failed twice: the node then deduplicates with its static data alone.
	 */
	static async claim(
		ctx: IExecuteFunctions,
		keys: SharedKey[],
		nowSeconds: () => number,
	): Promise<SharedClaims | undefined> {
		const claims = new SharedClaims(ctx, nowSeconds);
		const unique = new Map<string, [string, string]>();
		for (const key of keys) {
			if (!unique.has(key.hash)) unique.set(key.hash, sharedValues(key.hash, key.windowSeconds, nowSeconds()));
		}
		if (!(await claims.tryClaim(unique))) return undefined;
		return claims;
	}

	/** Whether this execution holds the claim of `hash` now, claiming it (one store call) if it was not asked yet. */
	async holds(hash: string, windowSeconds: number): Promise<boolean> {
		if (this.owned.has(hash)) return true;
		const values = new Map([[hash, sharedValues(hash, windowSeconds, this.nowSeconds())]]);
		await this.tryClaim(values);
		return this.owned.has(hash);
	}

	/** The service accepted the event: its claim stays as the shared record of the send. */
	accepted(hash: string): void {
		this.settled.add(hash);
	}

	/** The send failed: the claim goes at once, so another execution (or a retry) may send the event. */
	async failed(hash: string): Promise<void> {
		const values = this.owned.get(hash);
		if (!values || this.settled.has(hash)) return;
		this.settled.add(hash);
		this.owned.delete(hash);
		await this.remove(values);
	}

	/** The run ends: claims of events it never sent (the run stopped before them) go in one store call. */
	async finish(): Promise<void> {
		const unsent: string[] = [];
		for (const [hash, values] of this.owned) if (!this.settled.has(hash)) unsent.push(...values);
		this.owned.clear();
		if (unsent.length > 0) await this.remove(unsent);
	}

	/** One store call for all keys; values recorded for keys found taken are removed again. */
	private async tryClaim(keys: Map<string, [string, string]>): Promise<boolean> {
		if (keys.size === 0) return true;
		const all = [...keys.values()].flat();
		let result: { new: unknown[]; processed: unknown[] } | undefined;
		for (let attempt = 0; attempt < 2 && !result; attempt++) {
			try {
				// Two executions creating the node's first row at once: one insert fails, the retry updates it.
				result = await this.ctx.helpers.checkProcessedAndRecord(all, 'node', OPTIONS);
			} catch (error) {
				if (attempt === 1 || !this.storeExists()) {
					this.ctx.logger?.debug('Deduplication: n8n\'s shared store is not available, static data only', {
						node: this.ctx.getNode().name,
						reason: error instanceof Error ? error.message.split('\n')[0] : String(error),
					});
					return false;
				}
			}
		}
		if (!result) return false;
		const taken = new Set(result.processed.map(String));
		const mistaken: string[] = [];
		for (const [hash, values] of keys) {
			if (values.some((value) => taken.has(value))) {
				mistaken.push(...values.filter((value) => !taken.has(value)));
			} else {
				this.owned.set(hash, values);
			}
		}
		if (mistaken.length > 0) await this.remove(mistaken);
		return true;
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
