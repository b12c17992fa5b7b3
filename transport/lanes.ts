import { MAX_CONCURRENCY } from './settings';

/**
 * Runs one task per input item with several in flight (Request Options > Concurrency), the way a careful client
 * talks to a service across a real network: the round trip, not the work, is what costs.
 *
 * - At most `concurrency` tasks run at once; slots are handed out first come, first served.
 * - Items that share a key (an order's events, a cart's events, a product's writes, one recipient's messages)
 *   never overlap and start in input order, so `paid` is never overtaken by `shipped`.
 * - Results come back in input order, one per item: its value, its error, or `skipped` when an earlier failure
 *   stopped the run before it started (with `stopOnError`, as a run without Continue On Fail stops).
 *
 * With a concurrency of 1 this is exactly a loop over the items.
 */
export type LaneResult<T> = { status: 'done'; value: T } | { status: 'failed'; error: unknown } | { status: 'skipped' };

export interface LaneOptions<T> {
	concurrency: number;
	/** Items with the same key run one after the other, in input order; undefined = no constraint. */
	keyOf?: (itemIndex: number) => string | undefined;
	run: (itemIndex: number) => Promise<T>;
	/** After a failure, start no further item (those already running finish). */
	stopOnError: boolean;
}

export async function runInLanes<T>(itemCount: number, options: LaneOptions<T>): Promise<Array<LaneResult<T>>> {
	const slots = new Slots(Math.max(1, Math.min(MAX_CONCURRENCY, Math.floor(options.concurrency) || 1)));
	const results: Array<LaneResult<T>> = new Array(itemCount);
	const lastOfKey = new Map<string, Promise<void>>();
	let stopped = false;

	const runItem = async (itemIndex: number, previousOfKey: Promise<void> | undefined) => {
		if (previousOfKey) await previousOfKey;
		await slots.acquire();
		try {
			if (stopped) {
				results[itemIndex] = { status: 'skipped' };
				return;
			}
			results[itemIndex] = { status: 'done', value: await options.run(itemIndex) };
		} catch (error) {
			results[itemIndex] = { status: 'failed', error };
			if (options.stopOnError) stopped = true;
		} finally {
			slots.release();
		}
	};

	const tasks: Array<Promise<void>> = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const key = options.keyOf?.(itemIndex);
		const task = runItem(itemIndex, key === undefined ? undefined : lastOfKey.get(key));
		if (key !== undefined) lastOfKey.set(key, task);
		tasks.push(task);
	}
	await Promise.all(tasks);
	return results;
}

/** A counting semaphore whose waiters are served in the order they asked. */
class Slots {
	private free: number;

	private readonly waiting: Array<() => void> = [];

	constructor(size: number) {
		this.free = size;
	}

	async acquire(): Promise<void> {
		if (this.free > 0) {
			this.free--;
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	release(): void {
		const next = this.waiting.shift();
		if (next) next();
		else this.free++;
	}
}
