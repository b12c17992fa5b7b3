import type { IDataObject, IPollFunctions } from 'n8n-workflow';

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
