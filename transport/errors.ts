import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { SettingNames } from './settings';

/**
 * Everything about a failure, and only the failure path runs it: the service's error answers classified (rules
 * E2-E5, A3-A5), the login's and the network's failures typed, and each worded for the user as an n8n error that
 * names what to do. Decisions are made from these types, never from a message's words.
 */

// The service's refusals.

export type FailureKind =
	| 'rateLimit'
	/** Any refusal of the token itself: expired, revoked, signed with a rotated key, missing (rule A3). */
	| 'tokenRefused'
	| 'apiAccess'
	/** The products area's plugin headers are missing or wrong (rule A5). */
	| 'pluginAuth'
	| 'validation'
	| 'templateNotApproved'
	/** HTTP 5xx: a failure on the service's side that may pass. */
	| 'unavailable'
	| 'service';

export interface ServiceFailure {
	kind: FailureKind;
	httpStatus: number;
	message: string;
	code?: string;
	data?: unknown;
	/** From the Retry-After header, in ms (either of its forms). */
	retryAfterMs?: number;
	/** Field names a validation failure points at (rule E3). */
	fields?: string[];
	/** The template state an E4 answer carries. */
	state?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** An answer that is not a success: `envelope` is its parsed body, undefined when the body is not JSON. */
export function readFailure(
	statusCode: number,
	envelope: IDataObject | undefined,
	body: string,
	retryAfter: string | undefined,
	now: number,
): ServiceFailure {
	const retryAfterMs = parseRetryAfter(retryAfter, now);
	const ok = statusCode >= 200 && statusCode < 300;
	if (!envelope) {
		const looks = /^\s*</.test(body) ? 'an HTML page' : 'a body that is not JSON';
		const plain = body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
		return {
			kind: statusCode === 429 ? 'rateLimit' : statusCode >= 500 ? 'unavailable' : 'service',
			httpStatus: statusCode,
			message: ok ? 'The service answered with a body that is not valid JSON' : `The service answered HTTP ${statusCode} with ${looks}${plain ? `: "${plain.slice(0, 120)}"` : ''}`,
			retryAfterMs,
		};
	}
	const code = envelope.code === undefined || envelope.code === null ? undefined : String(envelope.code);
	const message =
		text(envelope.message) ??
		text((envelope.error as IDataObject | undefined)?.message) ??
		(ok ? `The service reported status "${String(envelope.status)}"` : `The service answered HTTP ${statusCode}`);
	const failure: ServiceFailure = { kind: classify(statusCode, code, message, envelope.data), httpStatus: statusCode, message, code, data: envelope.data, retryAfterMs };
	if (failure.kind === 'validation') failure.fields = validationFields(envelope.data);
	if (failure.kind === 'templateNotApproved') failure.state = stateOf(envelope.data) ?? /\b(DRAFT|PENDING|REJECTED|APPROVED)\b/.exec(message)?.[1];
	return failure;
}

function classify(statusCode: number, code: string | undefined, message: string, data: unknown): FailureKind {
	const upperCode = (code ?? '').toUpperCase();
	const refusal = statusCode === 401 || statusCode === 403 || upperCode === '401' || upperCode === '403';
	if (statusCode === 429 || upperCode === '429' || /RATE_?LIMIT|TOO_MANY/.test(upperCode)) return 'rateLimit';
	if (upperCode === 'API_ACCESS_DISABLED' || (refusal && /api.?access/i.test(message))) return 'apiAccess';
	if (upperCode === 'PLUGIN_AUTH_REQUIRED' || (refusal && /x-api-key|x-platform-type|x-base-uri|plugin/i.test(message))) return 'pluginAuth';
	// Any other 401 is about the token (expired, revoked, rotated signing key, "JWT Token not found", no body).
	if (statusCode === 401 || upperCode === '401' || /^JWT_|TOKEN_EXPIRED|TOKEN_INVALID/.test(upperCode)) return 'tokenRefused';
	// Rule E4 names no code, only HTTP 400 with the current state: a service whose codes are numbers is read by that.
	if (upperCode === 'TEMPLATE_NOT_APPROVED' || (statusCode === 400 && /^(DRAFT|PENDING|REJECTED)$/i.test(stateOf(data) ?? ''))) {
		return 'templateNotApproved';
	}
	if (/VALIDATION|INVALID_PHONE/.test(upperCode) || statusCode === 422) return 'validation';
	// Decided by the status alone: a 5xx with a JSON body is as passing as one with an HTML page.
	return statusCode >= 500 ? 'unavailable' : 'service';
}

const stateOf = (data: unknown) => text(data && typeof data === 'object' ? (data as IDataObject).state : undefined);

/** Field names from the likely validation shapes: violations[], errors{} / errors[], fields, or a plain map. */
export function validationFields(data: unknown): string[] {
	if (!data || typeof data !== 'object') return [];
	const source = data as IDataObject;
	const fromList = (list: unknown[]) =>
		list
			.map((entry) => {
				if (typeof entry === 'string') return entry;
				const item = (entry ?? {}) as IDataObject;
				return text(item.propertyPath) ?? text(item.field) ?? text(item.name);
			})
			.filter((name): name is string => !!name);
	for (const key of ['violations', 'errors', 'fields']) {
		const value = source[key];
		if (Array.isArray(value)) return fromList(value);
		if (value && typeof value === 'object') return Object.keys(value);
	}
	if (Array.isArray(data)) return fromList(data);
	return Object.keys(source).filter((key) => key !== 'state');
}

/**
 * Retry-After is either delay-seconds (digits only) or an HTTP date (a day name first). Anything else ("-5",
 * "12, 13") is ignored, so the caller falls back to its own backoff instead of retrying at once.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined) return undefined;
	const trimmed = value.trim();
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /.test(trimmed)) return undefined;
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

// The login's and the network's failures.

/** Why the login n8n runs on the way failed (login.ts throws it), as a kind the transport decides on. */
export type LoginFailureKind =
	/** No connection (refused, no such host): nothing was sent; a later item may try again. */
	| 'unreachable'
	/** The service did not answer within the run's Timeout: the run does not try again. */
	| 'timeout'
	/** HTTP 5xx or 429: the service is busy; a later item may try again. */
	| 'busy'
	/** The service refused the login (wrong password, unknown user, ...). */
	| 'refused'
	/** A redirect (never followed with the password). */
	| 'redirect'
	/** An answer without a usable token. */
	| 'badAnswer'
	/** The execution was cancelled while logging in. */
	| 'cancelled';

/** Failures that may pass: the next item of the run tries again. The others are the run's answer for every item. */
const PASSING: ReadonlySet<LoginFailureKind> = new Set(['unreachable', 'busy']);

/** A failed login. Its message is worded for the user and never contains the password (rule A6). */
export class LoginFailure extends Error {
	constructor(
		readonly kind: LoginFailureKind,
		reason: string,
	) {
		super(`Login to the Commerce Messaging service failed: ${reason}`);
		this.name = 'LoginFailure';
	}

	get passing(): boolean {
		return PASSING.has(this.kind);
	}
}

/** The login failure behind an error n8n's helper threw (it wraps what the credential's login threw). */
export function findLoginFailure(error: unknown): LoginFailure | undefined {
	const seen = new Set<unknown>();
	let current = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		// By shape as well: a credential loaded apart from the node could carry its own copy of this class.
		const candidate = current as Partial<LoginFailure>;
		if (current instanceof LoginFailure || (candidate.name === 'LoginFailure' && typeof candidate.kind === 'string')) {
			return current as LoginFailure;
		}
		seen.add(current);
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** The system error codes that mean the request timed out. */
export const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT']);

/** The system error code of a failed request, wherever n8n or the HTTP library put it. */
export function networkErrorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current = error as { code?: unknown; cause?: unknown } | undefined;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		if (typeof current.code === 'string' && /^E[A-Z_]+$/.test(current.code)) return current.code;
		current = current.cause as typeof current;
	}
	const message = (error as Error)?.message ?? '';
	if (/socket hang up/i.test(message)) return 'ECONNRESET';
	if (/timeout of \d+ms exceeded|timed out/i.test(message)) return 'ETIMEDOUT';
	return undefined;
}

// The errors the user sees.

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
}

/** What a failed request went through, for its error's description. */
interface RequestNotes {
	history?: RequestHistory;
	/** How messages name the settings the user can change. */
	names?: SettingNames;
	/** Why the request was not tried again, when it could have been. */
	gaveUp?: string;
}

/** 5 MB, 1.5 MB, 1,024 MB: a size for messages. */
export const formatMegabytes = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(1)).toLocaleString('en-US')} MB`;

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
				description: note ? `${note}${raiseHint(extra.names, 'retryBudget', 'maxAttempts')}${extra.names?.sendLess ? ` Or send less at once: ${extra.names.sendLess}.` : ''}` : undefined,
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

/** A redirect the transport would not follow (redirects.ts says why). */
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
	const message = `The service's answer is larger than ${formatMegabytes(limitBytes)}, the most this node reads in one answer`;
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
