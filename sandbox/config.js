// @ts-check
'use strict';
/** Sandbox options: defaults and checks (startSandbox and setConfig). */

/**
 * @typedef {{
 *   port?: number, host?: string, tokenTtlSeconds?: number, reviewDelayMs?: number | null,
 *   rateLimit?: import('./context').RateLimitConfig | null, seed?: import('./store').SeedName, maxPageSize?: number,
 *   log?: boolean, recordRequests?: boolean,
 * }} SandboxOptions
 * @typedef {{ tokenTtlSeconds?: number, reviewDelayMs?: number | null,
 *   rateLimit?: import('./context').RateLimitConfig | null, maxPageSize?: number, log?: boolean, recordRequests?: boolean }} ConfigPatch
 */

/** @returns {import('./context').SandboxConfig} */
function defaultConfig() {
	return { tokenTtlSeconds: 3600, reviewDelayMs: 1500, rateLimit: null, maxPageSize: 1000, log: false, recordRequests: true };
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
		if (r !== null && (typeof r !== 'object' || !(r.requestsPerSecond > 0) || !(r.burst >= 1))) {
			throw new Error('rateLimit must be null or {requestsPerSecond > 0, burst >= 1}');
		}
		config.rateLimit = r === null ? null : { requestsPerSecond: r.requestsPerSecond, burst: r.burst };
	}
	if (p.maxPageSize !== undefined) {
		if (!Number.isInteger(p.maxPageSize) || p.maxPageSize < 1) throw new Error('maxPageSize must be an integer >= 1');
		config.maxPageSize = p.maxPageSize;
	}
	if (p.log !== undefined) config.log = Boolean(p.log);
	if (p.recordRequests !== undefined) config.recordRequests = Boolean(p.recordRequests);
	return config;
}

module.exports = { defaultConfig, applyConfig };
