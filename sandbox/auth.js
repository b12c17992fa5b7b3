// @ts-check
'use strict';
/**
 * Authentication: login (A1), bearer check with exactly one space (A2), expiry (A3), API access (A4).
 */
const crypto = require('node:crypto');
const { ApiError, validationError } = require('./jsend');
const { signJwt, verifyJwt } = require('./jwt');
const { objectBody, isBlank, BLANK } = require('./validate');
const { requestState } = require('./context');

const BEARER = /^Bearer ([^\s]+)$/;

class Auth {
	/**
	 * @param {import('./store').Store} store
	 * @param {import('./context').SandboxConfig} config
	 */
	constructor(store, config) {
		this.store = store;
		this.config = config;
		this.secret = crypto.randomBytes(32);
		/** Tokens from an older generation are expired (expireTokensNow). */
		this.generation = 0;
		/** @type {Map<string, Record<string, any>>} verified tokens -> payload (saves an HMAC per request) */
		this.verified = new Map();
	}

	/**
	 * @param {string} token
	 * @returns {Record<string, any> | null}
	 */
	verify(token) {
		const hit = this.verified.get(token);
		if (hit) return hit;
		const payload = verifyJwt(token, this.secret);
		if (payload) {
			if (this.verified.size >= 10_000) this.verified.clear();
			this.verified.set(token, payload);
		}
		return payload;
	}

	/**
	 * Issues a JWT: claims sub (user id as a string), username, iat, exp (= issue time + TTL; may be fractional
	 * when the TTL is), plus gen (internal).
	 * @param {import('./context').User} user
	 * @param {number} [ttlSeconds]
	 */
	issueToken(user, ttlSeconds = this.config.tokenTtlSeconds) {
		const nowMs = Date.now();
		const iat = Math.floor(nowMs / 1000);
		const exp = Number.isInteger(ttlSeconds) ? iat + ttlSeconds : Math.round(nowMs + ttlSeconds * 1000) / 1000;
		return signJwt({ sub: String(user.id), username: user.username, iat, exp, gen: this.generation }, this.secret);
	}

	expireAll() {
		this.generation++;
	}

	/**
	 * Resolves the caller of a protected route or throws the matching 401/403.
	 * @param {{ headers: Record<string, string | string[] | undefined> }} req
	 * @returns {import('./context').User}
	 */
	authenticate(req) {
		const header = req.headers.authorization;
		if (header === undefined || header === '') {
			throw new ApiError(401, 'JWT_MISSING', 'JWT Token not found: send the header "Authorization: Bearer <token>".');
		}
		const match = typeof header === 'string' ? BEARER.exec(header) : null;
		if (!match) {
			throw new ApiError(401, 'JWT_INVALID',
				'Invalid Authorization header format: expected "Bearer <token>" with exactly one space after "Bearer".');
		}
		const payload = this.verify(match[1]);
		const user = payload ? this.store.userById(Number(payload.sub)) : undefined;
		if (!payload || !user || user.username !== payload.username) {
			throw new ApiError(401, 'JWT_INVALID', 'Invalid JWT Token');
		}
		if (typeof payload.exp !== 'number' || Date.now() >= payload.exp * 1000 || payload.gen !== this.generation) {
			const entry = requestState(req).entry;
			if (entry) entry.tokenExpired = true;
			throw new ApiError(401, 'JWT_EXPIRED', 'Expired JWT Token');
		}
		if (!user.apiAccess) {
			throw new ApiError(403, 'API_ACCESS_DISABLED',
				'API access is disabled for this user (User.hasApiAccess). Enable it in the administration area.');
		}
		return user;
	}
}

/**
 * POST /api/login_check {username, password} -> 200 {token} (not JSend).
 * @param {import('fastify').FastifyInstance} app
 * @param {import('./context').Ctx} ctx
 */
function registerLogin(app, ctx) {
	app.post('/api/login_check', async (req, reply) => {
		const body = objectBody(req.body);
		const violations = ['username', 'password']
			.filter((f) => isBlank(body[f]) || typeof body[f] !== 'string')
			.map((f) => ({ propertyPath: f, message: BLANK }));
		if (violations.length) throw validationError(violations);
		const user = ctx.store.userByName(body.username);
		if (!user || user.password !== body.password) {
			throw new ApiError(401, 'INVALID_CREDENTIALS', 'Invalid credentials.');
		}
		const token = ctx.auth.issueToken(user);
		ctx.store.logins.push({ userId: user.id, username: user.username, at: Date.now() });
		const entry = requestState(req).entry;
		if (entry) entry.userId = user.id;
		return reply.code(200).send({ token });
	});
}

module.exports = { Auth, registerLogin };
