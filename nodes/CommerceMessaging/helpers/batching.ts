import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { runStarts } from '../../../transport';

/**
 * Rule L2: bulk sends are spread out in batches with a pause between them. The pause is on by default, so a
 * workflow that never opens the options still sends at most `DEFAULT_BATCHING.batchSize` messages per
 * `DEFAULT_BATCHING.batchIntervalMs`.
 *
 * Reuse: put `batchingOption` (descriptions/) inside the operation's `options` collection (the parameter must be
 * named `options`) and export `pauseBetweenBatches` as the operation's `beforeItem` hook.
 */
// Also the literal defaults of `batchingOption` (descriptions/options.ts; n8n's lint wants literals there).
export const DEFAULT_BATCHING = { batchSize: 50, batchIntervalMs: 1000 };

export interface BatchingSettings {
	batchSize: number;
	batchIntervalMs: number;
}

/** The batching settings of the run: read from the first item, like n8n's HTTP Request node does. */
export function readBatching(ctx: IExecuteFunctions): BatchingSettings {
	const batch = (ctx.getNodeParameter('options.batching.batch', 0, {}) ?? {}) as IDataObject;
	const whole = (value: unknown, fallback: number, min: number) =>
		typeof value === 'number' && Number.isFinite(value) ? Math.max(min, Math.floor(value)) : fallback;
	return {
		batchSize: whole(batch.batchSize, DEFAULT_BATCHING.batchSize, 1),
		batchIntervalMs: whole(batch.batchInterval, DEFAULT_BATCHING.batchIntervalMs, 0),
	};
}

/** When (ms after the run's first send) this item may start: batch k starts k intervals after batch 0. */
export function batchStartOffset(itemIndex: number, settings: BatchingSettings): number {
	return Math.floor(itemIndex / settings.batchSize) * settings.batchIntervalMs;
}

/**
 * Rule L2 as a rate across lanes: at most `batchSize` sends per `batchInterval`, the interval counted from the start
 * of a batch (not from its end), whatever the Concurrency.
 */
export async function paceBatches(
	ctx: IExecuteFunctions,
	itemIndex: number,
	settings: BatchingSettings,
	pause: (ms: number) => Promise<void>,
): Promise<void> {
	if (settings.batchIntervalMs <= 0) return;
	let started = runStarts.get(ctx);
	if (started === undefined) runStarts.set(ctx, (started = Date.now()));
	const wait = started + batchStartOffset(itemIndex, settings) - Date.now();
	if (wait > 0) await pause(wait);
}

/** An Operation `beforeItem` hook: paceBatches with the run's batching option. */
export async function pauseBetweenBatches(
	this: IExecuteFunctions,
	itemIndex: number,
	_state: unknown,
	pause: (ms: number) => Promise<void>,
): Promise<void> {
	await paceBatches(this, itemIndex, readBatching(this), pause);
}
