import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { MAX_CONCURRENCY } from './lanes';
import { DEFAULT_RETRY, type RetrySettings } from './retryPolicy';
import type { ApiContext } from './session';

/** Reads the node's "Request Options" (shown on every operation); contexts without it get the defaults. */
export function readRetrySettings(ctx: ApiContext, itemIndex = 0): RetrySettings {
	let options: IDataObject = {};
	try {
		// Only an execute context reads a parameter per item; poll and load-options contexts take (name, fallback).
		const value =
			'getInputData' in ctx
				? ctx.getNodeParameter('requestOptions', itemIndex, {})
				: (ctx as IPollFunctions).getNodeParameter('requestOptions', {});
		options = (value ?? {}) as IDataObject;
	} catch {
		return DEFAULT_RETRY;
	}
	const number = (value: unknown, fallback: number) =>
		typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
	return {
		...DEFAULT_RETRY,
		maxAttempts: Math.max(1, Math.floor(number(options.maxAttempts, DEFAULT_RETRY.maxAttempts))),
		maxTotalWaitMs: number(options.maxRetryWaitSeconds, DEFAULT_RETRY.maxTotalWaitMs / 1000) * 1000,
		timeoutMs: Math.max(1, number(options.timeoutSeconds, DEFAULT_RETRY.timeoutMs / 1000)) * 1000,
	};
}

/** Request Options > Concurrency's default: see README "Performance" for why 8. */
export const DEFAULT_CONCURRENCY = 8;

/**
 * How many items' requests (or a list's pages) may be in flight at once: Request Options > Concurrency of the run
 * (read from the first item, like batching), 1 to MAX_CONCURRENCY. Polls and pickers, which may stop early and
 * have no such option, read one page at a time.
 */
export function readConcurrency(ctx: ApiContext): number {
	if (!('getInputData' in ctx)) return 1;
	let value: unknown;
	try {
		value = (ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject | undefined)?.concurrency;
	} catch {
		return DEFAULT_CONCURRENCY;
	}
	if (typeof value !== 'number' || !Number.isFinite(value)) return DEFAULT_CONCURRENCY;
	return Math.max(1, Math.min(MAX_CONCURRENCY, Math.floor(value)));
}
