import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Address } from './address';
import { header, readEnvelope } from './envelope';
import {
	answerTooDeepError,
	answerTooLargeError,
	loginError,
	networkError,
	pluginFieldsMissing,
	redirectRefusedError,
	serviceError,
	type RequestHistory,
	type ServiceFailure,
} from './errors';
import type { Exchange } from './http';
import type { RetryableFailure } from './retry';
import type { Route } from './routes';
import type { Session } from './session';

/**
 * What one exchange means for the request, and whether trying again could help (rules E1-E5, L1): decided from typed
 * facts (the HTTP status, the JSend envelope, the kind of network or login failure), never from a message's words.
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

/** What an error says of the request's attempts and of the settings to change. */
const notesOf = (context: JudgeContext) => ({ history: context.history, names: context.session.settings.names });

export function judge(exchange: Exchange, context: JudgeContext): Outcome {
	const { node, itemIndex } = context;
	switch (exchange.kind) {
		case 'answer':
			return judgeAnswer(exchange.status, exchange.headers, exchange.text, context);
		case 'network': {
			const retry: RetryableFailure = exchange.code && NOT_SENT_CODES.has(exchange.code) ? 'notSent' : 'maybeSent';
			const maybeApplied = retry === 'maybeSent' && !context.route.retrySafe;
			return {
				kind: 'failed',
				retry,
				error: (gaveUp) => networkError(node, exchange, { itemIndex, maybeApplied, ...notesOf(context), gaveUp }),
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
				error: () => networkError(node, { reason, timedOut: false, waitedMs: 0 }, { itemIndex, maybeApplied: false, ...notesOf(context) }),
			};
		}
	}
}

function judgeAnswer(status: number, headers: Record<string, unknown>, text: string, context: JudgeContext): Outcome {
	const { node, itemIndex, address } = context;
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
			const missingPluginFields = pluginFieldsMissing(context.session.credentials);
			return { kind: 'failed', error: () => serviceError(node, failure, itemIndex, { missingPluginFields }) };
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
