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

/*
 * Deduplication of pushed events (nodes/CommerceMessaging/helpers/deduplication/). Per process because n8n gives
 * each execution its own copy of the workflow's static data (the last one saved wins), so executions running at the
 * same time can only see each other's sends here.
 */

/** What a deduplicating node's memory shows of its size (the memory itself: deduplication/processMemory.ts). */
export interface DeduplicationMemory {
	readonly log: { readonly size: number };
	readonly inFlight: { readonly size: number };
}

/** Events kept over all nodes' memories, about 100 bytes each. */
export const MAX_DEDUPLICATION_EVENTS = 100_000;

/**
 * Each deduplicating node's memory (by workflow id + node id): its accepted events and its sends in flight. Bound:
 * MAX_DEDUPLICATION_EVENTS events over all nodes and 1,024 nodes; the least recently used memories are dropped whole
 * (never one with a send in flight) and read again from static data when their node next runs.
 */
export const deduplicationMemories = new CappedMap<string, DeduplicationMemory>(1_024, (memory) => memory.inFlight.size > 0);

/**
 * How long this process's last calls to n8n's shared deduplication store took (ms, newest last): the claim's pause
 * grows with the slowest. Bound: SHARED_STORE_CALLS_KEPT.
 */
export const sharedStoreCallTimes: number[] = [];
export const SHARED_STORE_CALLS_KEPT = 10;

/**
 * Per node: the records of events this process sent lately through the shared store, and until when to write them
 * back (a call made at the same time may have dropped them). Bound: 256 nodes; per node, deduplication/sharedStore.ts
 * keeps at most 500 values for at most 10 minutes.
 */
export const sharedRecordsToRepeat = new CappedMap<string, Map<string, number>>(256);

/** Per node: values this process removed lately from the shared store, removed again with each of its removals. Bound: as above. */
export const sharedLeftoversToRepeat = new CappedMap<string, Map<string, number>>(256);
