// @ts-check
'use strict';
/**
 * Fault injection: a fault matches requests by method (optional) and path (exact string or RegExp, query string
 * excluded) and answers them `times` times instead of the real handler, then disappears. It runs before
 * authentication and before the handler, so a faulted request never changes state (except `slow`, which only
 * delays the real answer).
 */
const { errorBody } = require('./jsend');
const { requestState } = require('./context');

const KINDS = /** @type {const} */ ([
	'429', '429-no-retry-after', '500', '502', '503', '504', 'reset', 'slow', 'malformed-json', 'html',
	'jsend-error-200', 'rate-limit-200', 'expired-token-200', 'expired-token-401', 'ignore-page',
]);

/**
 * @typedef {typeof KINDS[number]} FaultKind
 * @typedef {{ method?: string, path: string | RegExp, kind: FaultKind | number, times?: number,
 *   retryAfter?: number, retryAfterDate?: boolean, delayMs?: number }} FaultSpec
 * @typedef {{ id: number, method: string | null, path: string | RegExp, kind: FaultKind, remaining: number,
 *   retryAfter: number | undefined, retryAfterDate: boolean, delayMs: number, hits: number }} Fault
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
		/** @type {Fault} */
		const fault = {
			id: ++this.seq,
			method: spec.method ? spec.method.toUpperCase() : null,
			path: spec.path,
			kind,
			remaining: times,
			retryAfter: spec.retryAfter,
			retryAfterDate: spec.retryAfterDate === true,
			delayMs: spec.delayMs ?? 1000,
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

	/**
	 * Takes one use of the first fault matching this request, if any.
	 * @param {string} method
	 * @param {string} path
	 * @returns {Fault | null}
	 */
	take(method, path) {
		if (this.list.length === 0) return null;
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

	/** Pending faults as plain JSON. */
	toJSON() {
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
	if (fault.retryAfter !== undefined && fault.kind !== '429-no-retry-after') {
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
	}
	return true;
}

module.exports = { Faults, applyFault, KINDS };
