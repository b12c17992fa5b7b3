import { CappedMap } from './cappedMap';
import type { Session } from './session';
import type { RunSettings } from './settings';
import { ProcessTokens, TokenClock } from './tokens';

/**
 * Everything the package keeps beyond one node run, in one place. n8n runs every execution of every workflow in one
 * process (or in each queue-mode worker), so what lives here is shared by all of them: each entry says why it has
 * to, and what bounds it. Maps keyed by an n8n context or a credential object are WeakMaps: they end with the run.
 */

/**
 * When this process first held each token (rule A3: expiry is judged by the local clock, so a service clock hours
 * off costs nothing). Per process because a token outlives the run that received it. Bound: 256 tokens.
 */
export const tokenClock = new TokenClock(256);

/**
 * The newest token per account and the login under way: runs of this process holding an ageing token renew it
 * once, not once each. Bound: 256 accounts (in-flight logins end with their request).
 */
export const processTokens = new ProcessTokens(256);

/**
 * Which of the document's two readings of a contradicted path (its table against its trailing-slash rule) each
 * service serves, learned once so the steady state costs no extra request. Bound: 256 Base URL and route pairs.
 */
export const learnedPaths = new CappedMap<string, string>(256);

/**
 * Each run's settings (startRun) and session (its credential, token, pacing and secrets, opened at its first
 * request). Keyed by the run's n8n context, so it ends with the run.
 */
export const runs = new WeakMap<object, { settings: RunSettings; session?: Promise<Session> }>();

/** What a run allows its login (transport/login.ts reads it when n8n's credentials helper runs the login). */
export interface LoginLimits {
	timeoutMs: number;
	/** The execution's cancel signal. */
	cancel?: AbortSignal;
}

/**
 * The limits of the run that hands this credential data to n8n. n8n's credentials helper calls the credential's
 * login with the data object alone, so the run's Timeout reaches the login through it. Ends with the object.
 */
export const loginLimits = new WeakMap<object, LoginLimits>();

/** Per run of a node: when its first send started, the clock batches are paced from (rule L2). */
export const runStarts = new WeakMap<object, number>();
