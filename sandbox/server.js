// @ts-check
'use strict';
/**
 * The app factory and startSandbox(): wires the store, auth, faults, rate limiter, reviews, routes and test
 * controls into one fastify server on a loopback port.
 */
const Fastify = require('fastify');
const multipart = require('@fastify/multipart');
const { ApiError, errorBody } = require('./jsend');
const { requestState } = require('./context');
const { defaultConfig, applyConfig } = require('./config');
const { Store } = require('./store');
const { Auth, registerLogin } = require('./auth');
const { Faults, applyFault } = require('./faults');
const { RateLimiter } = require('./ratelimit');
const { Reviews } = require('./reviews');
const { createControls, controlRoutes } = require('./control');
const { contactRoutes } = require('./routes/contacts');
const { whatsappRoutes } = require('./routes/whatsapp');
const { templateRoutes } = require('./routes/templates');
const { mediaRoutes } = require('./routes/media');
const { orderRoutes } = require('./routes/orders');
const { cartRoutes } = require('./routes/carts');
const { automationRoutes } = require('./routes/automations');
const { productRoutes } = require('./routes/products');
const { extensionRoutes } = require('./routes/extensions');
const { notFoundHandler, RouteIndex } = require('./notfound');
const { servedNow, pathGate, successEnvelope } = require('./variants');
const { errorCodes } = require('./shapes');

const CONTROL_PREFIX = '/__sandbox/';
const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

/** @param {string} url */
function pathOf(url) {
	const q = url.indexOf('?');
	return q === -1 ? url : url.slice(0, q);
}

/**
 * Builds the fastify app (not listening).
 * @param {import('./context').Ctx} ctx
 * @param {import('./control').Controls} controls
 */
function buildApp(ctx, controls) {
	const app = Fastify({
		logger: false,
		routerOptions: { ignoreTrailingSlash: false, ignoreDuplicateSlashes: false },
		forceCloseConnections: true,
		exposeHeadRoutes: false,
	});
	const routes = new RouteIndex();
	const notFound = notFoundHandler(routes);
	app.addHook('onRoute', (r) => routes.add(r.method, r.url, servedNow(ctx, r)));

	// JSON bodies: an empty body is no body; invalid JSON is a JSend 400.
	app.removeContentTypeParser('application/json');
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
		const text = String(body);
		if (text.trim() === '') return done(null, undefined);
		try {
			done(null, JSON.parse(text));
		} catch (e) {
			done(new ApiError(400, 'VALIDATION_ERROR', `Invalid JSON body: ${/** @type {Error} */ (e).message}`), undefined);
		}
	});
	app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 5, parts: 50 } });

	// Request log, then faults: both before authentication, so a faulted request never reaches a handler.
	app.addHook('onRequest', async (req, reply) => {
		const path = pathOf(req.url);
		if (path.startsWith(CONTROL_PREFIX)) return;
		const state = requestState(req);
		state.arrivedAt = Date.now();
		if (ctx.config.recordRequests || ctx.config.log) {
			/** @type {import('./context').RequestLogEntry} */
			const entry = {
				method: req.method, url: req.url, path, userId: null, status: 0, at: Date.now(),
				authorization: req.headers.authorization !== undefined,
			};
			requestState(req).entry = entry;
			if (ctx.config.recordRequests) ctx.store.requests.push(entry);
		}
		// A network's round trip, paid by every client alike (benchmarks: BENCH_LATENCY_MS), faulted answers too.
		const latency = ctx.config.latencyMs + Math.random() * ctx.config.latencyJitterMs;
		if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
		if (await applyFault(ctx.faults, req, reply, path)) return reply;
		// Variant paths (order history, login): the form not served now is a 404 or a redirect, before auth.
		if (pathGate(ctx, req, reply, notFound)) return reply;
		// '/api/v2/whatsapp/templates/' would match '/api/v2/whatsapp/templates/:id' with an empty id: unknown route.
		const params = /** @type {Record<string, string> | undefined} */ (req.params);
		if (params && Object.values(params).includes('')) {
			notFound(req, reply);
			return reply;
		}
	});
	app.addHook('preSerialization', async (req, reply, payload) => {
		const shaped = successEnvelope(ctx.config.successStatus, payload);
		// A fault's fixed body of a server built differently stays exactly as documented.
		return requestState(req).verbatim ? shaped : errorCodes(ctx.config.errorCodes, reply.statusCode, shaped);
	});
	app.addHook('onResponse', async (req, reply) => {
		const entry = requestState(req).entry;
		if (!entry) return;
		entry.status = reply.statusCode;
		if (ctx.config.log) {
			process.stdout.write(`[sandbox] ${entry.method} ${entry.url} -> ${entry.status} (${Date.now() - entry.at} ms)\n`);
		}
	});

	app.setErrorHandler((err, _req, reply) => {
		if (err instanceof ApiError) {
			if (err.headers) reply.headers(err.headers);
			return reply.code(err.statusCode).send(err.body ?? errorBody(err.code, err.message, err.data));
		}
		const e = /** @type {{ code?: string, statusCode?: number, message?: string }} */ (err);
		if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
			return reply.code(415).send(errorBody('VALIDATION_ERROR',
				`Unsupported Content-Type "${String(_req.headers['content-type'])}": JSON bodies use application/json.`));
		}
		if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
			return reply.code(e.statusCode).send(errorBody('VALIDATION_ERROR', e.message ?? 'Bad request'));
		}
		if (ctx.config.log) process.stderr.write(`[sandbox] internal error: ${String(err instanceof Error ? err.stack : err)}\n`);
		return reply.code(500).send(errorBody('INTERNAL_ERROR', 'Internal server error'));
	});
	app.setNotFoundHandler(notFound);

	controlRoutes(app, ctx, controls);
	registerLogin(app, ctx);

	// Every other /api route: bearer JWT (A2-A4), then the per-user rate limit.
	app.register(async (api) => {
		api.addHook('onRequest', async (req) => {
			const state = requestState(req);
			const user = ctx.auth.authenticate(req);
			state.user = user;
			if (state.entry) state.entry.userId = user.id;
			ctx.limiter.check(user.id, state.arrivedAt);
		});
		contactRoutes(api, ctx);
		whatsappRoutes(api, ctx);
		templateRoutes(api, ctx);
		mediaRoutes(api, ctx);
		orderRoutes(api, ctx);
		cartRoutes(api, ctx);
		automationRoutes(api, ctx);
		productRoutes(api, ctx);
		extensionRoutes(api, ctx); // paths NOT from the API document (see routes/extensions.js)
	});
	return app;
}

/**
 * @typedef {Awaited<ReturnType<typeof startSandbox>>} Sandbox
 */

/**
 * Starts a sandbox on a loopback port.
 * @param {import('./config').SandboxOptions} [options]
 */
async function startSandbox(options = {}) {
	const { port = 0, host = '127.0.0.1', seed = 'demo', signingKey, ...rest } = options;
	const config = applyConfig(defaultConfig(), rest);
	const store = new Store();
	store.reset(seed);
	/** @type {import('./context').Ctx} */
	const ctx = {
		config,
		store,
		faults: new Faults(),
		reviews: new Reviews(store, config),
		limiter: new RateLimiter(config, store),
		auth: new Auth(store, config, signingKey),
	};
	const controls = createControls(ctx, seed);
	const app = buildApp(ctx, controls);
	await app.listen({ port, host });
	const address = app.server.address();
	const actualPort = typeof address === 'object' && address ? address.port : port;
	const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
	let closed = false;

	return {
		url,
		port: actualPort,
		app,
		state: store,
		config,
		faults: {
			/** @param {import('./faults').FaultSpec} spec */
			inject: (spec) => ctx.faults.inject(spec),
			clear: () => ctx.faults.clear(),
			/** pending faults */
			list: () => ctx.faults.toJSON(),
		},
		...controls,
		/** Closes the server and every socket (keep-alive ones too) and clears review timers. */
		async close() {
			if (closed) return;
			closed = true;
			ctx.faults.clear();
			ctx.faults.dropHung();
			ctx.reviews.reset();
			await app.close();
		},
	};
}

module.exports = { startSandbox, buildApp };
