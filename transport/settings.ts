/**
 * The plain settings the transport works with, in milliseconds, bytes and counts. The node maps its Request Options
 * onto them (nodes/.../helpers/requestSettings.ts) and hands them over; the transport never reads a node parameter.
 */

export interface RetrySettings {
	/** Attempts in all, the first one included. */
	maxAttempts: number;
	/**
	 * Upper bound on the whole request in ms: its attempts AND the waits between them, so a service that hangs
	 * cannot hold an item longer than this (one attempt's timeout aside). 0: no retries.
	 */
	maxTotalWaitMs: number;
	/** First backoff step, in ms; doubles each attempt. */
	baseDelayMs: number;
	/** Largest single backoff step without a Retry-After, in ms. */
	maxDelayMs: number;
	/** Deadline of one attempt, from connecting to the last byte of the answer (and of a login, its own), in ms. */
	timeoutMs: number;
}

/** Why these values (a burst of 5xx outlasted inside the budget): docs/service-contract.md, L1. */
export const DEFAULT_RETRY: RetrySettings = {
	maxAttempts: 8,
	maxTotalWaitMs: 120_000,
	baseDelayMs: 1_000,
	maxDelayMs: 30_000,
	timeoutMs: 30_000,
};

/** The longest wait a timer allows (2^31 - 1 ms, about 24.8 days): longer deadlines and budgets are capped to it. */
export const MAX_WAIT_MS = 2 ** 31 - 1;

/** Requests in flight at once by default: see docs/performance.md for why. */
export const DEFAULT_CONCURRENCY = 32;

export const MAX_CONCURRENCY = 64;

/**
 * The most records a whole-list read takes by default. A total that lies, or a list that keeps serving fresh pages,
 * would otherwise be read until memory runs out.
 */
export const DEFAULT_MAX_RECORDS = 100_000;

/** The most bytes of answers a whole-list read takes by default, for the same reason: records can be large. */
const DEFAULT_MAX_LIST_BYTES = 256 * 1024 * 1024;

/** How messages name the settings a user can change (the node's panel fields); a message without one names none. */
export interface SettingNames {
	timeout?: string;
	retryBudget?: string;
	maxAttempts?: string;
	maxRecords?: string;
	maxListBytes?: string;
	/** How the node lets the user send less at once, when it does. */
	sendLess?: string;
}

/** Everything one run of a node asks of the transport. */
export interface RunSettings {
	retry: RetrySettings;
	/** Requests in flight at once: items side by side, or a list's pages. */
	concurrency: number;
	/** The most records a whole-list read (Return All, a trigger's poll) takes before it fails with a clear error. */
	maxRecords: number;
	/** The most bytes of answers a whole-list read takes before it fails with a clear error. */
	maxListBytes: number;
	names: SettingNames;
}

export const DEFAULT_RUN_SETTINGS: RunSettings = {
	retry: DEFAULT_RETRY,
	concurrency: DEFAULT_CONCURRENCY,
	maxRecords: DEFAULT_MAX_RECORDS,
	maxListBytes: DEFAULT_MAX_LIST_BYTES,
	names: {},
};
