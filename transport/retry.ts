import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	answerTooDeepError,
	answerTooLargeError,
	loginError,
	networkError,
	serviceError,
	type RequestHistory,
	type ServiceFailure,
} from './errors';
import { missingPluginFields } from './auth';
import type { Exchange, HttpAnswer } from './http';
import type { Route } from './routes';
import type { Session } from './session';
import type { RetrySettings } from './settings';

/**
 * A failed attempt (rules E3-E5, L1): the error it gives if the request stops there, and whether and when trying
 * again could help, decided from typed facts (the kind of network failure, the service's failure), never from a
 * message's words. The decisions are pure; request.ts does the waiting.
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

/** `retry`: why trying again could help, if it could; `error` builds the error, with why it gave up (if it did). */
export interface Failed {
	kind: 'failed';
	retry?: RetryableFailure;
	retryAfterMs?: number;
	error: (gaveUp?: string) => Error;
}

export interface FailureContext {
	node: INode;
	route: Route;
	session: Session;
	itemIndex?: number;
	history: RequestHistory;
}

/** Connections that were never made: the service did not see the request, so any method may be tried again. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND']);

/** What an error says of the request's attempts and of the settings to change. */
const notesOf = (context: FailureContext) => ({ history: context.history, names: context.session.settings.names });

/** An exchange that brought no answer. */
export function failedExchange(exchange: Exclude<Exchange, HttpAnswer>, context: FailureContext): Failed {
	const { node, itemIndex } = context;
	switch (exchange.kind) {
		case 'network': {
			const retry: RetryableFailure = exchange.code && NOT_SENT_CODES.has(exchange.code) ? 'notSent' : 'maybeSent';
			const maybeApplied = retry === 'maybeSent' && !context.route.retrySafe;
			return { kind: 'failed', retry, error: (gaveUp) => networkError(node, exchange, { itemIndex, maybeApplied, ...notesOf(context), gaveUp }) };
		}
		case 'tooLarge':
			return { kind: 'failed', error: () => answerTooLargeError(node, exchange.limitBytes, itemIndex) };
		case 'tooDeep':
			return { kind: 'failed', error: () => answerTooDeepError(node, exchange.limit, itemIndex) };
		case 'cancelled':
			return { kind: 'failed', error: () => new NodeOperationError(node, 'The execution was cancelled while a request was under way', { itemIndex }) };
		case 'loginFailed':
			return { kind: 'failed', error: () => loginError(node, exchange.failure.message, itemIndex) };
		case 'thrown': {
			const reason = (exchange.error as Error)?.message ?? 'unknown network error';
			const failure = { reason, timedOut: false, waitedMs: 0 };
			return { kind: 'failed', error: () => networkError(node, failure, { itemIndex, maybeApplied: false, ...notesOf(context) }) };
		}
	}
}

/** An answer the service refused, its token aside (request.ts logs in again for that, rule A3). */
export function failedAnswer(failure: ServiceFailure, context: FailureContext): Failed {
	const { node, itemIndex } = context;
	switch (failure.kind) {
		case 'pluginAuth': {
			const missing = missingPluginFields(context.session.credentials);
			return { kind: 'failed', error: () => serviceError(node, failure, itemIndex, { missingPluginFields: missing }) };
		}
		case 'rateLimit':
		case 'unavailable':
			return {
				kind: 'failed',
				retry: failure.kind === 'rateLimit' ? 'rateLimited' : 'serviceFailed',
				retryAfterMs: failure.retryAfterMs,
				error: (gaveUp) => serviceError(node, failure, itemIndex, { ...notesOf(context), gaveUp }),
			};
		default:
			return { kind: 'failed', error: () => serviceError(node, failure, itemIndex) };
	}
}

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
 * millisecond, and stays small next to a Retry-After of at least a second (the rateLimited job of bench/harness/lib/jobs.js).
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
