// @ts-check
'use strict';
/**
 * Order events (V1): POST /api/v1/order/ records every event (no deduplication: that is the client's job, V4)
 * and upserts the order history; GET /api/v1/order/history/ lists it newest first ({results}, no total), filtered by
 * status, date_from and date_to on created_at (config.orderHistoryFilters 'ignored': a service that reads none of
 * them and lists the whole history).
 */
const { success, validationError } = require('../jsend');
const { objectBody, requireStrings, pagination } = require('../validate');
const { pageOf, listData, variantRoute } = require('../variants');
const { currentUser } = require('../context');
const { listAnswer } = require('../shapes');

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY = 86_400_000;

/**
 * @param {unknown} value
 * @param {string} name
 * @param {boolean} endOfDay a date without time means the end of that day (for date_to)
 * @returns {number | null}
 */
function parseDate(value, name, endOfDay) {
	if (value === undefined || value === '') return null;
	const ms = typeof value === 'string' ? Date.parse(value) : NaN;
	if (Number.isNaN(ms)) {
		throw validationError([{ propertyPath: name, message: 'This value should be an ISO 8601 date.' }], 400);
	}
	return endOfDay && DATE_ONLY.test(/** @type {string} */ (value)) ? ms + DAY - 1 : ms;
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('../context').Ctx} ctx
 */
function orderRoutes(app, ctx) {
	app.post('/api/v1/order/', async (req, reply) => {
		const user = currentUser(req);
		const body = objectBody(req.body);
		requireStrings(body, ['order_id', 'status']);
		const at = ctx.store.orderClock();
		ctx.store.orderEvents.push({ userId: user.id, body, at });
		ctx.store.upsertOrder(user.id, body, at);
		return reply.code(201).send(success(
			{ order_id: body.order_id, status: body.status, received_at: new Date(at).toISOString() }, 'Order event received.'));
	});

	/** @type {import('fastify').RouteHandlerMethod} */
	const history = async (req) => {
		const user = currentUser(req);
		const query = /** @type {Record<string, unknown>} */ (req.query);
		const { limit, offset } = pagination(query, ctx.config.maxPageSize);
		// A service that ignores the filters does not read (or check) them either.
		const filtered = ctx.config.orderHistoryFilters === 'applied';
		const status = filtered && typeof query.status === 'string' && query.status !== '' ? query.status : null;
		const from = filtered ? parseDate(query.date_from, 'date_from', false) : null;
		const to = filtered ? parseDate(query.date_to, 'date_to', true) : null;
		// orderVisibilityDelayMs: a read replica that lags behind; created_at stays the push time.
		const delay = ctx.config.orderVisibilityDelayMs;
		const visibleUpTo = delay > 0 ? Date.now() - delay : Infinity;
		/** @param {import('../store').Order} o */
		const keep = (o) => (status === null || o.status === status) && (from === null || o.created_ms >= from)
			&& (to === null || o.created_ms <= to) && o.created_ms <= visibleUpTo;
		const asc = ctx.store.ordersAscending(user.id);
		const whole = ctx.config.paging === 'repeat-last' || ctx.config.paging === 'nested-total';
		if (!whole) {
			// No total to report: stop at the end of the page.
			const results = [];
			let skipped = 0;
			for (let i = asc.length - 1; i >= 0 && results.length < limit; i--) {
				if (!keep(asc[i])) continue;
				if (skipped < offset) skipped++;
				else results.push(asc[i]);
			}
			return listAnswer(ctx.config.listShape, { results });
		}
		const all = [];
		for (let i = asc.length - 1; i >= 0; i--) if (keep(asc[i])) all.push(asc[i]);
		return listAnswer(ctx.config.listShape,
			listData(ctx.config, pageOf(all, query, ctx.config), ({ items }) => ({ results: items }), ({ items }) => ({ results: items })));
	};
	// Both forms are routes; config.paths.orderHistory decides which one is served (trailing slash by default).
	app.get('/api/v1/order/history/', variantRoute('orderHistory'), history);
	app.get('/api/v1/order/history', variantRoute('orderHistory'), history);
}

module.exports = { orderRoutes };
