/**
 * Everything the transport keeps beyond one node run (the nodes' own: nodes/CommerceMessaging/helpers/
 * processState.ts). n8n runs every execution of every workflow in one process (or in each queue-mode worker), so
 * what lives here is shared by all of them: each entry says why it has to, and what bounds it. It imports nothing.
 */

/**
 * A Map of at most `capacity` entries: setting a key moves it to the newest end, and the oldest go once the capacity
 * is passed. `pinned` entries (e.g. a send in flight) never count as oldest, so a map full of them may exceed it.
 */
export class CappedMap<K, V> {
	private readonly entries = new Map<K, V>();

	constructor(
		readonly capacity: number,
		private readonly pinned: (value: V) => boolean = () => false,
	) {}

	get size(): number {
		return this.entries.size;
	}

	get(key: K): V | undefined {
		return this.entries.get(key);
	}

	set(key: K, value: V): this {
		this.entries.delete(key);
		this.entries.set(key, value);
		this.dropOldest(() => this.entries.size > this.capacity);
		return this;
	}

	delete(key: K): boolean {
		return this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}

	/** Oldest first. */
	[Symbol.iterator](): IterableIterator<[K, V]> {
		return this.entries[Symbol.iterator]();
	}

	/** Drops entries from the oldest end while `stillOver` says so (pinned ones are skipped). */
	dropOldest(stillOver: (key: K, value: V) => boolean): void {
		for (const [key, value] of this.entries) {
			if (!stillOver(key, value)) break;
			if (!this.pinned(value)) this.entries.delete(key);
		}
	}
}

/** When this process first held each token (rule A3: expiry by the local clock); a token outlives its run. Bound: 256 tokens. */
export const tokenFirstSeen = new CappedMap<string, number>(256);

/** The newest token this process received per account: runs holding an ageing token renew it once. Bound: 256 accounts. */
export const newestTokens = new CappedMap<string, { token: string; receivedAt: number }>(256);

/** The login under way per account, which other runs of this process wait for. Bound: each ends with its login. */
export const loginsUnderWay = new Map<string, Promise<void>>();

/** Which reading of a contradicted path each service serves, learned once. Bound: 256 Base URL and route pairs. */
export const learnedPaths = new CappedMap<string, string>(256);

/**
 * Per credential data object (a run's, which n8n hands to every request it signs), the seal found to match its
 * account: a seal is hashed once per run, not per request, and no secret is kept. Bound: the data objects in use.
 */
export const checkedSeals = new WeakMap<object, string>();
