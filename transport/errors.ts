import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ServiceFailure } from './envelope';
import type { SettingNames } from './settings';

/**
 * What an error says beyond its message, for the Continue On Fail error item: written by serviceError and by the
 * node's own checks (setErrorContext), read by the action node's router (errorContext).
 */
export interface ServiceErrorContext {
	/** The service's own message and code, verbatim (rule E2). */
	serviceMessage?: string;
	serviceCode?: string;
	/** Field names a validation failure points at (rule E3). */
	fields?: string[];
	/** A template's state (rule E4, or the node's check before a send or while waiting). */
	state?: string;
	/** Why a template was rejected. */
	reason?: string;
}

const CONTEXT_KEYS = ['serviceMessage', 'serviceCode', 'fields', 'state', 'reason'] as const;

/** Puts the given parts of the context on an n8n error (its `context` travels with it into the execution). */
export function setErrorContext(error: { context: IDataObject }, context: ServiceErrorContext): void {
	for (const key of CONTEXT_KEYS) {
		if (context[key] !== undefined) error.context[key] = context[key];
	}
}

/** The context of any thrown value; parts missing or of the wrong type are left out. */
export function errorContext(error: unknown): ServiceErrorContext {
	const context = (error as { context?: unknown } | undefined)?.context;
	if (!context || typeof context !== 'object') return {};
	const { serviceMessage, serviceCode, fields, state, reason } = context as IDataObject;
	const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
	return {
		serviceMessage: text(serviceMessage),
		serviceCode: text(serviceCode),
		fields: Array.isArray(fields) ? fields.filter((field): field is string => typeof field === 'string') : undefined,
		state: text(state),
		reason: text(reason),
	};
}

/**
 * Turns a classified service failure into the NodeApiError the user sees: the service's own message and code
 * (rule E2), plus what to do about it. The error body kept on the error is the service's envelope only, never
 * the request, so no token or password can leak through error details (rule A6).
 */
export function serviceError(
	node: INode,
	failure: ServiceFailure,
	itemIndex?: number,
	extra: ExplainExtra = {},
): NodeApiError {
	const codePart = failure.code ? ` [${failure.code}]` : '';
	const { message, description } = explain(failure, extra);
	const errorBody: JsonObject = {
		message: failure.message,
		httpStatus: failure.httpStatus,
		...(failure.code ? { code: failure.code } : {}),
		...(failure.data !== undefined ? { data: failure.data as JsonObject } : {}),
	};
	const error = new NodeApiError(node, errorBody, {
		message: `${message}${codePart}`,
		description,
		httpCode: String(failure.httpStatus),
		itemIndex,
	});
	// Kept verbatim for Continue On Fail output and for tests: the service's message and code.
	setErrorContext(error, {
		serviceMessage: failure.message,
		serviceCode: failure.code,
		fields: failure.fields?.length ? failure.fields : undefined,
		state: failure.state || undefined,
	});
	return error;
}

interface ExplainExtra extends RequestNotes {
	/** For a plugin-header refusal: the credential fields still empty. */
	missingPluginFields?: string[];
}

/** What one request went through before its outcome (request.ts counts it), for the notes of its error. */
export interface RequestHistory {
	attempts: number;
	/** Waits between its own attempts (backoff), ms. */
	backoffMs: number;
	/** Waits before its turn for the service's rate limit (a Retry-After, its own or another lane's, and the pacing after it), ms. */
	rateLimitWaitMs: number;
	/** Attempts that failed and were tried again. */
	retries: number;
}

/** What a failed request went through, for its error's description. */
export interface RequestNotes {
	history?: RequestHistory;
	/** How messages name the settings the user can change. */
	names?: SettingNames;
	/** Why the request was not tried again, when it could have been. */
	gaveUp?: string;
}

/** 1.5 s, 30 s: a duration for messages. */
export function formatSeconds(ms: number): string {
	return `${ms < 10_000 ? Number((ms / 1000).toFixed(1)) : Math.round(ms / 1000)} s`;
}

/**
 * "It was sent 3 times, with 3 s of backoff between attempts; gave up after 3 attempts.": what the request did,
 * and a wait for the service's rate limit (its own Retry-After or another request's) said as such.
 */
function historyNote({ history, gaveUp }: RequestNotes): string {
	if (!history) return gaveUp ? `It ${gaveUp}.` : '';
	const sent = history.attempts <= 1 ? 'It was sent once' : `It was sent ${history.attempts} times`;
	const backoff = history.backoffMs >= 1_000 ? `, with ${formatSeconds(history.backoffMs)} of backoff between attempts` : '';
	const rateLimit = history.rateLimitWaitMs >= 1_000 ? `, after waiting ${formatSeconds(history.rateLimitWaitMs)} in all for the service's rate limit` : '';
	return `${sent}${backoff}${rateLimit}${gaveUp ? `; ${gaveUp}` : ''}.`;
}

/** "Raise Request Options > Retry Budget (Seconds) or Request Options > Max Attempts.", when the node named them. */
function raiseHint(names: SettingNames | undefined, ...keys: Array<keyof SettingNames>): string {
	const named = keys.map((key) => names?.[key]).filter((name): name is string => !!name);
	return named.length ? ` To wait longer, raise ${named.join(' or ')}.` : '';
}

function explain(failure: ServiceFailure, extra: ExplainExtra): { message: string; description?: string } {
	const note = extra.gaveUp ? historyNote(extra) : '';
	switch (failure.kind) {
		case 'apiAccess':
			return {
				message: `API access is disabled for this account: ${failure.message}`,
				description:
					'The login worked, but the service refuses API calls for this user. Ask an administrator to enable "API access" (User.hasApiAccess) for the user in the service\'s administration area, then run the workflow again.',
			};
		case 'pluginAuth': {
			// The fields to fill go in the message itself: a picker or a trigger shows only the message.
			const missing = extra.missingPluginFields ?? [];
			const what = missing.length
				? `fill in ${missing.join(', ')} in the Commerce Messaging credential`
				: 'check the Plugin API Key, Platform Type and Shop Base URI in the Commerce Messaging credential';
			return {
				message: `The service requires the shop plugin headers for this call (${what}): ${failure.message}`,
				description: missing.length
					? `Fill in ${missing.join(', ')} in the Commerce Messaging credential (sent as x-api-key, x-platform-type and x-base-uri).`
					: 'The credential sends the plugin headers, but the service refused them: check their values.',
			};
		}
		case 'validation': {
			const fields = failure.fields?.length ? ` (field: ${failure.fields.join(', ')})` : '';
			return {
				message: `The service rejected the data${fields}: ${failure.message}`,
				description: describeData(failure.data),
			};
		}
		case 'templateNotApproved': {
			const reason = (failure.data as { reason?: unknown } | undefined)?.reason;
			const rejection = typeof reason === 'string' ? ` Rejection reason: ${reason}.` : '';
			return {
				message: `The template cannot be sent: it is ${failure.state ?? 'not APPROVED'}, and only APPROVED templates can be sent`,
				description: `Service message: ${failure.message}.${rejection} Submit the template and wait until it is APPROVED (Template > Wait for Approval, or the trigger's Template Review Finished event).`,
			};
		}
		case 'rateLimit':
			return {
				message: `Rate limited by the service: ${failure.message}`,
				description: note ? `${note}${raiseHint(extra.names, 'retryBudget', 'maxAttempts')} Or send less at once: lower Concurrency or the batch size.` : undefined,
			};
		case 'tokenRefused':
			return {
				message: `The service refused the session token right after a fresh login: ${failure.message}`,
				description:
					'The login worked, but the next call was refused with HTTP 401. The service may be rejecting the tokens it issues (a signing-key or configuration problem on its side), or the account is being logged out. The node logged in once and retried once; it does not loop.',
			};
		case 'unavailable':
			return {
				message: [502, 503, 504].includes(failure.httpStatus)
					? `The service is unavailable (HTTP ${failure.httpStatus}): ${failure.message}`
					: `The service failed with HTTP ${failure.httpStatus}: ${failure.message}`,
				description: note || undefined,
			};
		default:
			return { message: failure.message, description: describeData(failure.data) };
	}
}

function describeData(data: unknown): string | undefined {
	if (data === undefined || data === null) return undefined;
	if (typeof data === 'string') return data;
	try {
		return `Details: ${JSON.stringify(data)}`;
	} catch {
		return undefined;
	}
}

/** A connection that failed or an attempt past its deadline: the time it really waited, and what it went through. */
export function networkError(
	node: INode,
	failure: { code?: string; reason: string; timedOut: boolean; waitedMs: number },
	context: RequestNotes & { itemIndex?: number; maybeApplied: boolean },
): NodeApiError {
	const note = context.gaveUp ? ` ${historyNote(context)}` : '';
	const timeoutName = context.names?.timeout ? ` (${context.names.timeout})` : '';
	const apiError = new NodeApiError(
		node,
		{ message: failure.reason, networkErrorCode: failure.code ?? 'NETWORK_ERROR' },
		{
			description: context.maybeApplied
				? 'Not retried automatically: the service may already have processed this request, and sending it again could duplicate it.'
				: failure.timedOut
					? `An attempt may take as long as the Timeout${timeoutName}, from connecting to the last byte of the answer.${note}${raiseHint(context.names, 'timeout')}`
					: `Check the Base URL and that the service is reachable.${note}`,
			itemIndex: context.itemIndex,
		},
	);
	// Set after construction: n8n rewrites messages that mention a network error code into generic text.
	apiError.message = failure.timedOut
		? `The service did not answer in time: the request timed out after ${formatSeconds(failure.waitedMs)} (${failure.code ?? 'ETIMEDOUT'})`
		: `The connection to the service failed (${failure.reason})`;
	return apiError;
}

/** A login failure, in the login's own words (which never contain the password). */
export function loginError(node: INode, message: string, itemIndex?: number): NodeApiError {
	return new NodeApiError(
		node,
		{ message },
		{ message, description: 'Check the username, password and Base URL of the Commerce Messaging credential.', itemIndex },
	);
}

/** A redirect the transport would not follow (address.ts says why). */
export function redirectRefusedError(
	node: INode,
	refusal: { message: string; description: string },
	httpStatus: number,
	itemIndex?: number,
): NodeApiError {
	const httpCode = String(httpStatus);
	return new NodeApiError(
		node,
		{ message: refusal.message, httpCode },
		{ message: refusal.message, description: refusal.description, httpCode, itemIndex },
	);
}

/** An answer larger than the transport reads. */
export function answerTooLargeError(node: INode, limitBytes: number, itemIndex?: number): NodeApiError {
	const megabytes = Math.round(limitBytes / (1024 * 1024));
	const message = `The service's answer is larger than ${megabytes} MB, the most this node reads in one answer`;
	return new NodeApiError(
		node,
		{ message },
		{
			message,
			description: 'For a list, ask smaller pages (Limit, or the paging of Other Endpoint). Nothing of the answer was used.',
			itemIndex,
		},
	);
}

/** An answer nested deeper than n8n can store and show. */
export function answerTooDeepError(node: INode, limit: number, itemIndex?: number): NodeApiError {
	const message = `The service's answer is nested more than ${limit} levels deep, more than n8n can store and show`;
	return new NodeApiError(node, { message }, { message, description: 'Nothing of the answer was used. Ask the service for a flatter answer.', itemIndex });
}
