// @ts-check
'use strict';
/**
 * Fault injection: a fault matches requests by method (optional) and path (exact string or RegExp, query string
 * excluded) and answers them `times` times (or every request for `forMs` ms) instead of the real handler, then
 * disappears. It runs before authentication and before the handler, so a faulted request never changes state
 * (except `slow`, which only delays the real answer).
 */
const { errorBody } = require('./jsend');
const { requestState } = require('./context');

const KINDS = /** @type {const} */ ([
	'429', '429-no-retry-after', '500', '502', '503', '504', 'reset', 'slow', 'malformed-json', 'html',
	'jsend-error-200', 'rate-limit-200', 'expired-token-200', 'expired-token-401', 'ignore-page',
	'redirect', '401-empty', 'jwt-invalid', 'jwt-not-found', 'echo-headers', 'hang', 'api-access-401', 'forbidden-403',
	'plugin-headers-missing',
]);

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/** @type {Record<string, [number, Record<string, unknown>]>} fixed answers of servers built differently: [status, exact body] */
const BARE = {
	'jwt-invalid': [401, { status: 'error', code: 'JWT_INVALID', message: 'Invalid JWT Token' }],
	// LexikJWTAuthenticationBundle's own answer, not JSend.
	'jwt-not-found': [401, { code: 401, message: 'JWT Token not found' }],
	'api-access-401': [401, { status: 'error', message: 'API access is disabled for this user' }],
	'forbidden-403': [403, { status: 'error', code: 'FORBIDDEN', message: 'Access denied: insufficient role' }],
	'plugin-headers-missing': [401, { status: 'error', code: 'PLUGIN_AUTH_REQUIRED',
		message: 'Missing x-api-key, x-platform-type or x-base-uri header' }],
};

/**
 * @typedef {typeof KINDS[number]} FaultKind
 * @typedef {{ method?: string, path: string | RegExp, kind: FaultKind | number, times?: number, forMs?: number,
 *   retryAfter?: number, retryAfterDate?: boolean, retryAfterRaw?: string, delayMs?: number, status?: number,
 *   location?: string, format?: string }} FaultSpec
 * @typedef {{ id: number, method: string | null, path: string | RegExp, kind: FaultKind, remaining: number,
 *   until: number | null, retryAfter: number | undefined, retryAfterDate: boolean, retryAfterRaw: string | undefined,
 *   delayMs: number, status: number | undefined, location: string | undefined, format: string, hits: number }} Fault
 */

const SERVER_ERRORS = {
	500: ['INTERNAL_ERROR', 'Internal server error'],
	502: ['BAD_GATEWAY', 'Bad gateway'],
	503: ['SERVICE_UNAVAILABLE', 'Service temporarily unavailable'],
	504: ['GATEWAY_TIMEOUT', 'Gateway timeout'],
};

const HTML_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1>'
	+ '</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

class Faults {
	constructor() {
		/** @type {Fault[]} */ this.list = [];
		this.seq = 0;
		/** @type {Set<{ timer: NodeJS.Timeout, resolve: () => void }>} */ this.sleepers = new Set();
		/** @type {Set<import('node:net').Socket>} sockets of requests that a `hang` fault never answers */
		this.hung = new Set();
	}

	/**
	 * @param {FaultSpec} spec
	 * @returns {Fault}
	 */
	inject(spec) {
		const kind = /** @type {FaultKind} */ (String(spec.kind));
		if (!KINDS.includes(kind)) throw new Error(`unknown fault kind "${kind}"; one of ${KINDS.join(', ')}`);
		if (!(typeof spec.path === 'string' || spec.path instanceof RegExp)) throw new Error('fault needs a path (string or RegExp)');
		const times = spec.times ?? 1;
		if (!(times > 0)) throw new Error('fault times must be > 0 (Infinity allowed)');
		if (spec.forMs !== undefined && !(typeof spec.forMs === 'number' && spec.forMs > 0)) throw new Error('fault forMs must be a number > 0');
		if (spec.retryAfterRaw !== undefined && typeof spec.retryAfterRaw !== 'string') throw new Error('fault retryAfterRaw must be a string');
		let status = spec.status;
		if (kind === 'redirect') {
			status ??= 307;
			if (!REDIRECT_STATUSES.includes(status)) throw new Error(`redirect status must be one of ${REDIRECT_STATUSES.join(', ')}`);
			if (typeof spec.location !== 'string' || spec.location === '') throw new Error('redirect fault needs a location');
		} else if (kind === 'echo-headers') {
			status ??= 500;
			if (!Number.isInteger(status) || status < 200 || status > 599) throw new Error('echo-headers status must be an integer 200-599');
		}
		/** @type {Fault} */
		const fault = {
			id: ++this.seq,
			method: spec.method ? spec.method.toUpperCase() : null,
			path: spec.path,
			kind,
			// forMs: every request for that long, whatever the count.
			remaining: spec.forMs !== undefined ? Infinity : times,
			until: spec.forMs !== undefined ? Date.now() + spec.forMs : null,
			retryAfter: spec.retryAfter,
			retryAfterDate: spec.retryAfterDate === true,
			retryAfterRaw: spec.retryAfterRaw,
			delayMs: spec.delayMs ?? 1000,
			status,
			location: spec.location,
			// echo-headers: 'html' (a debug page) or 'json' (a JSend error whose message quotes the request)
			format: spec.format === 'json' ? 'json' : 'html',
			hits: 0,
		};
		this.list.push(fault);
		return fault;
	}

	clear() {
		this.list.length = 0;
		for (const s of this.sleepers) {
			clearTimeout(s.timer);
			s.resolve();
		}
		this.sleepers.clear();
	}

	/** Ends the requests that `hang` faults left open (on close, so the server stops promptly). */
	dropHung() {
		for (const socket of this.hung) socket.destroy();
		this.hung.clear();
	}

	/**
	 * Takes one use of the first fault matching this request, if any.
	 * @param {string} method
	 * @param {string} path
	 * @returns {Fault | null}
	 */
	take(method, path) {
		if (this.list.length === 0) return null;
		this.prune();
		for (let i = 0; i < this.list.length; i++) {
			const f = this.list[i];
			if (f.method && f.method !== method) continue;
			if (typeof f.path === 'string' ? f.path !== path : !f.path.test(path)) continue;
			f.hits++;
			if (--f.remaining <= 0) this.list.splice(i, 1);
			return f;
		}
		return null;
	}

	/** @param {number} ms */
	sleep(ms) {
		return new Promise((resolve) => {
			const sleeper = { timer: setTimeout(() => { this.sleepers.delete(sleeper); resolve(undefined); }, ms), resolve: () => resolve(undefined) };
			this.sleepers.add(sleeper);
		});
	}

	/** Drops the faults whose forMs window is over. */
	prune() {
		const now = Date.now();
		for (let i = this.list.length - 1; i >= 0; i--) {
			const until = this.list[i].until;
			if (until !== null && now >= until) this.list.splice(i, 1);
		}
	}

	/** Pending faults as plain JSON. */
	toJSON() {
		this.prune();
		return this.list.map((f) => ({ ...f, path: String(f.path), remaining: Number.isFinite(f.remaining) ? f.remaining : 'Infinity' }));
	}
}

/**
 * onRequest hook applying faults. Returns true when the fault answered (or killed) the request.
 * @param {Faults} faults
 * @param {import('fastify').FastifyRequest} req
 * @param {import('fastify').FastifyReply} reply
 * @param {string} path
 * @returns {Promise<boolean>}
 */
async function applyFault(faults, req, reply, path) {
	const fault = faults.take(req.method, path);
	if (!fault) return false;
	const entry = requestState(req).entry;
	if (entry) entry.fault = fault.kind;
	if (fault.kind === 'slow') {
		await faults.sleep(fault.delayMs);
		return false;
	}
	if (fault.kind === 'ignore-page') {
		// A server that ignores the page parameters: every page request is answered with page 1.
		const query = /** @type {Record<string, unknown>} */ (req.query ?? {});
		for (const name of ['currentPage', 'page']) if (name in query) query[name] = '1';
		return false;
	}
	if (fault.kind === 'reset') {
		reply.hijack();
		req.raw.socket.destroy();
		return true;
	}
	if (fault.kind === 'hang') {
		reply.hijack();
		const socket = req.raw.socket;
		faults.hung.add(socket);
		socket.once('close', () => faults.hung.delete(socket));
		return true;
	}
	if (fault.kind === 'echo-headers') {
		reply.hijack();
		const body = await readBody(req.raw);
		const res = reply.raw;
		if (res.destroyed) return true;
		if (entry) entry.status = /** @type {number} */ (fault.status);
		if (fault.format === 'json') {
			res.writeHead(/** @type {number} */ (fault.status), { 'content-type': 'application/json' });
			res.end(JSON.stringify(echoJson(req.raw, body)));
			return true;
		}
		res.writeHead(/** @type {number} */ (fault.status), { 'content-type': 'text/html; charset=utf-8' });
		res.end(echoPage(req.raw, body));
		return true;
	}
	if (fault.retryAfterRaw !== undefined && fault.kind !== '429-no-retry-after') {
		reply.header('Retry-After', fault.retryAfterRaw);
	} else if (fault.retryAfter !== undefined && fault.kind !== '429-no-retry-after') {
		reply.header('Retry-After', fault.retryAfterDate
			? new Date(Date.now() + fault.retryAfter * 1000).toUTCString()
			: String(fault.retryAfter));
	} else if (fault.kind === '429' && fault.retryAfterDate) {
		reply.header('Retry-After', new Date(Date.now() + 1000).toUTCString());
	}
	switch (fault.kind) {
		case '429':
		case '429-no-retry-after':
			reply.code(429).send(errorBody('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded. Slow down and retry later.'));
			break;
		case '500': case '502': case '503': case '504': {
			const [code, message] = SERVER_ERRORS[fault.kind];
			reply.code(Number(fault.kind)).send(errorBody(code, message));
			break;
		}
		case 'malformed-json':
			reply.code(200).type('application/json; charset=utf-8').send('{"status":"success","data":{"id":12,"na');
			break;
		case 'html':
			reply.code(502).type('text/html; charset=utf-8').send(HTML_502);
			break;
		case 'jsend-error-200':
			reply.code(200).send(errorBody('INTERNAL_ERROR', 'An internal error occurred while processing the request.'));
			break;
		case 'rate-limit-200':
			reply.code(200).send(errorBody('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded for this account. Retry later.'));
			break;
		case 'expired-token-200':
		case 'expired-token-401':
			if (entry) entry.tokenExpired = true;
			reply.code(fault.kind === 'expired-token-200' ? 200 : 401).send(errorBody('JWT_EXPIRED', 'Expired JWT Token'));
			break;
		case 'redirect':
			// Location verbatim: an absolute URL (maybe another host) or a path.
			reply.code(/** @type {number} */ (fault.status)).header('Location', /** @type {string} */ (fault.location)).send();
			break;
		case '401-empty':
			reply.code(401).send();
			break;
		case 'jwt-invalid': case 'jwt-not-found': case 'api-access-401': case 'forbidden-403': case 'plugin-headers-missing': {
			const [status, body] = BARE[fault.kind];
			requestState(req).verbatim = true;
			reply.code(status).send(body);
			break;
		}
	}
	return true;
}

/**
 * The raw request body (the fault answers before fastify reads it).
 * @param {import('node:http').IncomingMessage} raw
 * @returns {Promise<string>}
 */
function readBody(raw) {
	return new Promise((resolve) => {
		/** @type {Buffer[]} */
		const chunks = [];
		raw.on('data', (c) => chunks.push(c));
		raw.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		raw.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
		raw.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
	});
}

/** @param {string} text */
function escapeHtml(text) {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A misconfigured debug error page: every request header (credentials included) and the raw body, as received.
 * @param {import('node:http').IncomingMessage} raw
 * @param {string} body
 */
function echoPage(raw, body) {
	const rows = [];
	for (let i = 0; i < raw.rawHeaders.length; i += 2) {
		rows.push(`<tr><th>${escapeHtml(raw.rawHeaders[i])}</th><td>${escapeHtml(raw.rawHeaders[i + 1])}</td></tr>`);
	}
	return '<!DOCTYPE html>\n<html><head><title>Internal Server Error (debug)</title></head><body>\n'
		+ `<h1>Internal Server Error</h1>\n<h2>Request</h2>\n<pre>${escapeHtml(`${raw.method} ${raw.url}`)}</pre>\n`
		+ `<h2>Headers</h2>\n<table>\n${rows.join('\n')}\n</table>\n<h2>Body</h2>\n<pre>${escapeHtml(body)}</pre>\n</body></html>\n`;
}

/**
 * The same leak as a JSend error: a server that quotes the failed request's headers and body in its message.
 * @param {import('http').IncomingMessage} raw @param {string} body
 */
function echoJson(raw, body) {
	const headers = [];
	for (let i = 0; i < raw.rawHeaders.length; i += 2) headers.push(`${raw.rawHeaders[i]}: ${raw.rawHeaders[i + 1]}`);
	return { status: 'error', code: 'DEBUG_ECHO', message: `Request failed. Headers: ${headers.join('; ')}. Body: ${body}` };
}

module.exports = { Faults, applyFault, KINDS };
