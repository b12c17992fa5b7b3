// @ts-check
'use strict';
/** WhatsApp message (C2): POST /api/whatsapp/ {phone, message} -> 201 {message_id, phone, status:'queued'}. */
const { success } = require('../jsend');
const { objectBody, requirePhone, requireStrings } = require('../validate');
const { currentUser } = require('../context');

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('../context').Ctx} ctx
 */
function whatsappRoutes(app, ctx) {
	app.post('/api/whatsapp/', async (req, reply) => {
		const user = currentUser(req);
		const body = objectBody(req.body);
		const phone = requirePhone(body.phone);
		requireStrings(body, ['message']);
		const messageId = `wamid.${ctx.store.nextId('message')}`;
		ctx.store.messages.push({ ...body, type: 'whatsapp', userId: user.id, message_id: messageId, at: Date.now() });
		return reply.code(201).send(success({ message_id: messageId, phone, status: 'queued' }, 'Message queued.'));
	});
}

module.exports = { whatsappRoutes };
