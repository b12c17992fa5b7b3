// @ts-check
'use strict';
/**
 * Authentication: login (A1), bearer check with exactly one space (A2), expiry (A3), API access (A4).
 */
const crypto = require('node:crypto');
const { ApiError, bareError, validationError } = require('./jsend');
const { signJwt, verifyJwt } = require('./jwt');
const { objectBody, isBlank, BLANK } = require('./validate');
const { requestState } = require('./context');
const { variantRoute } = require('./variants');
const { loginAnswer } = require('./shapes');

const BEARER = /^Bearer ([^\s]+)$/;

/** @param {string} key */
function keyOf(key) {
	if (typeof key !== 'string' || key === '') throw new Error('signingKey must be a non-empty string');
	return Buffer.from(key, 'utf8');
}

/**
 * The answer to a user without API access (A4), per the apiAccessRefusal variant.
 * @param {import('./context').ApiAccessRefusal} variant
 */
function apiAccessRefused(variant) {
	if (variant === '401-message') return bareError(401, { status: 'error', message: 'API access is disabled for this user' });
	if (variant === '403-message') return bareError(403, { status: 'error', message: 'Your account has no API access' });
	return new ApiError(403, 'API_ACCESS_DISABLED',
		'API access is disabled for this user (User.hasApiAccess). Enable it in the administration area.');
}

class Auth {
	/**
	 * @param {import('./store').Store} store
	 * @param {import('./context').SandboxConfig} config
	 * @param {string} [signingKey]
	 */
	constructor(store, config, signingKey) {
		this.store = store;
		this.config = config;
		// A random key per start by default: a restarted emulator refuses the tokens of the previous one.
		this.secret = signingKey === undefined ? crypto.randomBytes(32) : keyOf(signingKey);
		/** @type {Buffer[]} keys replaced by rotateSigningKey(): their tokens get "Invalid JWT Signature" */
		this.oldSecrets = [];
		/** Tokens from an older generation are expired (expireTokensNow). */
		this.generation = 0;
		/** Tokens from an older revocation epoch are invalid (revokeAll). */
		this.revocation = 0;
		/** @type {Map<string, Record<string, any>>} verified tokens -> payload (saves an HMAC per request) */
		this.verified = new Map();
	}

	/** The server's clock in ms: the real one shifted by clockSkewSeconds (a server with a wrong clock). */
	now() {
		return Date.now() + this.config.clockSkewSeconds * 1000;
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

	/** @param {string} [key] a new HS256 key (random when omitted); tokens signed with the old one are refused */
	rotateKey(key) {
		this.oldSecrets.push(this.secret);
		this.secret = key === undefined ? crypto.randomBytes(32) : keyOf(key);
		this.verified.clear();
	}

	revokeAll() {
		this.revocation++;
	}

	/**
	 * Issues a JWT: claims sub (user id as a string), username, iat, exp (= issue time + TTL on the server's possibly
	 * skewed clock; may be fractional when the TTL is), plus gen and rev (internal).
	 * @param {import('./context').User} user
	 * @param {number} [ttlSeconds]
	 */
	issueToken(user, ttlSeconds = this.config.tokenTtlSeconds) {
		const nowMs = this.now();
		const iat = Math.floor(nowMs / 1000);
		const exp = Number.isInteger(ttlSeconds) ? iat + ttlSeconds : Math.round(nowMs + ttlSeconds * 1000) / 1000;
		return signJwt({ sub: String(user.id), username: user.username, iat, exp, gen: this.generation, rev: this.revocation },
			this.secret);
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
			// Symfony without an authentication entry point answers an anonymous call 403 "Access Denied".
			if (this.config.missingToken === '403') throw new ApiError(403, 'ACCESS_DENIED', 'Access Denied.');
			throw new ApiError(401, 'JWT_MISSING', 'JWT Token not found: send the header "Authorization: Bearer <token>".');
		}
		const match = typeof header === 'string' ? BEARER.exec(header) : null;
		if (!match) {
			throw new ApiError(401, 'JWT_INVALID',
				'Invalid Authorization header format: expected "Bearer <token>" with exactly one space after "Bearer".');
		}
		const payload = this.verify(match[1]);
		if (!payload && this.oldSecrets.some((old) => verifyJwt(match[1], old))) {
			throw new ApiError(401, 'JWT_INVALID', 'Invalid JWT Signature');
		}
		const user = payload ? this.store.userById(Number(payload.sub)) : undefined;
		if (!payload || !user || user.username !== payload.username || (payload.rev ?? 0) !== this.revocation) {
			throw new ApiError(401, 'JWT_INVALID', 'Invalid JWT Token');
		}
		if (typeof payload.exp !== 'number' || this.now() >= payload.exp * 1000 || payload.gen !== this.generation) {
			const entry = requestState(req).entry;
			if (entry) entry.tokenExpired = true;
			throw new ApiError(401, 'JWT_EXPIRED', 'Expired JWT Token');
		}
		if (!user.apiAccess) throw apiAccessRefused(this.config.apiAccessRefusal);
		return user;
	}
}

/**
 * POST /api/login_check {username, password} -> 200 {token} (not JSend; other shapes: config.loginAnswer). Served
 * without the trailing slash by default (config.paths.login).
 * @param {import('fastify').FastifyInstance} app
 * @param {import('./context').Ctx} ctx
 */
function registerLogin(app, ctx) {
	/**
	 * @param {import('fastify').FastifyRequest} req
	 * @param {import('fastify').FastifyReply} reply
	 */
	const login = async (req, reply) => {
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
		return reply.code(200).send(loginAnswer(ctx.config.loginAnswer, token, ctx.config.tokenTtlSeconds));
	};
	// Both forms are routes; config.paths.login decides which one is served (variants.js).
	app.post('/api/login_check', variantRoute('login'), login);
	app.post('/api/login_check/', variantRoute('login'), login);
}

module.exports = { Auth, registerLogin };
