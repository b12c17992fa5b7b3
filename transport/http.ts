import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import { MAX_WAIT_MS } from './settings';

/**
 * One HTTP exchange, bounded in time and size, for the API requests and the login alike: the request leaves through
 * n8n's own HTTP helpers (`send`), and the answer comes back as text, or as a typed reason why there is none.
 *
 * The deadline covers the whole exchange, from connecting to the last byte: the HTTP library's own timeout only
 * bounds idle time, so a server dripping one byte at a time would otherwise hold the request for as long as it
 * likes. The answer is read as a stream with a size ceiling, so a huge answer costs at most the ceiling in memory,
 * and an answer nested deeper than n8n can store (its JSON.stringify overflows near 5,000 levels) is refused.
 */

/** The deepest answer taken: far beyond any real answer, far below what n8n can store and show. */
export const MAX_ANSWER_DEPTH = 100;

/**
 * Why the login n8n runs on the way failed (login.ts throws it), as a kind the transport decides on, never by the
 * message's words.
 */
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

export interface HttpRequest {
	method: IHttpRequestMethods;
	url: string;
	qs?: IDataObject;
	headers?: IDataObject;
	/** JSON text, sent as it is with Content-Type application/json (written once by the caller). */
	body?: string;
	/** Built anew for every attempt, so a retry never re-sends a consumed body. */
	formData?: () => FormData;
}

export interface HttpAnswer {
	kind: 'answer';
	status: number;
	headers: Record<string, unknown>;
	text: string;
}

export interface NetworkFailure {
	kind: 'network';
	/** The system's error code (ECONNRESET, ...) when there is one. */
	code?: string;
	reason: string;
	/** The deadline passed: the service may or may not have received the request. */
	timedOut: boolean;
	/** How long the attempt waited before it failed (ms), for messages. */
	waitedMs: number;
}

export interface TooLarge {
	kind: 'tooLarge';
	limitBytes: number;
}

export interface TooDeep {
	kind: 'tooDeep';
	limit: number;
}

/** The execution was cancelled while the request was under way. */
export interface Cancelled {
	kind: 'cancelled';
}

/** The credential's login, which n8n's helper runs before the request when the token field is empty, failed. */
export interface LoginFailed {
	kind: 'loginFailed';
	failure: LoginFailure;
}

/** Something thrown on the way out that is none of the above: kept as is. */
export interface Thrown {
	kind: 'thrown';
	error: unknown;
}

export type Exchange = HttpAnswer | NetworkFailure | TooLarge | TooDeep | Cancelled | LoginFailed | Thrown;

export interface ExchangeLimits {
	timeoutMs: number;
	maxAnswerBytes: number;
	/** The execution's cancel signal. */
	cancel?: AbortSignal;
	/** The attempt's deadline, when its caller restarts it (after a login on the way); else one of `timeoutMs`. */
	deadline?: Deadline;
}

/**
 * An attempt's deadline, which can start over: a request that logs in on its way first waits for the login (which
 * has a deadline of its own), then gets its own Timeout from the moment the login is done.
 */
export class Deadline {
	private readonly controller = new AbortController();
	private timer?: AbortSignal;
	private startedAt = Date.now();

	constructor(ms: number) {
		this.restart(ms);
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	/** How long the attempt has waited since the deadline last started. */
	get waitedMs(): number {
		return Date.now() - this.startedAt;
	}

	restart(ms: number): void {
		this.timer?.removeEventListener('abort', this.expire);
		this.startedAt = Date.now();
		this.timer = AbortSignal.timeout(Math.max(1, Math.min(MAX_WAIT_MS, Math.round(ms))));
		this.timer.addEventListener('abort', this.expire, { once: true });
	}

	private readonly expire = () => this.controller.abort(new DOMException('The attempt timed out', 'TimeoutError'));
}

/** How the exchange's request leaves: n8n's helper, given the options and the signal that ends the exchange. */
export type Sender = (options: IHttpRequestOptions, signal: AbortSignal) => Promise<unknown>;

export async function exchange(send: Sender, request: HttpRequest, limits: ExchangeLimits): Promise<Exchange> {
	const deadline = limits.deadline ?? new Deadline(limits.timeoutMs);
	const signal = limits.cancel ? AbortSignal.any([limits.cancel, deadline.signal]) : deadline.signal;
	const ended = (): Exchange | undefined => {
		if (limits.cancel?.aborted) return { kind: 'cancelled' };
		if (!deadline.signal.aborted) return undefined;
		const waitedMs = deadline.waitedMs;
		return { kind: 'network', code: 'ETIMEDOUT', reason: `no complete answer within ${waitedMs} ms`, timedOut: true, waitedMs };
	};
	try {
		// The race bounds the exchange even where an HTTP library would not honour the signal.
		const response = await untilAborted(send(requestOptions(request, limits.timeoutMs, signal), signal), signal);
		const { statusCode, headers, body } = response as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
		const text = await readText(body, headers ?? {}, limits.maxAnswerBytes, signal);
		if (text === undefined) return { kind: 'tooLarge', limitBytes: limits.maxAnswerBytes };
		if (nestedDeeperThan(text, MAX_ANSWER_DEPTH)) return { kind: 'tooDeep', limit: MAX_ANSWER_DEPTH };
		return { kind: 'answer', status: statusCode, headers: headers ?? {}, text };
	} catch (error) {
		const end = ended();
		if (end) return end;
		const loginFailure = findLoginFailure(error);
		if (loginFailure) return { kind: 'loginFailed', failure: loginFailure };
		const code = networkErrorCode(error);
		if (code) return { kind: 'network', code, reason: code, timedOut: TIMEOUT_CODES.has(code), waitedMs: deadline.waitedMs };
		return { kind: 'thrown', error };
	}
}

/**
 * Whether JSON text nests deeper than `limit` (brackets inside strings do not count): one pass over the text, which
 * JSON.parse would accept at any depth.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
	let depth = 0;
	for (let at = 0; at < text.length; at++) {
		const code = text.charCodeAt(at);
		if (code === 0x22) {
			// A string: skip to its closing quote, past escaped characters.
			for (at++; at < text.length; at++) {
				const inner = text.charCodeAt(at);
				if (inner === 0x5c) at++;
				else if (inner === 0x22) break;
			}
		} else if (code === 0x5b || code === 0x7b) {
			if (++depth > limit) return true;
		} else if (code === 0x5d || code === 0x7d) {
			depth--;
		}
	}
	return false;
}

function requestOptions(request: HttpRequest, timeoutMs: number, signal: AbortSignal): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: request.url,
		qs: request.qs,
		headers: { Accept: 'application/json', ...(request.headers ?? {}) },
		// Read by readText with a ceiling: an HTML page or broken JSON is reported, not thrown.
		encoding: 'stream',
		json: false,
		returnFullResponse: true,
		// Status handling is the transport's (JSend, retries, one re-login), not n8n's generic 401 retry.
		ignoreHttpStatusErrors: true,
		// Redirects are judged by the transport (address.ts), never followed blindly with the credentials.
		disableFollowRedirect: true,
		// The library's idle timeout, as a second fence behind the deadline.
		timeout: timeoutMs,
		abortSignal: signal,
	};
	if (request.formData) {
		// The multipart boundary is set by the HTTP library from the FormData itself (rule M1).
		options.body = request.formData();
	} else if (request.body !== undefined) {
		options.body = request.body;
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	return options;
}

async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) throw signal.reason;
	let onAbort: () => void = () => {};
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(signal.reason);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	// The request may still settle after the race is lost: its outcome is then nobody's concern.
	work.catch(() => {});
	try {
		return await Promise.race([work, aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

interface Readable {
	on(event: string, listener: (...args: unknown[]) => void): unknown;
	destroy(error?: Error): unknown;
}

const isReadable = (body: unknown): body is Readable =>
	!!body && typeof (body as Readable).on === 'function' && typeof (body as Readable).destroy === 'function';

/** The answer as text, or undefined when it is larger than `maxBytes` (it is then not read any further). */
async function readText(
	body: unknown,
	headers: Record<string, unknown>,
	maxBytes: number,
	signal: AbortSignal,
): Promise<string | undefined> {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return Buffer.byteLength(body) > maxBytes ? undefined : body;
	if (Buffer.isBuffer(body)) return body.length > maxBytes ? undefined : body.toString('utf8');
	if (!isReadable(body)) return JSON.stringify(body);
	const declared = Number(headers['content-length']);
	if (Number.isFinite(declared) && declared > maxBytes) {
		body.destroy();
		return undefined;
	}
	return await new Promise<string | undefined>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let bytes = 0;
		const stop = () => {
			body.destroy();
			reject(signal.reason);
		};
		if (signal.aborted) return stop();
		signal.addEventListener('abort', stop, { once: true });
		const settle = (finish: () => void) => {
			signal.removeEventListener('abort', stop);
			finish();
		};
		body.on('data', (chunk) => {
			const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
			bytes += buffer.length;
			if (bytes > maxBytes) {
				body.destroy();
				settle(() => resolve(undefined));
				return;
			}
			chunks.push(buffer);
		});
		body.on('end', () => settle(() => resolve(Buffer.concat(chunks).toString('utf8'))));
		body.on('error', (error) => settle(() => reject(error)));
	});
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT']);

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
