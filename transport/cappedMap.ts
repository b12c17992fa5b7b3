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
