// @ts-check
'use strict';
/**
 * Variant modes (config): answers where the API document leaves a choice open, so the node can be run against each
 * plausible server. Trailing-slash forms of order history and login (paths), the success envelope's status field
 * (successStatus) and the shape of list answers (paging). See sandbox/README.md.
 */
const { pagination } = require('./validate');

/**
 * What a form of a variant path does: served, redirected to the other form, or absent (404).
 * @param {import('./context').PathVariant} variant
 * @param {boolean} slashForm
 * @returns {'serve' | 'redirect' | 'absent'}
 */
function formMode(variant, slashForm) {
	switch (variant) {
		case 'slash': return slashForm ? 'serve' : 'absent';
		case 'noslash': return slashForm ? 'absent' : 'serve';
		case 'redirect-to-slash': return slashForm ? 'serve' : 'redirect';
		case 'redirect-to-noslash': return slashForm ? 'redirect' : 'serve';
		default: return 'absent';
	}
}

/**
 * The route options that register one form of a variant path (both forms are registered; the gate decides).
 * @param {'orderHistory' | 'login'} name
 * @returns {{ config: any }}
 */
function variantRoute(name) {
	return { config: { variantPath: name } };
}

/**
 * A predicate for the 404 handler's route index: is this registered form served right now?
 * @param {import('./context').Ctx} ctx
 * @param {{ url: string, config?: unknown }} route
 * @returns {(() => boolean) | undefined}
 */
function servedNow(ctx, route) {
	const name = /** @type {{ variantPath?: 'orderHistory' | 'login' } | undefined} */ (route.config)?.variantPath;
	if (!name) return undefined;
	const slashForm = route.url.endsWith('/');
	return () => formMode(ctx.config.paths[name], slashForm) === 'serve';
}

/**
 * onRequest (before auth, as a router would): answers the redirect or the 404 for the form that is not served.
 * Redirects keep the query string; 301 for GET/HEAD, 308 otherwise (what Symfony does); Location is absolute.
 * @param {import('./context').Ctx} ctx
 * @param {import('fastify').FastifyRequest} req
 * @param {import('fastify').FastifyReply} reply
 * @param {(req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => void} notFound
 * @returns {boolean} true when answered
 */
function pathGate(ctx, req, reply, notFound) {
	const name = /** @type {{ variantPath?: 'orderHistory' | 'login' } | undefined} */ (req.routeOptions.config)?.variantPath;
	if (!name) return false;
	const route = req.routeOptions.url ?? '';
	const slashForm = route.endsWith('/');
	const mode = formMode(ctx.config.paths[name], slashForm);
	if (mode === 'serve') return false;
	if (mode === 'absent') {
		notFound(req, reply);
		return true;
	}
	const q = req.url.indexOf('?');
	const target = (slashForm ? route.slice(0, -1) : `${route}/`) + (q === -1 ? '' : req.url.slice(q));
	const host = req.headers.host;
	const status = req.method === 'GET' || req.method === 'HEAD' ? 301 : 308;
	reply.code(status).header('Location', host ? `http://${host}${target}` : target).send();
	return true;
}

/**
 * The success envelope's status field per successStatus: "success" (default), "ok", or absent.
 * @param {import('./context').SuccessStatus} mode
 * @param {unknown} payload
 */
function successEnvelope(mode, payload) {
	if (mode === 'success' || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
	const body = /** @type {Record<string, unknown>} */ (payload);
	if (body.status !== 'success') return payload;
	if (mode === 'ok') return { ...body, status: 'ok' };
	const { status: _status, ...rest } = body;
	return rest;
}

/**
 * One page of a whole (already filtered and ordered) list. With paging 'repeat-last', a page past the end is the
 * last page again, reported as that page (a paginator that normalises out-of-range pages).
 * @template T
 * @param {T[]} all
 * @param {Record<string, unknown>} query
 * @param {import('./context').SandboxConfig} config
 * @returns {{ items: T[], page: number, limit: number, total: number }}
 */
function pageOf(all, query, config) {
	let { page, limit } = pagination(query, config.maxPageSize);
	if (config.paging === 'repeat-last') page = Math.min(page, Math.max(1, Math.ceil(all.length / limit)));
	const offset = (page - 1) * limit;
	return { items: all.slice(offset, offset + limit), page, limit, total: all.length };
}

/**
 * The data of a list answer: the route's own shape ('standard' and 'repeat-last'), the shape without any total
 * ('no-total'), or {items, pagination: {total, page, limit}} ('nested-total', the same on every list route).
 * @template T
 * @param {import('./context').SandboxConfig} config
 * @param {{ items: T[], page: number, limit: number, total: number }} pg
 * @param {(pg: { items: T[], page: number, limit: number, total: number }) => unknown} standard
 * @param {(pg: { items: T[], page: number, limit: number, total: number }) => unknown} noTotal
 */
function listData(config, pg, standard, noTotal) {
	if (config.paging === 'nested-total') return { items: pg.items, pagination: { total: pg.total, page: pg.page, limit: pg.limit } };
	if (config.paging === 'no-total') return noTotal(pg);
	return standard(pg);
}

module.exports = { formMode, variantRoute, servedNow, pathGate, successEnvelope, pageOf, listData };
