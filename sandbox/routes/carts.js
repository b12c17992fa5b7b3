// @ts-check
'use strict';
/** Cart events (V2): POST /api/v1/cart/ {cart_id, total (number), customer?} -> 201 {cart_id, total, recovery}. */
const { success, validationError } = require('../jsend');
const { objectBody, requireStrings, isBlank, isPlainObject, checkPhone } = require('../validate');
const { currentUser } = require('../context');

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('../context').Ctx} ctx
 */
function cartRoutes(app, ctx) {
	app.post('/api/v1/cart/', async (req, reply) => {
		const user = currentUser(req);
		const body = objectBody(req.body);
		requireStrings(body, ['cart_id']);
		if (isBlank(body.total)) throw validationError([{ propertyPath: 'total', message: 'This value should not be blank.' }]);
		if (typeof body.total !== 'number' || !Number.isFinite(body.total)) {
			throw validationError([{ propertyPath: 'total', message: 'This value should be of type number.' }]);
		}
		if (body.customer !== undefined && body.customer !== null) {
			if (!isPlainObject(body.customer)) {
				throw validationError([{ propertyPath: 'customer', message: 'This value should be an object.' }]);
			}
			if (!isBlank(body.customer.phone)) checkPhone(body.customer.phone, 'customer.phone');
		}
		ctx.store.cartEvents.push({ userId: user.id, body, at: Date.now() });
		return reply.code(201).send(success({ cart_id: body.cart_id, total: body.total, recovery: 'scheduled' },
			'Cart event received.'));
	});
}

module.exports = { cartRoutes };
