/**
 * When and how long to wait before trying a request again (rules L1, E5). Pure, so the rules are unit-tested
 * without clocks; the transport does the sleeping.
 */

export interface RetrySettings {
	/** Attempts in all, the first one included. */
	maxAttempts: number;
	/** Upper bound on the sum of all waits for one request, in ms. */
	maxTotalWaitMs: number;
	/** First backoff step, in ms; doubles each attempt. */
	baseDelayMs: number;
	/** Largest single backoff step without a Retry-After, in ms. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY: RetrySettings = {
	maxAttempts: 5,
	maxTotalWaitMs: 120_000,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
};

/**
 * Largest random wait added to a Retry-After. The service names the moment itself, so waiting that long is enough
 * for one client; a little jitter keeps several executions of the same account from coming back in the same
 * millisecond, and stays small next to a Retry-After of at least a second (bench/README.md, rate-limited job).
 */
export const RETRY_AFTER_JITTER_MS = 100;

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/**
 * @param attempt the attempt that just failed, from 1
 * @param waitedMs what earlier retries of this request already waited
 * @param retryAfterMs the server's Retry-After, if any: never retry sooner, however long it is
 */
export function decideRetry(
	settings: RetrySettings,
	attempt: number,
	waitedMs: number,
	retryAfterMs: number | undefined,
	random: () => number = Math.random,
): RetryDecision {
	if (attempt >= settings.maxAttempts) {
		return { retry: false, reason: `gave up after ${attempt} attempts` };
	}
	// Full jitter: a random wait up to the exponential step, so many clients do not retry in lockstep.
	const step = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
	const jitter = Math.floor(random() * step);
	const delayMs =
		retryAfterMs !== undefined ? retryAfterMs + Math.floor(random() * Math.min(RETRY_AFTER_JITTER_MS, step)) : jitter;
	const budgetLeft = settings.maxTotalWaitMs - waitedMs;
	if (budgetLeft <= 0) {
		return { retry: false, reason: `the ${Math.round(settings.maxTotalWaitMs / 1000)} s retry wait budget is used up` };
	}
	if (retryAfterMs !== undefined && retryAfterMs > budgetLeft) {
		return {
			retry: false,
			reason: `the service asked to wait ${Math.ceil(retryAfterMs / 1000)} s, more than the ${Math.floor(budgetLeft / 1000)} s of retry wait left`,
		};
	}
	if (delayMs > budgetLeft) {
		return { retry: true, delayMs: Math.max(0, budgetLeft) };
	}
	return { retry: true, delayMs };
}
