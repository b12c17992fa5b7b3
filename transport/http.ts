import type { IHttpRequestOptions } from 'n8n-workflow';

import { findLoginFailure, networkFailure, type LoginFailure } from './failures';
import { MAX_ANSWER_DEPTH, MAX_WAIT_MS } from './settings';

/**
 * One HTTP exchange through n8n's own request helpers (API requests and the login alike), bounded: a deadline from
 * connecting to the last byte (the library's timeout only bounds idle time, and a server dripping one byte at a time
 * would hold it for ever), a size ceiling while the answer streams in, and a depth ceiling (n8n stores and shows
 * outputs with recursive code that overflows on deep enough nesting).
 */

type Response = { statusCode: number; headers?: Record<string, unknown>; body: unknown };

/** The answer as text, or why there is none. */
export type Exchange =
	| { kind: 'answer'; status: number; headers: Record<string, unknown>; text: string }
	/** No connection, or the deadline passed (`timedOut`: the service may have the request). */
	| {
			kind: 'network';
			code: string;
			reason: string;
			timedOut: boolean;
			notSent?: boolean;
			waitedMs: number;
	  }
	/** Larger than `maxAnswerBytes`. */
	| { kind: 'tooLarge' }
	/** Nested deeper than MAX_ANSWER_DEPTH. */
	| { kind: 'tooDeep' }
	| { kind: 'cancelled' }
	/** The login n8n's helper ran on the way (the token field was empty) failed. */
	| { kind: 'loginFailed'; failure: LoginFailure }
	| { kind: 'thrown'; error: unknown };

/**
 * `send`: n8n's helper. `body`: JSON text; `formData`: built anew for every attempt (a sent multipart body cannot be
 * sent again). `cancel`: the execution's signal. `startedAt`: when the deadline's Timeout counts from; undefined while
 * a login runs on the way (it has a Timeout of its own), so the request gets its whole Timeout once the token is there.
 */
export async function exchange(
	send: (options: IHttpRequestOptions) => Promise<unknown>,
	request: Pick<IHttpRequestOptions, 'method' | 'url' | 'qs'> & {
		body?: string;
		formData?: () => FormData;
	},
	limits: {
		timeoutMs: number;
		maxAnswerBytes: number;
		cancel?: AbortSignal;
		startedAt?: () => number | undefined;
	},
): Promise<Exchange> {
	const begun = Date.now();
	const startedAt = limits.startedAt ?? (() => begun);
	const deadline = new AbortController();
	// Every abort listener of the exchange is removed when it ends (`ended` aborts): a signal still listened to keeps
	// what the listener holds alive until it fires, the Timeout later.
	const ended = new AbortController();
	const onAbort = (target: AbortSignal, listener: () => void) =>
		target.addEventListener('abort', listener, { once: true, signal: ended.signal });
	const expireOrWait = () => {
		// While the start is unknown (a login on the way), the whole Timeout is left.
		const now = Date.now();
		const left = (startedAt() ?? now) + limits.timeoutMs - now;
		if (left <= 0) deadline.abort(new DOMException('The attempt timed out', 'TimeoutError'));
		else onAbort(AbortSignal.timeout(Math.min(MAX_WAIT_MS, Math.ceil(left))), expireOrWait);
	};
	expireOrWait();
	const signal = limits.cancel
		? AbortSignal.any([limits.cancel, deadline.signal])
		: deadline.signal;
	// The races bound the exchange even where the HTTP library does not take the signal (n8n sets its own).
	const aborted = new Promise<never>((_, reject) => onAbort(signal, () => reject(signal.reason)));
	aborted.catch(() => {});
	const { formData, body, ...target } = request;
	let sending: Promise<Response> | undefined;
	try {
		sending = send({
			...target,
			headers: {
				Accept: 'application/json',
				...(body !== undefined && !formData && { 'Content-Type': 'application/json' }),
			},
			// A FormData gets its multipart boundary from the HTTP library (rule M1).
			body: formData ? formData() : body,
			// Read by readBody with a ceiling: an HTML page or broken JSON is reported, not thrown.
			encoding: 'stream',
			json: false,
			returnFullResponse: true,
			// Statuses are the transport's to judge (JSend, retries, one re-login), and so are redirects (address.ts).
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			// The library's idle timeout: the fence that closes a socket the deadline already gave up on.
			timeout: Math.min(MAX_WAIT_MS, limits.timeoutMs),
			abortSignal: signal,
		}) as Promise<Response>;
		const response = await Promise.race([sending, aborted]);
		const text = await Promise.race([readBody(response, limits.maxAnswerBytes), aborted]);
		if (text === undefined) return { kind: 'tooLarge' };
		if (nestedDeeperThan(text)) return { kind: 'tooDeep' };
		return { kind: 'answer', status: response.statusCode, headers: response.headers ?? {}, text };
	} catch (error) {
		// An answer that lost the race (it came late, or was still being read) holds a socket until its stream is closed.
		void sending?.then(
			(late) => (late?.body as { destroy?: () => void } | undefined)?.destroy?.(),
			() => {},
		);
		if (limits.cancel?.aborted) return { kind: 'cancelled' };
		const waitedMs = Date.now() - (startedAt() ?? begun);
		if (deadline.signal.aborted)
			return {
				kind: 'network',
				code: 'ETIMEDOUT',
				reason: `no complete answer within ${waitedMs} ms`,
				timedOut: true,
				waitedMs,
			};
		const failure = findLoginFailure(error);
		if (failure) return { kind: 'loginFailed', failure };
		const network = networkFailure(error);
		return network
			? { kind: 'network', ...network, reason: network.code, waitedMs }
			: { kind: 'thrown', error };
	} finally {
		// Any reason will do: without one, abort() builds a DOMException and its stack trace at every request.
		ended.abort(null);
	}
}

/**
 * Whether JSON text nests deeper than MAX_ANSWER_DEPTH (brackets inside strings do not count): JSON.parse takes any
 * depth.
 */
function nestedDeeperThan(text: string) {
	let depth = 0;
	for (let at = 0; at < text.length; at++) {
		const code = text.charCodeAt(at);
		if (code === 0x22) {
			for (at++; at < text.length && text.charCodeAt(at) !== 0x22; at++)
				if (text.charCodeAt(at) === 0x5c) at++;
		} else if (code === 0x5b || code === 0x7b) {
			if (++depth > MAX_ANSWER_DEPTH) return true;
		} else if (code === 0x5d || code === 0x7d) depth--;
	}
	return false;
}

/** The answer as text, or undefined when it is larger than `maxBytes` (it is then not read any further). */
async function readBody({ body, headers }: Response, maxBytes: number) {
	if (body == null) return '';
	if (typeof body === 'string' || Buffer.isBuffer(body))
		return Buffer.byteLength(body) > maxBytes ? undefined : body.toString();
	const stream = body as AsyncIterable<Buffer> & { destroy(): void };
	if (!stream[Symbol.asyncIterator]) return JSON.stringify(body);
	if (Number(headers?.['content-length']) > maxBytes) return void stream.destroy();
	const chunks: Buffer[] = [];
	let bytes = 0;
	// Leaving the loop early destroys the stream: nothing more is read.
	for await (const chunk of stream) {
		bytes += chunk.length;
		if (bytes > maxBytes) return undefined;
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
	}
	return Buffer.concat(chunks).toString();
}
