import type { IDataObject } from 'n8n-workflow';

import { formatDuration } from './format';
import { decodeCharacterReferences } from './redact';
import type { RetrySettings } from './settings';

/**
 * What a failure is, and whether trying again can help (rules E2-E5, A3-A5, L1). A service failure is classified by
 * its HTTP status and code; only where the document names a cause without a code (missing API access, the plugin
 * headers) is the message of a 401 or 403 read for it. The wording the user sees is messages.ts.
 */

export interface ServiceFailure {
	kind:
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
	httpStatus: number;
	message: string;
	code?: string;
	data?: unknown;
	retryAfterMs?: number;
	/** Field names a validation failure points at (rule E3). */
	fields?: string[];
	/** The template state an E4 answer carries. */
	state?: string;
}

const nonEmptyText = (value: unknown) =>
	typeof value === 'string' && value.length > 0 ? value : undefined;
const stateOf = (data: unknown) => nonEmptyText((data as IDataObject | undefined)?.state);

/** An answer that is not a success; `envelope` is its parsed body, undefined when the body is not JSON. */
export function readFailure(
	httpStatus: number,
	envelope: IDataObject | undefined,
	body: string,
	retryAfter: string | undefined,
	redact: (text: string) => string,
): ServiceFailure {
	const retryAfterMs = parseRetryAfter(retryAfter);
	const ok = httpStatus >= 200 && httpStatus < 300;
	if (!envelope) {
		// Rule A6: the secrets go before the text loses its tags, is cut or has its spaces joined (each could leave part
		// of one), and again once HTML's character references are read (a debug page writes a password's `&` as `&amp;`).
		const plain = redact(decodeCharacterReferences(redact(body).replace(/<[^>]*>/g, ' ')))
			.replace(/\s+/g, ' ')
			.trim();
		return {
			kind: httpStatus === 429 ? 'rateLimit' : httpStatus >= 500 ? 'unavailable' : 'service',
			httpStatus,
			message: ok
				? 'The service answered with a body that is not valid JSON'
				: `The service answered HTTP ${httpStatus} with ${/^\s*</.test(body) ? 'an HTML page' : 'a body that is not JSON'}${plain ? `: "${plain.slice(0, 120)}"` : ''}`,
			retryAfterMs,
		};
	}
	const code = envelope.code == null ? undefined : String(envelope.code);
	const message =
		nonEmptyText(envelope.message) ??
		nonEmptyText((envelope.error as IDataObject | undefined)?.message) ??
		(ok
			? `The service reported status "${String(envelope.status)}"`
			: `The service answered HTTP ${httpStatus}`);
	const { data } = envelope;
	const kind = classify(httpStatus, (code ?? '').toUpperCase(), message, data);
	return {
		kind,
		httpStatus,
		message,
		code,
		data,
		retryAfterMs,
		fields: kind === 'validation' ? validationFields(data) : undefined,
		state:
			kind === 'templateNotApproved'
				? (stateOf(data) ?? /\b(DRAFT|PENDING|REJECTED|APPROVED)\b/.exec(message)?.[1])
				: undefined,
	};
}

function classify(httpStatus: number, code: string, message: string, data: unknown) {
	const refusal = httpStatus === 401 || httpStatus === 403 || code === '401' || code === '403';
	if (httpStatus === 429 || code === '429' || /RATE_?LIMIT|TOO_MANY/.test(code)) return 'rateLimit';
	if (code === 'API_ACCESS_DISABLED' || (refusal && /api.?access/i.test(message)))
		return 'apiAccess';
	if (
		code === 'PLUGIN_AUTH_REQUIRED' ||
		(refusal && /x-api-key|x-platform-type|x-base-uri|plugin/i.test(message))
	)
		return 'pluginAuth';
	// Any other 401 is about the token (expired, revoked, rotated signing key, "JWT Token not found", no body).
	if (httpStatus === 401 || code === '401' || /^JWT_|TOKEN_EXPIRED|TOKEN_INVALID/.test(code))
		return 'tokenRefused';
	// Rule E4 names no code, only HTTP 400 with the current state.
	if (
		code === 'TEMPLATE_NOT_APPROVED' ||
		(httpStatus === 400 && /^(DRAFT|PENDING|REJECTED)$/i.test(stateOf(data) ?? ''))
	)
		return 'templateNotApproved';
	if (/VALIDATION|INVALID_PHONE/.test(code) || httpStatus === 422) return 'validation';
	return httpStatus >= 500 ? 'unavailable' : 'service';
}

/** Field names from the likely validation shapes: violations[], errors{} / errors[], fields, or a plain map. */
export function validationFields(data: unknown) {
	if (!data || typeof data !== 'object') return [];
	const fromList = (list: unknown[]) =>
		list.flatMap(
			(entry) =>
				nonEmptyText(entry) ??
				['propertyPath', 'field', 'name']
					.map((key) => nonEmptyText((entry as IDataObject)?.[key]))
					.find(Boolean) ??
				[],
		);
	if (Array.isArray(data)) return fromList(data);
	for (const key of ['violations', 'errors', 'fields']) {
		const value = (data as IDataObject)[key];
		if (Array.isArray(value)) return fromList(value);
		if (value && typeof value === 'object') return Object.keys(value);
	}
	return Object.keys(data).filter((key) => key !== 'state');
}

/** Retry-After: delay-seconds (digits only) or an HTTP date; anything else ("-5", "12, 13") is ignored. */
export function parseRetryAfter(value: string | undefined, now = Date.now()) {
	const trimmed = value?.trim() ?? '';
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	// Only what starts as an HTTP date is read as one: Date.parse takes far more.
	const date = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /.test(trimmed) ? Date.parse(trimmed) : NaN;
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Why a request is tried again, as the run's hints count it. */
export type RetryKind = 'rate limit' | 'timeout' | 'connection' | 'service error';

/**
 * A failed login; its message is worded for the user and never holds the password (rule A6). `retry`: why it may be
 * tried again (no connection, a rate limit, a failing service; `retryAfterMs` the service's Retry-After), so the
 * request tries again and a later item of the run too; any other failure answers them all. `refusal`: the service's
 * own answer, when it refused (rule E2).
 */
export class LoginFailure extends Error {
	name = 'LoginFailure';

	constructor(
		reason: string,
		readonly retry?: RetryKind,
		readonly retryAfterMs?: number,
		readonly refusal?: Pick<ServiceFailure, 'httpStatus' | 'code' | 'message'>,
	) {
		super(`Login to the Commerce Messaging service failed: ${reason}`);
	}
}

/** An error and the links of its `cause` chain, each once. */
function causes(error: unknown) {
	const links = new Set<object>();
	for (
		let link = error;
		link && typeof link === 'object' && !links.has(link);
		link = (link as IDataObject).cause
	)
		links.add(link);
	return [...links] as IDataObject[];
}

/** The login failure behind an error n8n's helper threw; by shape too, as a credential may load its own copy of the class. */
export const findLoginFailure = (error: unknown) =>
	causes(error).find((link) => link.name === 'LoginFailure' && 'retry' in link) as
		| LoginFailure
		| undefined;

/**
 * A network failure: its system code wherever n8n or the HTTP library put it; `timedOut`; `notSent`: no connection was
 * made (the service never saw the request, so any method may be tried again).
 */
export function networkFailure(error: unknown) {
	const message = (error as Error | undefined)?.message ?? '';
	const code =
		causes(error)
			.map((link) => link.code)
			.find((code): code is string => typeof code === 'string' && /^E[A-Z_]+$/.test(code)) ??
		(/socket hang up/i.test(message)
			? 'ECONNRESET'
			: /timeout of \d+ms exceeded|timed out/i.test(message)
				? 'ETIMEDOUT'
				: undefined);
	return code === undefined
		? undefined
		: {
				code,
				timedOut: ['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT'].includes(code),
				notSent: ['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND'].includes(code),
			};
}

/** Largest random wait added to a Retry-After: several executions of one account do not come back in the same millisecond. */
const RETRY_AFTER_JITTER_MS = 100;

/**
 * @param failures the failed attempts so far (a re-login or a followed redirect is not one)
 * @param elapsedMs how long the request has taken, attempts and waits
 * @param retryAfterMs the service's Retry-After: never sooner, however long
 */
export function decideRetry(
	settings: RetrySettings,
	failures: number,
	elapsedMs: number,
	retryAfterMs: number | undefined,
	random = Math.random,
) {
	// Equal jitter: half of the exponential step fixed (never near zero), half random (clients do not move in lockstep).
	const step = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (failures - 1));
	const delayMs =
		retryAfterMs !== undefined
			? retryAfterMs + Math.floor(random() * Math.min(RETRY_AFTER_JITTER_MS, step))
			: Math.ceil(step / 2 + random() * (step / 2));
	const budgetLeft = settings.maxTotalWaitMs - elapsedMs;
	const budget = formatDuration(settings.maxTotalWaitMs);
	const reason =
		failures >= settings.maxAttempts
			? `gave up after ${failures} attempts`
			: budgetLeft <= 0
				? `the ${budget} retry budget is used up`
				: retryAfterMs !== undefined && retryAfterMs > budgetLeft
					? `the service asked to wait ${formatDuration(retryAfterMs)}, more than the ${formatDuration(budgetLeft)} of retry budget left`
					: delayMs >= budgetLeft
						? `the ${budget} retry budget would be used up before the next attempt`
						: undefined;
	return reason === undefined
		? { retry: true as const, delayMs }
		: { retry: false as const, reason };
}
