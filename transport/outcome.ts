import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Address } from './address';
import { header, readEnvelope, type ServiceFailure } from './envelope';
import { answerTooDeepError, answerTooLargeError, loginError, networkError, redirectRefusedError, serviceError, type RequestHistory } from './errors';
import type { Exchange } from './http';

import type { Route } from './routes';
import type { Session } from './session';
import type { RetrySettings } from './settings';

/**
 * What one exchange means for the request, and whether trying again could help (rules E1-E5, L1): decided from typed
 * facts (the HTTP status, the JSend envelope, the kind of network or login failure), never from the wording of a
 * message. The retry decisions are pure, so they are unit-tested without clocks; the transport does the waiting.
 */
export type Outcome =
	| { kind: 'done'; data: unknown; message?: string; text: string }
	/** Sent again at another address (a followed redirect, the other reading of a path): not a failed attempt. */
	| { kind: 'moved' }
	/** Rule A3: the service refused the token itself; one fresh login and one retry follow. */
	| { kind: 'tokenRefused'; failure: ServiceFailure }
	/**
	 * The attempt failed. `retry` says why, when trying again could help (the transport decides with the route's
	 * retry safety and the budget); `error` builds the error to throw, with why the request gave up (if it did).
	 */
	| { kind: 'failed'; retry?: RetryableFailure; retryAfterMs?: number; error: (gaveUp?: string) => Error };

export interface JudgeContext {
	node: INode;
	route: Route;
	address: Address;
	session: Session;
	itemIndex?: number;
	/** What the request went through so far, for the notes of its error. */
	history: RequestHistory;
}

/** Connections that were never made: the service did not see the request, so any method may be tried again. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND']);

export function judge(exchange: Exchange, context: JudgeContext): Outcome {
	const { node, itemIndex, session } = context;
	const notes = { history: context.history, names: session.settings.names };
	switch (exchange.kind) {
		case 'answer':
			return judgeAnswer(exchange.status, exchange.headers, exchange.text, context);
		case 'network': {
			const retry: RetryableFailure = exchange.code && NOT_SENT_CODES.has(exchange.code) ? 'notSent' : 'maybeSent';
			const maybeApplied = retry === 'maybeSent' && !context.route.retrySafe;
			return {
				kind: 'failed',
				retry,
				error: (gaveUp) => networkError(node, exchange, { itemIndex, maybeApplied, ...notes, gaveUp }),
			};
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
			return {
				kind: 'failed',
				error: () => networkError(node, { reason, timedOut: false, waitedMs: 0 }, { itemIndex, maybeApplied: false, ...notes }),
			};
		}
	}
}

function judgeAnswer(status: number, headers: Record<string, unknown>, text: string, context: JudgeContext): Outcome {
	const { node, itemIndex, address } = context;
	const notes = { history: context.history, names: context.session.settings.names };
	if (status >= 300 && status < 400 && status !== 304) {
		const refusal = address.redirected(status, header(headers, 'location'));
		if (!refusal) return { kind: 'moved' };
		return { kind: 'failed', error: () => redirectRefusedError(node, refusal, status, itemIndex) };
	}
	if (status === 404 && address.notFound()) return { kind: 'moved' };

	const envelope = readEnvelope({ statusCode: status, headers, body: text });
	if (envelope.ok) return { kind: 'done', data: envelope.data, message: envelope.message, text };
	const failure = envelope.failure;
	switch (failure.kind) {
		case 'tokenRefused':
			return { kind: 'tokenRefused', failure };
		case 'pluginAuth': {
			const missingPluginFields = pluginFieldsMissing(context.session);
			return { kind: 'failed', error: () => serviceError(node, failure, itemIndex, { missingPluginFields }) };
		}
		case 'rateLimit':
		case 'unavailable':
			return {
				kind: 'failed',
				retry: failure.kind === 'rateLimit' ? 'rateLimited' : 'serviceFailed',
				retryAfterMs: failure.retryAfterMs,
				error: (gaveUp) => serviceError(node, failure, itemIndex, { ...notes, gaveUp }),
			};
		default:
			return { kind: 'failed', error: () => serviceError(node, failure, itemIndex) };
	}
}

function pluginFieldsMissing(session: Session): string[] {
	const { credentials } = session;
	if (!credentials.pluginIntegration) return ['Plugin Integration (switch it on)', 'Plugin API Key', 'Platform Type', 'Shop Base URI'];
	return [
		['Plugin API Key', credentials.pluginApiKey],
		['Platform Type', credentials.pluginPlatformType],
		['Shop Base URI', credentials.pluginBaseUri],
	]
		.filter(([, value]) => !value.trim())
		.map(([label]) => label);
}

// When to try again.

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

/**
 * How long the next attempt may take: its timeout, cut to what the budget has left (at least a second). A budget of
 * 0 means no retries: the one attempt keeps its whole timeout.
 */
export function attemptTimeoutMs(settings: RetrySettings, elapsedMs: number): number {
	if (settings.maxTotalWaitMs === 0) return settings.timeoutMs;
	return Math.max(1_000, Math.min(settings.timeoutMs, settings.maxTotalWaitMs - elapsedMs));
}
