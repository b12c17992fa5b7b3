/**
 * Everything the transport keeps beyond one node run, in one place (the nodes' own is nodes/CommerceMessaging/
 * helpers/processState.ts). n8n runs every execution of every workflow in one process (or in each queue-mode
 * worker), so what lives here is shared by all of them: each entry says why it has to, and what bounds it. It imports
 * nothing: the modules that use an entry import it.
 */

/**
 * A Map that never holds more than `capacity` entries: setting a key moves it to the newest end, and the oldest
 * entries go once the capacity is passed. `pinned` keeps entries that must not be dropped (e.g. a send in flight);
 * they never count as oldest, so a map full of pinned entries may exceed its capacity for as long as they last.
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

	has(key: K): boolean {
		return this.entries.has(key);
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

/**
 * When this process first held each token (rule A3: expiry is judged by the local clock, so a service clock hours
 * off costs nothing). Per process because a token outlives the run that received it. Bound: 256 tokens.
 */
export const tokenFirstSeen = new CappedMap<string, number>(256);

/**
 * The newest token this process received per account, with the local time it arrived: runs of this process holding
 * an ageing token renew it once, not once each (tokens.ts). Bound: 256 accounts.
 */
export const newestTokens = new CappedMap<string, { token: string; receivedAt: number }>(256);

/** The login under way per account, which other runs of this process wait for. Bound: each ends with its login. */
export const loginsUnderWay = new Map<string, Promise<void>>();

/**
 * Which of the document's two readings of a contradicted path (its table against its trailing-slash rule) each
 * service serves, learned once so the steady state costs no extra request. Bound: 256 Base URL and route pairs.
 */
export const learnedPaths = new CappedMap<string, string>(256);

/**
 * Seals found to match, with the account (Base URL, username, password) they matched: the credential signs every
 * request, and a seal check is a hash; the same seal for the same fields is not hashed again. Bound: 256 seals.
 */
export const checkedSeals = new CappedMap<string, string>(256);
