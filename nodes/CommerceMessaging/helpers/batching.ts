import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

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

/** Whether a pause comes before this item: at the start of every batch but the first. */
export function startsNewBatch(itemIndex: number, settings: BatchingSettings): boolean {
	return itemIndex > 0 && itemIndex % settings.batchSize === 0 && settings.batchIntervalMs > 0;
}

/** An Operation `beforeItem` hook: waits between batches with the router's pause (n8n's sleep). */
export async function pauseBetweenBatches(
	this: IExecuteFunctions,
	itemIndex: number,
	_state: unknown,
	pause: (ms: number) => Promise<void>,
): Promise<void> {
	const settings = readBatching(this);
	if (startsNewBatch(itemIndex, settings)) await pause(settings.batchIntervalMs);
}
