// @ts-check
'use strict';
/**
 * Shared type definitions and the per-request state (who is calling, its request-log entry).
 *
 * @typedef {{ requestsPerSecond: number, burst: number, reactionMs?: number }} RateLimitConfig
 * @typedef {'success' | 'ok' | 'missing'} SuccessStatus
 * @typedef {'slash' | 'noslash' | 'redirect-to-slash' | 'redirect-to-noslash'} PathVariant
 * @typedef {'standard' | 'repeat-last' | 'nested-total' | 'no-total'} PagingVariant
 * @typedef {'403-code' | '401-message' | '403-message'} ApiAccessRefusal
 * @typedef {'token' | 'token-refresh' | 'token-user' | 'access_token' | 'jwt' | 'jsend-token' | 'data-access_token'} LoginAnswer
 * @typedef {'data.media_id' | 'data.id' | 'data.mediaId' | 'data.media.id' | 'top-level'} MediaAnswer
 * @typedef {'string' | 'http-status'} ErrorCodes
 * @typedef {'data' | 'top-items' | 'top-results' | 'top-records' | 'bare-array'} ListShape
 * @typedef {'flat' | 'components' | 'components-lowercase' | 'no-text'} TemplateShape
 * @typedef {{
 *   tokenTtlSeconds: number,
 *   reviewDelayMs: number | null,
 *   rateLimit: RateLimitConfig | null,
 *   maxPageSize: number,
 *   log: boolean,
 *   recordRequests: boolean,
 *   clockSkewSeconds: number,
 *   successStatus: SuccessStatus,
 *   paths: { orderHistory: PathVariant, login: PathVariant },
 *   paging: PagingVariant,
 *   apiAccessRefusal: ApiAccessRefusal,
 *   pluginHeaders: 'required' | 'optional',
 *   orderVisibilityDelayMs: number,
 *   latencyMs: number,
 *   latencyJitterMs: number,
 *   loginAnswer: LoginAnswer,
 *   mediaAnswer: MediaAnswer,
 *   errorCodes: ErrorCodes,
 *   listShape: ListShape,
 *   orderHistoryFilters: 'applied' | 'ignored',
 *   missingToken: '401' | '403',
 *   templateShape: TemplateShape,
 * }} SandboxConfig
 * @typedef {{ id: number, username: string, password: string, apiAccess: boolean, pluginKey: string | null }} User
 * @typedef {{
 *   method: string, url: string, path: string, userId: number | null, status: number, at: number,
 *   authorization: boolean, tokenExpired?: boolean, fault?: string, ms?: number,
 * }} RequestLogEntry
 * @typedef {{
 *   config: SandboxConfig,
 *   store: import('./store').Store,
 *   faults: import('./faults').Faults,
 *   reviews: import('./reviews').Reviews,
 *   limiter: import('./ratelimit').RateLimiter,
 *   auth: import('./auth').Auth,
 * }} Ctx
 * @typedef {{ user: User | null, entry: RequestLogEntry | null, arrivedAt: number, verbatim?: boolean }} RequestState
 */

/** @type {WeakMap<object, RequestState>} */
const states = new WeakMap();

/**
 * @param {object} req the fastify request
 * @returns {RequestState}
 */
function requestState(req) {
	let s = states.get(req);
	if (!s) {
		s = { user: null, entry: null, arrivedAt: Date.now() };
		states.set(req, s);
	}
	return s;
}

/**
 * The authenticated user of a request on a protected route (set by the auth hook).
 * @param {object} req
 * @returns {User}
 */
function currentUser(req) {
	const user = requestState(req).user;
	if (!user) throw new Error('currentUser() on a request without an authenticated user');
	return user;
}

/** @param {number} [ms] */
function isoNow(ms = Date.now()) {
	return new Date(ms).toISOString();
}

module.exports = { requestState, currentUser, isoNow };
