// @ts-check
'use strict';
/**
 * Per-user token bucket (when config.rateLimit is set). Exceeding it answers 429 RATE_LIMIT_EXCEEDED with an
 * integer Retry-After (>= 1 s); the user stays blocked until that moment, and any request arriving earlier is
 * answered 429 again. Such a request counts in stats.earlyRetries only when it arrived more than the reaction time
 * (`rateLimit.reactionMs`, default REACTION_MS) after the first 429 of the block was decided: one sent before the
 * client could have read that answer (in flight on another connection, or already handed to its HTTP stack) could
 * not have known.
 */
const { ApiError } = require('./jsend');

/**
 * How long a client needs, after the 429 is decided, before any request it sends can be one that knew of it: the
 * answer's way back and the client's own event loop (measured here: 2-25 ms for a node with 8 lanes on loopback,
 * in the test's own process). A real n8n process on a busy machine needs more: its request passes several awaits
 * (credential, HTTP helper set-up) between the node's decision to send and the bytes on the wire, so the e2e tests
 * set `reactionMs` themselves.
 */
const REACTION_MS = 30;

/** @typedef {{ tokens: number, last: number, blockedUntil: number, knownAt: number }} Bucket */

class RateLimiter {
	/**
	 * @param {import('./context').SandboxConfig} config
	 * @param {import('./store').Store} store
	 */
	constructor(config, store) {
		this.config = config;
		this.store = store;
		/** @type {Map<number, Bucket>} */ this.buckets = new Map();
	}

	reset() {
		this.buckets.clear();
	}

	/**
	 * Takes one token for this user or throws the 429.
	 * @param {number} userId
	 * @param {number} [arrivedAt] when the request reached the server (before any simulated latency)
	 */
	check(userId, arrivedAt = Date.now()) {
		const limit = this.config.rateLimit;
		if (!limit) return;
		const now = Date.now();
		let b = this.buckets.get(userId);
		if (!b) this.buckets.set(userId, (b = { tokens: limit.burst, last: now, blockedUntil: 0, knownAt: 0 }));
		if (now < b.blockedUntil) {
			if (arrivedAt >= b.knownAt + (limit.reactionMs ?? REACTION_MS)) this.store.stats.earlyRetries++;
			throw this.tooMany(Math.max(1, Math.ceil((b.blockedUntil - now) / 1000)));
		}
		b.tokens = Math.min(limit.burst, b.tokens + ((now - b.last) / 1000) * limit.requestsPerSecond);
		b.last = now;
		if (b.tokens >= 1) {
			b.tokens -= 1;
			return;
		}
		const retryAfter = Math.max(1, Math.ceil((1 - b.tokens) / limit.requestsPerSecond));
		b.blockedUntil = now + retryAfter * 1000;
		b.knownAt = now;
		throw this.tooMany(retryAfter);
	}

	/** @param {number} retryAfter seconds */
	tooMany(retryAfter) {
		this.store.stats.rateLimited++;
		return new ApiError(429, 'RATE_LIMIT_EXCEEDED', `Rate limit exceeded. Retry after ${retryAfter} s.`,
			{ retry_after: retryAfter }, { 'Retry-After': String(retryAfter) });
	}
}

module.exports = { RateLimiter };
