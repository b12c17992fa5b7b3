// @ts-check
'use strict';
/**
 * Test controls: the functions returned by createControls() (programmatic use, in the same process) and the same
 * controls over HTTP under /__sandbox/ (no auth, plain JSON; errors are 400 {ok:false, error}).
 */
const { applyConfig } = require('./config');

/**
 * @param {import('./context').Ctx} ctx
 * @param {import('./store').SeedName} initialSeed
 */
function createControls(ctx, initialSeed) {
	const { store, faults, reviews, limiter, auth, config } = ctx;

	/** @param {number | string} id */
	function template(id) {
		const tpl = store.templates.get(Number(id));
		if (!tpl) throw new Error(`template ${id} not found`);
		return tpl;
	}

	const controls = {
		/**
		 * Empties all data, reseeds, clears faults, review rules/timers, rate-limit buckets, stats and logs. Keeps config.
		 * @param {import('./store').SeedName} [seed]
		 */
		reset(seed = initialSeed) {
			faults.clear();
			reviews.reset();
			limiter.reset();
			store.reset(seed);
		},
		/** @param {import('./config').ConfigPatch} patch */
		setConfig(patch) {
			applyConfig(config, patch);
			if (patch && patch.rateLimit !== undefined) limiter.reset();
			return { ...config, paths: { ...config.paths } };
		},
		/**
		 * Outcome of the review of a template (by id: number) or of any template with that name (string).
		 * @param {string | number} nameOrId
		 * @param {{ reject?: string | null }} [outcome]
		 */
		reviewOutcome(nameOrId, outcome = {}) {
			reviews.setRule(nameOrId, outcome);
		},
		/** @param {number | string} id */
		approveNow(id) {
			return reviews.finish(template(id), 'APPROVED');
		},
		/** @param {number | string} id @param {string} [reason] */
		rejectNow(id, reason) {
			return reviews.finish(template(id), 'REJECTED', reason);
		},
		/** @param {{ username: string, password: string, apiAccess?: boolean, pluginKey?: string | null }} spec */
		addUser(spec) {
			return store.addUser(spec);
		},
		/** Every token issued so far is expired from now on. */
		expireTokensNow() {
			auth.expireAll();
		},
		/** Every token issued so far is refused as invalid (401 JWT_INVALID "Invalid JWT Token"); new logins work. */
		revokeTokens() {
			auth.revokeAll();
		},
		/**
		 * A new HS256 signing key: tokens signed with the old one get 401 JWT_INVALID "Invalid JWT Signature".
		 * @param {string} [key] random when omitted
		 */
		rotateSigningKey(key) {
			auth.rotateKey(key);
		},
		/**
		 * A token for a user without a login call (not counted in logins).
		 * @param {string} username
		 * @param {number} [ttlSeconds]
		 */
		issueToken(username, ttlSeconds) {
			const user = store.userByName(username);
			if (!user) throw new Error(`unknown user ${username}`);
			return auth.issueToken(user, ttlSeconds);
		},
		/** @param {string} [username] successful logins (all users when omitted) */
		loginCount(username) {
			return username === undefined ? store.logins.length : store.logins.filter((l) => l.username === username).length;
		},
		summary() {
			/** @type {Record<string, number>} */
			const loginCounts = {};
			for (const l of store.logins) loginCounts[l.username] = (loginCounts[l.username] ?? 0) + 1;
			let products = 0;
			for (const m of store.products.values()) products += m.size;
			let orders = 0;
			for (const b of store.orders.values()) orders += b.list.length;
			return {
				config: { ...config },
				counts: {
					users: store.users.length, contacts: store.contacts.length, templates: store.templates.size,
					media: store.media.size, products, orders, orderEvents: store.orderEvents.length,
					cartEvents: store.cartEvents.length, automationInstances: store.automationInstances.length,
					messages: store.messages.length, logins: store.logins.length, requests: store.requests.length,
				},
				stats: { ...store.stats },
				users: store.users.map((u) => ({ id: u.id, username: u.username, apiAccess: u.apiAccess })),
				logins: store.logins,
				loginCounts,
				orderEvents: store.orderEvents,
				cartEvents: store.cartEvents,
				automationInstances: store.automationInstances,
				messages: store.messages,
				templates: [...store.templates.values()].map((t) => ({ ...t, userId: t.userId })),
				media: [...store.media.values()].map((m) => ({ ...m, userId: m.userId })),
				requestCount: store.requests.length,
				faults: faults.toJSON(),
			};
		},
	};
	return controls;
}

/** @typedef {ReturnType<typeof createControls>} Controls */

/**
 * @param {unknown} body
 * @returns {Record<string, any>}
 */
function obj(body) {
	return typeof body === 'object' && body !== null && !Array.isArray(body) ? /** @type {any} */ (body) : {};
}

/**
 * A fault spec from JSON: path (exact) or pathRegex (+ flags); times may be "Infinity" or -1 (unlimited); forMs,
 * retryAfterRaw, status and location as in inject().
 * @param {Record<string, any>} b
 * @returns {import('./faults').FaultSpec}
 */
function faultFromJson(b) {
	const path = typeof b.pathRegex === 'string' ? new RegExp(b.pathRegex, typeof b.flags === 'string' ? b.flags : '') : b.path;
	const times = b.times === 'Infinity' || b.times === -1 ? Infinity : b.times;
	return {
		method: b.method, path, kind: b.kind, times, forMs: b.forMs, retryAfter: b.retryAfter, retryAfterDate: b.retryAfterDate,
		retryAfterRaw: b.retryAfterRaw, delayMs: b.delayMs, status: b.status, location: b.location,
	};
}

/** @param {import('./faults').Fault} f */
function toJsonFault(f) {
	return { ...f, path: String(f.path), remaining: Number.isFinite(f.remaining) ? f.remaining : 'Infinity' };
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('./context').Ctx} ctx
 * @param {Controls} controls
 */
function controlRoutes(app, ctx, controls) {
	app.register(async (scope) => {
		scope.setErrorHandler((err, _req, reply) => {
			reply.code(400).send({ ok: false, error: err instanceof Error ? err.message : String(err) });
		});
		scope.post('/__sandbox/reset', async (req) => {
			const seed = obj(req.body).seed;
			controls.reset(seed);
			return { ok: true };
		});
		scope.post('/__sandbox/faults', async (req) => ({ ok: true, fault: toJsonFault(ctx.faults.inject(faultFromJson(obj(req.body)))) }));
		scope.get('/__sandbox/faults', async () => ({ faults: ctx.faults.toJSON() }));
		scope.delete('/__sandbox/faults', async () => {
			ctx.faults.clear();
			return { ok: true };
		});
		scope.get('/__sandbox/state', async () => controls.summary());
		scope.get('/__sandbox/requests', async (req) => {
			const since = Number(obj(req.query).since ?? 0) || 0;
			return { total: ctx.store.requests.length, requests: ctx.store.requests.slice(since) };
		});
		scope.post('/__sandbox/config', async (req) => ({ ok: true, config: controls.setConfig(obj(req.body)) }));
		scope.post('/__sandbox/templates/:id/review', async (req) => {
			const b = obj(req.body);
			const id = /** @type {{ id: string }} */ (req.params).id;
			if (b.outcome !== 'APPROVED' && b.outcome !== 'REJECTED') throw new Error('outcome must be APPROVED or REJECTED');
			const tpl = b.outcome === 'APPROVED' ? controls.approveNow(id) : controls.rejectNow(id, b.reason);
			return { ok: true, template: tpl };
		});
		scope.post('/__sandbox/review-rules', async (req) => {
			const b = obj(req.body);
			const key = b.id !== undefined ? Number(b.id) : b.name;
			if (key === undefined || key === '' || Number.isNaN(key)) throw new Error('review rule needs name or id');
			controls.reviewOutcome(key, { reject: b.reject ?? null });
			return { ok: true };
		});
		scope.post('/__sandbox/users', async (req) => {
			const b = obj(req.body);
			const u = controls.addUser({ username: b.username, password: b.password, apiAccess: b.apiAccess, pluginKey: b.pluginKey });
			return { ok: true, user: { id: u.id, username: u.username, apiAccess: u.apiAccess } };
		});
		scope.post('/__sandbox/expire-tokens', async () => {
			controls.expireTokensNow();
			return { ok: true };
		});
		scope.post('/__sandbox/revoke-tokens', async () => {
			controls.revokeTokens();
			return { ok: true };
		});
		scope.post('/__sandbox/rotate-signing-key', async () => {
			controls.rotateSigningKey();
			return { ok: true };
		});
		scope.post('/__sandbox/token', async (req) => {
			const b = obj(req.body);
			return { token: controls.issueToken(b.username, b.ttlSeconds) };
		});
	});
}

module.exports = { createControls, controlRoutes, faultFromJson };
