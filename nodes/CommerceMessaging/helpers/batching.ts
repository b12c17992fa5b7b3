import type { IExecuteFunctions } from 'n8n-workflow';

import { formatCount, formatDuration } from '../../../transport/format';
import { pause } from '../../../transport/request';
import { DEFAULT_BATCH_INTERVAL_MS, DEFAULT_BATCH_SIZE } from '../descriptions';
import { ONE_OR_MORE, readSetting } from './parameters';

/**
 * Rule L2: bulk sends are spread out, as a rate across the items in flight: at most Items per Batch sends per Batch
 * Interval, counted from the start of a batch (not its end), whatever the Concurrency. On by default. Read once per
 * run from the first item (as n8n's HTTP Request node reads its batching); a value that cannot work fails the run
 * naming it.
 */
export class BatchPacer {
	readonly batchSize: number;
	readonly intervalMs: number;
	private markDone!: (at: number) => void;
	/** When the run's first item was done: the clock the batches are paced from. */
	private readonly firstDone = new Promise<number>((resolve) => (this.markDone = resolve));
	private heldUntil = 0;
	/** How long the run was held between batches in all (wall time, each moment counted once). */
	private heldMs = 0;
	/** The failure that stops a run without Continue On Fail: items still waiting for their batch are not sent. */
	private stoppedBy?: unknown;

	constructor(private readonly ctx: IExecuteFunctions) {
		this.batchSize = Math.round(
			readSetting(
				ctx,
				'options.batching.batch.batchSize',
				'Options > Batching > Items per Batch',
				...ONE_OR_MORE,
			) ?? DEFAULT_BATCH_SIZE,
		);
		this.intervalMs = Math.round(
			readSetting(
				ctx,
				'options.batching.batch.batchInterval',
				'Options > Batching > Batch Interval (Ms)',
				0,
				'0 or more',
			) ?? DEFAULT_BATCH_INTERVAL_MS,
		);
	}

	/**
	 * Runs an item's work once its batch may start: batch 0 at once, batch k k intervals after the first item was
	 * done (answered or failed). Counted from an answer, not a start, so a login or a Retry-After that holds the
	 * first batch does not let the batches due meanwhile go out together with it. After a failure that stops the run,
	 * an item whose batch starts later fails with that failure instead of sending (the router reports the first).
	 */
	async send<T>(itemIndex: number, work: () => Promise<T>) {
		const batch = Math.floor(itemIndex / this.batchSize);
		if (this.intervalMs > 0 && batch > 0) {
			const until = (await this.firstDone) + batch * this.intervalMs;
			this.heldMs += Math.max(0, until - Math.max(Date.now(), this.heldUntil));
			this.heldUntil = Math.max(this.heldUntil, until);
			await pause(this.ctx, until - Date.now());
		}
		if (this.stoppedBy) throw this.stoppedBy;
		return await work()
			.catch((error: unknown) => {
				this.stoppedBy ??= this.ctx.continueOnFail() ? undefined : error;
				throw error;
			})
			.finally(() => this.markDone(Date.now()));
	}

	/** A hint when batching made the run wait. */
	hints() {
		return this.heldMs < 1_000
			? []
			: [
					{
						message: `Waited ${formatDuration(this.heldMs)} in all between batches (Options > Batching: ${this.batchSize} items, then ${formatCount(this.intervalMs)} ms).`,
					},
				];
	}
}
