import type { RetrySettings } from './settings';

/**
 * When to try a request again, and how long to wait first (rules E5, L1): pure decisions, unit-tested without
 * clocks; request.ts does the waiting.
 */

/** Why an attempt failed, as far as trying again is concerned. */
export type RetryableFailure =
	/** No connection was made (refused, no such host): the service never saw the request. */
	| 'notSent'
	/** The connection broke or the deadline passed: the service may have acted on the request. */
	| 'maybeSent'
	/** HTTP 429 or a rate-limit code: refused before anything was done. */
	| 'rateLimited'
	/** HTTP 5xx: the service may have acted on the request. */
	| 'serviceFailed';

/**
 * Rule L1 and the one retry-safety rule: a refusal before anything happened is always tried again; a failure after
 * which the service may have acted only for requests that are safe to repeat (idempotent methods).
 */
export function mayRetry(failure: RetryableFailure, retrySafe: boolean): boolean {
	return failure === 'notSent' || failure === 'rateLimited' || retrySafe;
}

/**
 * Largest random wait added to a Retry-After. The service names the moment itself, so waiting that long is enough
 * for one client; a little jitter keeps several executions of the same account from coming back in the same
 * millisecond, and stays small next to a Retry-After of at least a second (bench/README.md, rate-limited job).
 */
export const RETRY_AFTER_JITTER_MS = 100;

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/**
 * @param attempt the attempt that just failed, from 1
 * @param elapsedMs how long this request has taken so far, attempts and waits
 * @param retryAfterMs the server's Retry-After, if any: never retry sooner, however long it is
 */
export function decideRetry(
	settings: RetrySettings,
	attempt: number,
	elapsedMs: number,
	retryAfterMs: number | undefined,
	random: () => number = Math.random,
): RetryDecision {
	if (attempt >= settings.maxAttempts) {
		return { retry: false, reason: `gave up after ${attempt} attempts` };
	}
	// Equal jitter: half of the exponential step is fixed, so a wait is never near zero; the other half is random,
	// so many clients do not come back in lockstep.
	const step = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
	const backoff = Math.ceil(step / 2 + random() * (step / 2));
	const delayMs =
		retryAfterMs !== undefined ? retryAfterMs + Math.floor(random() * Math.min(RETRY_AFTER_JITTER_MS, step)) : backoff;
	const budgetLeft = settings.maxTotalWaitMs - elapsedMs;
	const budget = `${Math.round(settings.maxTotalWaitMs / 1000)} s`;
	if (budgetLeft <= 0) {
		return { retry: false, reason: `the ${budget} retry budget is used up` };
	}
	if (retryAfterMs !== undefined && retryAfterMs > budgetLeft) {
		return {
			retry: false,
			reason: `the service asked to wait ${Math.ceil(retryAfterMs / 1000)} s, more than the ${Math.floor(budgetLeft / 1000)} s of retry budget left`,
		};
	}
	if (delayMs >= budgetLeft) {
		return { retry: false, reason: `the ${budget} retry budget would be used up before the next attempt` };
	}
	return { retry: true, delayMs };
}
