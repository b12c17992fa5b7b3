/**
 * The plain settings the transport works with. The node reads them from its Request Options (nodes/.../helpers/
 * requestSettings.ts) and hands them over; the transport never reads a node parameter.
 */

export interface RetrySettings {
	/** Attempts in all, the first one included. */
	maxAttempts: number;
	/**
	 * Upper bound on the whole request in ms: its attempts AND the waits between them, so a service that hangs
	 * cannot hold an item longer than this (one attempt's timeout aside).
	 */
	maxTotalWaitMs: number;
	/** First backoff step, in ms; doubles each attempt. */
	baseDelayMs: number;
	/** Largest single backoff step without a Retry-After, in ms. */
	maxDelayMs: number;
	/** Deadline of one attempt, from connecting to the last byte of the answer (and of a login), in ms. */
	timeoutMs: number;
}

/**
 * With equal jitter the waits before attempts 2..8 are at least 0.5, 1, 2, 4, 8, 15 and 15 s: a 20-second burst
 * of 503s on a GET is outlasted by the 7th attempt, inside the 120 s budget (the longest possible sum is 91 s).
 */
export const DEFAULT_RETRY: RetrySettings = {
	maxAttempts: 8,
	maxTotalWaitMs: 120_000,
	baseDelayMs: 1_000,
	maxDelayMs: 30_000,
	timeoutMs: 30_000,
};

/** Request Options > Concurrency's default: see docs/performance.md for why. */
export const DEFAULT_CONCURRENCY = 32;

export const MAX_CONCURRENCY = 64;

/**
 * Return All's default ceiling. A total that lies, or a list that keeps serving fresh pages, would otherwise be read
 * until memory runs out; a shop with more records raises it (Request Options > Max Records).
 */
export const DEFAULT_MAX_RECORDS = 100_000;

/** Everything one run of a node asks of the transport. */
export interface RunSettings {
	retry: RetrySettings;
	/** Requests in flight at once: items side by side, or a list's pages. */
	concurrency: number;
	/** The most records a whole-list read (Return All, a trigger's poll) takes before it fails with a clear error. */
	maxRecords: number;
}

export const DEFAULT_RUN_SETTINGS: RunSettings = {
	retry: DEFAULT_RETRY,
	concurrency: DEFAULT_CONCURRENCY,
	maxRecords: DEFAULT_MAX_RECORDS,
};

/** What a user may set, as plain values (any of them missing or unusable falls back to its default). */
export interface RunSettingsInput {
	maxAttempts?: unknown;
	maxRetryWaitSeconds?: unknown;
	timeoutSeconds?: unknown;
	concurrency?: unknown;
	maxRecords?: unknown;
}

export function runSettings(input: RunSettingsInput = {}): RunSettings {
	const number = (value: unknown, fallback: number) =>
		typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
	const whole = (value: unknown, fallback: number, min: number, max = Infinity) =>
		Math.max(min, Math.min(max, Math.floor(number(value, fallback))));
	return {
		retry: {
			...DEFAULT_RETRY,
			maxAttempts: whole(input.maxAttempts, DEFAULT_RETRY.maxAttempts, 1),
			maxTotalWaitMs: number(input.maxRetryWaitSeconds, DEFAULT_RETRY.maxTotalWaitMs / 1000) * 1000,
			timeoutMs: Math.max(1, number(input.timeoutSeconds, DEFAULT_RETRY.timeoutMs / 1000)) * 1000,
		},
		concurrency: whole(input.concurrency, DEFAULT_CONCURRENCY, 1, MAX_CONCURRENCY),
		maxRecords: whole(input.maxRecords, DEFAULT_MAX_RECORDS, 1),
	};
}
