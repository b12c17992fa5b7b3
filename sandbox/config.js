// @ts-check
'use strict';
/** Sandbox options: defaults and checks (startSandbox and setConfig). */

/**
 * @typedef {import('./context').PathVariant} PathVariant
 * @typedef {{ tokenTtlSeconds?: number, reviewDelayMs?: number | null,
 *   rateLimit?: import('./context').RateLimitConfig | null, maxPageSize?: number, log?: boolean, recordRequests?: boolean,
 *   clockSkewSeconds?: number, successStatus?: import('./context').SuccessStatus,
 *   paths?: { orderHistory?: PathVariant, login?: PathVariant }, paging?: import('./context').PagingVariant,
 *   apiAccessRefusal?: import('./context').ApiAccessRefusal, pluginHeaders?: 'required' | 'optional',
 *   orderVisibilityDelayMs?: number, latencyMs?: number, latencyJitterMs?: number,
 *   loginAnswer?: import('./context').LoginAnswer, mediaAnswer?: import('./context').MediaAnswer,
 *   errorCodes?: import('./context').ErrorCodes, listShape?: import('./context').ListShape,
 *   orderHistoryFilters?: 'applied' | 'ignored', missingToken?: '401' | '403',
 *   templateShape?: import('./context').TemplateShape }} ConfigPatch
 * @typedef {ConfigPatch & { port?: number, host?: string, seed?: import('./store').SeedName, signingKey?: string }} SandboxOptions
 */

// Variant modes: where the API document leaves a choice open, each plausible server (the first value is the default).
const SUCCESS_STATUS = /** @type {const} */ (['success', 'ok', 'missing']);
const PATH_VARIANTS = /** @type {const} */ (['slash', 'noslash', 'redirect-to-slash', 'redirect-to-noslash']);
const PAGING = /** @type {const} */ (['standard', 'repeat-last', 'nested-total', 'no-total']);
const API_ACCESS_REFUSAL = /** @type {const} */ (['403-code', '401-message', '403-message']);
const PLUGIN_HEADERS = /** @type {const} */ (['required', 'optional']);
const LOGIN_ANSWER = /** @type {const} */ (['token', 'token-refresh', 'token-user', 'access_token', 'jwt', 'jsend-token', 'data-access_token']);
const MEDIA_ANSWER = /** @type {const} */ (['data.media_id', 'data.id', 'data.mediaId', 'data.media.id', 'top-level']);
const ERROR_CODES = /** @type {const} */ (['string', 'http-status']);
const LIST_SHAPE = /** @type {const} */ (['data', 'top-items', 'top-results', 'top-records', 'bare-array']);
const ORDER_HISTORY_FILTERS = /** @type {const} */ (['applied', 'ignored']);
const MISSING_TOKEN = /** @type {const} */ (['401', '403']);
const TEMPLATE_SHAPE = /** @type {const} */ (['flat', 'components', 'components-lowercase', 'no-text']);

/** @returns {import('./context').SandboxConfig} */
function defaultConfig() {
	return {
		tokenTtlSeconds: 3600, reviewDelayMs: 1500, rateLimit: null, maxPageSize: 1000, log: false, recordRequests: true,
		clockSkewSeconds: 0, successStatus: 'success', paths: { orderHistory: 'slash', login: 'noslash' },
		paging: 'standard', apiAccessRefusal: '403-code', pluginHeaders: 'required', orderVisibilityDelayMs: 0,
		latencyMs: 0, latencyJitterMs: 0, loginAnswer: 'token', mediaAnswer: 'data.media_id', errorCodes: 'string',
		listShape: 'data', orderHistoryFilters: 'applied', missingToken: '401', templateShape: 'flat',
	};
}

/**
 * @template {string} T
 * @param {string} name
 * @param {unknown} value
 * @param {readonly T[]} allowed
 * @returns {T}
 */
function oneOf(name, value, allowed) {
	if (!allowed.includes(/** @type {T} */ (value))) throw new Error(`${name} must be one of ${allowed.join(', ')}`);
	return /** @type {T} */ (value);
}

/**
 * Applies a patch to the live config object (in place), after checking it.
 * @param {import('./context').SandboxConfig} config
 * @param {ConfigPatch} patch
 */
function applyConfig(config, patch) {
	const p = patch ?? {};
	if (p.tokenTtlSeconds !== undefined) {
		if (typeof p.tokenTtlSeconds !== 'number' || !(p.tokenTtlSeconds > 0)) throw new Error('tokenTtlSeconds must be a number > 0');
		config.tokenTtlSeconds = p.tokenTtlSeconds;
	}
	if (p.reviewDelayMs !== undefined) {
		if (p.reviewDelayMs !== null && (typeof p.reviewDelayMs !== 'number' || p.reviewDelayMs < 0)) {
			throw new Error('reviewDelayMs must be a number >= 0, or null (manual review only)');
		}
		config.reviewDelayMs = p.reviewDelayMs;
	}
	if (p.rateLimit !== undefined) {
		const r = p.rateLimit;
		if (r !== null && (typeof r !== 'object' || !(r.requestsPerSecond > 0) || !(r.burst >= 1)
			|| (r.reactionMs !== undefined && !(Number.isFinite(r.reactionMs) && r.reactionMs >= 0)))) {
			throw new Error('rateLimit must be null or {requestsPerSecond > 0, burst >= 1, reactionMs? >= 0}');
		}
		config.rateLimit = r === null ? null : {
			requestsPerSecond: r.requestsPerSecond, burst: r.burst, ...(r.reactionMs !== undefined ? { reactionMs: r.reactionMs } : {}),
		};
	}
	if (p.maxPageSize !== undefined) {
		if (!Number.isInteger(p.maxPageSize) || p.maxPageSize < 1) throw new Error('maxPageSize must be an integer >= 1');
		config.maxPageSize = p.maxPageSize;
	}
	if (p.clockSkewSeconds !== undefined) {
		if (typeof p.clockSkewSeconds !== 'number' || !Number.isFinite(p.clockSkewSeconds)) throw new Error('clockSkewSeconds must be a finite number');
		config.clockSkewSeconds = p.clockSkewSeconds;
	}
	if (p.successStatus !== undefined) config.successStatus = oneOf('successStatus', p.successStatus, SUCCESS_STATUS);
	if (p.paths !== undefined) {
		if (typeof p.paths !== 'object' || p.paths === null) throw new Error('paths must be {orderHistory?, login?}');
		const unknown = Object.keys(p.paths).filter((k) => k !== 'orderHistory' && k !== 'login');
		if (unknown.length) throw new Error(`paths: unknown key ${unknown.join(', ')} (orderHistory, login)`);
		const next = { ...config.paths };
		if (p.paths.orderHistory !== undefined) next.orderHistory = oneOf('paths.orderHistory', p.paths.orderHistory, PATH_VARIANTS);
		if (p.paths.login !== undefined) next.login = oneOf('paths.login', p.paths.login, PATH_VARIANTS);
		config.paths = next;
	}
	if (p.paging !== undefined) config.paging = oneOf('paging', p.paging, PAGING);
	if (p.apiAccessRefusal !== undefined) config.apiAccessRefusal = oneOf('apiAccessRefusal', p.apiAccessRefusal, API_ACCESS_REFUSAL);
	if (p.pluginHeaders !== undefined) config.pluginHeaders = oneOf('pluginHeaders', p.pluginHeaders, PLUGIN_HEADERS);
	if (p.loginAnswer !== undefined) config.loginAnswer = oneOf('loginAnswer', p.loginAnswer, LOGIN_ANSWER);
	if (p.mediaAnswer !== undefined) config.mediaAnswer = oneOf('mediaAnswer', p.mediaAnswer, MEDIA_ANSWER);
	if (p.errorCodes !== undefined) config.errorCodes = oneOf('errorCodes', p.errorCodes, ERROR_CODES);
	if (p.listShape !== undefined) config.listShape = oneOf('listShape', p.listShape, LIST_SHAPE);
	if (p.orderHistoryFilters !== undefined) {
		config.orderHistoryFilters = oneOf('orderHistoryFilters', p.orderHistoryFilters, ORDER_HISTORY_FILTERS);
	}
	if (p.missingToken !== undefined) config.missingToken = oneOf('missingToken', p.missingToken, MISSING_TOKEN);
	if (p.templateShape !== undefined) config.templateShape = oneOf('templateShape', p.templateShape, TEMPLATE_SHAPE);
	for (const key of /** @type {const} */ (['latencyMs', 'latencyJitterMs'])) {
		if (p[key] === undefined) continue;
		if (typeof p[key] !== 'number' || !(p[key] >= 0)) throw new Error(`${key} must be a number >= 0`);
		config[key] = p[key];
	}
	if (p.orderVisibilityDelayMs !== undefined) {
		if (typeof p.orderVisibilityDelayMs !== 'number' || !(p.orderVisibilityDelayMs >= 0)) throw new Error('orderVisibilityDelayMs must be a number >= 0');
		config.orderVisibilityDelayMs = p.orderVisibilityDelayMs;
	}
	if (p.log !== undefined) config.log = Boolean(p.log);
	if (p.recordRequests !== undefined) config.recordRequests = Boolean(p.recordRequests);
	return config;
}

module.exports = {
	defaultConfig, applyConfig, SUCCESS_STATUS, PATH_VARIANTS, PAGING, API_ACCESS_REFUSAL, PLUGIN_HEADERS, LOGIN_ANSWER,
	MEDIA_ANSWER, ERROR_CODES, LIST_SHAPE, ORDER_HISTORY_FILTERS, MISSING_TOKEN, TEMPLATE_SHAPE,
};
