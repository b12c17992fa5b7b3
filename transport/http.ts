import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import { findLoginFailure, networkErrorCode, TIMEOUT_CODES, type LoginFailure } from './errors';
import { MAX_WAIT_MS } from './settings';

/**
 * One HTTP exchange through n8n's own HTTP helpers, for the API requests and the login alike, bounded: a deadline
 * from connecting to the last byte (the library's timeout bounds only idle time: a server dripping one byte at a
 * time would hold it for ever), a size ceiling while the answer streams in, and a depth ceiling (n8n stores and
 * shows outputs with recursive code that overflows on deep enough nesting).
 */

/** The deepest answer taken: far beyond any real answer, far below what n8n can store and show. */
const MAX_ANSWER_DEPTH = 100;

export interface HttpRequest {
	method: IHttpRequestMethods;
	url: string;
	qs?: IDataObject;
	/** JSON text, sent as it is (written once by the caller). */
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

/** The answer as text, or why there is none. */
export type Exchange =
	| HttpAnswer
	/** No connection, or the deadline passed (`timedOut`: the service may have the request); `waitedMs` for messages. */
	| { kind: 'network'; code?: string; reason: string; timedOut: boolean; waitedMs: number }
	| { kind: 'tooLarge'; limitBytes: number }
	| { kind: 'tooDeep'; limit: number }
	| { kind: 'cancelled' }
	/** The login n8n's helper ran on the way (the token field was empty) failed. */
	| { kind: 'loginFailed'; failure: LoginFailure }
	| { kind: 'thrown'; error: unknown };

/** `cancel`: the execution's signal; `deadline`: when the caller restarts it (after a login on the way), else one of `timeoutMs`. */
export interface ExchangeLimits {
	timeoutMs: number;
	maxAnswerBytes: number;
	cancel?: AbortSignal;
	deadline?: Deadline;
}

/** A deadline that can start over: a request that logs in on its way gets its own Timeout once the login is done. */
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

	/** Since the deadline last started. */
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

export async function exchange(viaHelper: Sender, request: HttpRequest, limits: ExchangeLimits): Promise<Exchange> {
	const deadline = limits.deadline ?? new Deadline(limits.timeoutMs);
	const signal = limits.cancel ? AbortSignal.any([limits.cancel, deadline.signal]) : deadline.signal;
	try {
		// The race bounds the exchange even where an HTTP library would not honour the signal.
		const response = await untilAborted(viaHelper(requestOptions(request, limits.timeoutMs, signal), signal), signal);
		const { statusCode, headers = {}, body } = response as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
		const text = await readText(body, headers, limits.maxAnswerBytes, signal);
		if (text === undefined) return { kind: 'tooLarge', limitBytes: limits.maxAnswerBytes };
		if (nestedDeeperThan(text, MAX_ANSWER_DEPTH)) return { kind: 'tooDeep', limit: MAX_ANSWER_DEPTH };
		return { kind: 'answer', status: statusCode, headers, text };
	} catch (error) {
		if (limits.cancel?.aborted) return { kind: 'cancelled' };
		const waitedMs = deadline.waitedMs;
		if (deadline.signal.aborted) return { kind: 'network', code: 'ETIMEDOUT', reason: `no complete answer within ${waitedMs} ms`, timedOut: true, waitedMs };
		const loginFailure = findLoginFailure(error);
		if (loginFailure) return { kind: 'loginFailed', failure: loginFailure };
		const code = networkErrorCode(error);
		return code ? { kind: 'network', code, reason: code, timedOut: TIMEOUT_CODES.has(code), waitedMs } : { kind: 'thrown', error };
	}
}

/** Whether JSON text nests deeper than `limit` (brackets in strings do not count): JSON.parse takes any depth. */
function nestedDeeperThan(text: string, limit: number): boolean {
	let depth = 0;
	for (let at = 0; at < text.length; at++) {
		const code = text.charCodeAt(at);
		if (code === 0x22) {
			// A string: skip to its closing quote, past escaped characters.
			for (at++; at < text.length && text.charCodeAt(at) !== 0x22; at++) if (text.charCodeAt(at) === 0x5c) at++;
		} else if (code === 0x5b || code === 0x7b) {
			if (++depth > limit) return true;
		} else if (code === 0x5d || code === 0x7d) {
			depth--;
		}
	}
	return false;
}

function requestOptions(request: HttpRequest, timeoutMs: number, signal: AbortSignal): IHttpRequestOptions {
	const json = request.body !== undefined && !request.formData;
	return {
		method: request.method,
		url: request.url,
		qs: request.qs,
		headers: { Accept: 'application/json', ...(json ? { 'Content-Type': 'application/json' } : {}) },
		// A FormData gets its multipart boundary from the HTTP library (rule M1).
		body: request.formData ? request.formData() : request.body,
		// Read by readText with a ceiling: an HTML page or broken JSON is reported, not thrown.
		encoding: 'stream',
		json: false,
		returnFullResponse: true,
		// Statuses are the transport's (JSend, retries, one re-login); redirects are judged by redirects.ts.
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		// The library's idle timeout, as a second fence behind the deadline.
		timeout: timeoutMs,
		abortSignal: signal,
	};
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

/** The answer as text, or undefined when it is larger than `maxBytes` (it is then not read any further). */
async function readText(body: unknown, headers: Record<string, unknown>, maxBytes: number, signal: AbortSignal): Promise<string | undefined> {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return Buffer.byteLength(body) > maxBytes ? undefined : body;
	if (Buffer.isBuffer(body)) return body.length > maxBytes ? undefined : body.toString('utf8');
	const stream = body as Readable;
	if (typeof stream.on !== 'function' || typeof stream.destroy !== 'function') return JSON.stringify(body);
	if (Number(headers['content-length']) > maxBytes) {
		stream.destroy();
		return undefined;
	}
	return await new Promise<string | undefined>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let bytes = 0;
		const settle = (finish: () => void) => {
			signal.removeEventListener('abort', stop);
			finish();
		};
		const stop = () => {
			stream.destroy();
			settle(() => reject(signal.reason));
		};
		if (signal.aborted) return stop();
		signal.addEventListener('abort', stop, { once: true });
		stream.on('data', (chunk) => {
			const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
			bytes += buffer.length;
			if (bytes <= maxBytes) return void chunks.push(buffer);
			stream.destroy();
			settle(() => resolve(undefined));
		});
		stream.on('end', () => settle(() => resolve(Buffer.concat(chunks).toString('utf8'))));
		stream.on('error', (error) => settle(() => reject(error)));
	});
}
