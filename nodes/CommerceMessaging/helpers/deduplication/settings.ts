import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The deduplication options of one item (descriptions/options.ts `deduplicationOptions`). */
export interface DedupSettings {
	enabled: boolean;
	windowSeconds: number;
	/** Also claim events in n8n's database, shared by all its processes (queue mode). */
	acrossProcesses: boolean;
}

export const DEFAULT_WINDOW_HOURS = 24;

/**
 * The settings from an item's `options` collection, as the caller read it (once). Throws a plain Error naming a
 * bad window; `readDedupSettings` turns it into the item's error.
 */
export function dedupSettings(options: IDataObject): DedupSettings {
	const enabled = options.deduplicate !== false;
	const rawHours = options.deduplicationWindowHours ?? DEFAULT_WINDOW_HOURS;
	const hours = typeof rawHours === 'number' ? rawHours : Number(String(rawHours).trim() || NaN);
	if (enabled && !(Number.isFinite(hours) && hours > 0)) {
		throw new Error(`"${String(rawHours)}" is not a deduplication window`);
	}
	return { enabled, windowSeconds: enabled ? hours * 3600 : 0, acrossProcesses: enabled && options.deduplicateAcrossWorkers === true };
}

/** Reads an item's `options` parameter once; a bad value becomes that item's error, thrown when the item runs. */
export function readDedupSettings(ctx: IExecuteFunctions, itemIndex: number): DedupSettings | Error {
	let options: IDataObject;
	try {
		options = (ctx.getNodeParameter('options', itemIndex, {}) ?? {}) as IDataObject;
	} catch (error) {
		return error as Error;
	}
	try {
		return dedupSettings(options);
	} catch (error) {
		return new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: ${(error as Error).message}`, {
			itemIndex,
			description: 'Use a number of hours above 0, e.g. 24.',
		});
	}
}
