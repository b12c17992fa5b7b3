/**
 * The one home of the transport's defaults and limits, in milliseconds, bytes and counts. The node's panel shows
 * these values and its reader enforces these bounds, so a panel limit and the code cannot disagree.
 */

/** Why these values (a burst of 5xx outlasted inside the budget): docs/service-contract.md, L1. */
export const DEFAULT_RETRY = {
	/** Attempts in all, the first one included. */
	maxAttempts: 8,
	/** The most one request may take, its attempts and the waits between them; 0: no retries. */
	maxTotalWaitMs: 120_000,
	/** First backoff step; it doubles each attempt, up to maxDelayMs. */
	baseDelayMs: 1_000,
	maxDelayMs: 30_000,
	/** One attempt's deadline, from connecting to the last byte of the answer (a login gets its own). */
	timeoutMs: 30_000,
};

export type RetrySettings = typeof DEFAULT_RETRY;

/** Requests in flight at once at most (the default: DEFAULT_RUN_SETTINGS). */
export const MAX_CONCURRENCY = 64;
export const MAX_ATTEMPTS = 20;
/** The shortest Timeout a timer can keep. */
export const MIN_TIMEOUT_MS = 1;
/** The longest wait a timer allows (about 24.8 days): longer deadlines and budgets are capped to it. */
export const MAX_WAIT_MS = 2 ** 31 - 1;

/** The largest answer read, and the largest JSON body sent. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Far beyond any real answer, far below what n8n can store and show (its recursive code overflows on deeper ones). */
export const MAX_ANSWER_DEPTH = 100;
/** Longest request address (path and query): services refuse longer ones. */
export const MAX_URL_LENGTH = 8_192;
/** A login answer carries a token and little else. */
export const MAX_LOGIN_ANSWER_BYTES = 256 * 1024;
/** A session token must fit in a header. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/** Entries a process-wide table keeps (accounts' tokens, learned paths); beyond it the oldest go. */
export const MAX_TABLE_ENTRIES = 256;
/** Requests accepted before pacing after a Retry-After follows the measured rate: fewer say little. */
export const MIN_ACCEPTED_TO_PACE = 10;
/** After a Retry-After, each accepted request shortens the paced interval by this factor, until the next one. */
export const PACE_GAIN = 0.97;
/** How often a request waiting for a login or a renewal looks whether it is over. */
export const LOGIN_CHECK_MS = 10;

/** Page size of reads that may stop early (trigger polls), and of whole-list reads (docs/api-assumptions.md). */
export const PAGE_SIZE = 100;
export const RETURN_ALL_PAGE_SIZE = 1000;
/** Pages of a whole-list read asked at once at most: beyond it parsing, not the round trip, is what costs. */
export const MAX_PAGES_SIDE_BY_SIDE = 8;

/**
 * How messages name the settings a user can change; a message names none it is not given. `sendLess`: how the node
 * lets the user send less at once, where it does.
 */
export type SettingNames = Partial<
	Record<
		'timeout' | 'retryBudget' | 'maxAttempts' | 'maxRecords' | 'maxListBytes' | 'sendLess',
		string
	>
>;

/** Everything one run of a node asks of the transport. */
export const DEFAULT_RUN_SETTINGS = {
	retry: DEFAULT_RETRY,
	/**
	 * Requests in flight at once: items side by side, or a list's pages (at most MAX_PAGES_SIDE_BY_SIDE);
	 * docs/performance.md says why this many.
	 */
	concurrency: 32,
	/** A whole-list read stops there, so a list that never ends (or a total that lies) cannot fill memory. */
	maxRecords: 100_000,
	maxListBytes: 256 * 1024 * 1024,
	names: {} as SettingNames,
};

export type RunSettings = typeof DEFAULT_RUN_SETTINGS;
