import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { formatSeconds } from '../../../transport/errors';
import { readSettingNumber, settingCount, settingError } from './parameters';

/**
 * Rule L2: bulk sends are spread out in batches with a pause between them. The pause is on by default, so a
 * workflow that never opens the options still sends at most `DEFAULT_BATCHING.batchSize` messages per
 * `DEFAULT_BATCHING.batchIntervalMs`, whatever the Concurrency.
 *
 * Reuse: put `batchingOption` (descriptions/) inside the operation's `options` collection (the parameter must be
 * named `options`), open a BatchPacer in the operation's `prepare` and wait for its turn in `beforeItem`.
 */
// Also the literal defaults of `batchingOption` (descriptions/options.ts; n8n's lint wants literals there).
export const DEFAULT_BATCHING = { batchSize: 50, batchIntervalMs: 1000 };

interface BatchingSettings {
	batchSize: number;
	batchIntervalMs: number;
}

const LABELS = { batchSize: 'Options > Batching > Items per Batch', batchInterval: 'Options > Batching > Batch Interval (Ms)' };

/**
 * The batching settings of the run: read from the first item, like n8n's HTTP Request node does. Fractions are
 * rounded; a value that cannot work (no items per batch, a negative interval) fails the run naming the field.
 */
export function readBatching(ctx: IExecuteFunctions): BatchingSettings {
	const settings = { ...DEFAULT_BATCHING };
	const size = readSettingNumber(ctx, 'options.batching.batch.batchSize', LABELS.batchSize);
	if (size !== undefined) settings.batchSize = settingCount(size, (rule) => settingError(ctx, LABELS.batchSize, size, rule));
	const interval = readSettingNumber(ctx, 'options.batching.batch.batchInterval', LABELS.batchInterval);
	if (interval !== undefined) {
		if (interval < 0) throw settingError(ctx, LABELS.batchInterval, interval, '0 or more');
		settings.batchIntervalMs = Math.round(interval);
	}
	return settings;
}

/** When (ms after the run's first send) this item may start: batch k starts k intervals after batch 0. */
function batchStartOffset(itemIndex: number, settings: BatchingSettings): number {
	return Math.floor(itemIndex / settings.batchSize) * settings.batchIntervalMs;
}

/**
 * Rule L2 as a rate across lanes, for one run: at most `batchSize` sends per `batchInterval`, the interval counted
 * from the start of a batch (not from its end), whatever the Concurrency.
 */
export class BatchPacer {
	/** When the run's first send started: the clock the batches are paced from. */
	private startedAt?: number;

	private heldUntil = 0;

	/** How long the run was held between batches in all (wall time, each moment counted once), ms. */
	heldMs = 0;

	constructor(readonly settings: BatchingSettings) {}

	/** A hint when batching made the run wait (router.ts shows it). */
	hints(): NodeExecutionHint[] {
		if (this.heldMs < 1_000) return [];
		const { batchSize, batchIntervalMs } = this.settings;
		return [{ message: `Waited ${formatSeconds(this.heldMs)} in all between batches (Options > Batching: ${batchSize} items, then ${batchIntervalMs.toLocaleString('en-US')} ms).` }];
	}

	/** Waits until the item's batch may start. */
	async waitTurn(itemIndex: number, pause: (ms: number) => Promise<void>): Promise<void> {
		if (this.settings.batchIntervalMs <= 0) return;
		const now = Date.now();
		this.startedAt ??= now;
		const until = this.startedAt + batchStartOffset(itemIndex, this.settings);
		if (until <= now) return;
		if (until > Math.max(now, this.heldUntil)) this.heldMs += until - Math.max(now, this.heldUntil);
		this.heldUntil = Math.max(this.heldUntil, until);
		await pause(until - now);
	}
}
