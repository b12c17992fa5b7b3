// @ts-check
'use strict';
/** Contacts (C1, E3): POST /api/contacts/ and GET /api/contacts/ (paginated {items,total,currentPage,limit}). */
const { success, validationError } = require('../jsend');
const { listAnswer } = require('../shapes');
const { objectBody, requirePhone, isBlank } = require('../validate');
const { pageOf, listData } = require('../variants');
const { currentUser, isoNow } = require('../context');

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('../context').Ctx} ctx
 */
function contactRoutes(app, ctx) {
	app.post('/api/contacts/', async (req, reply) => {
		const user = currentUser(req);
		const body = objectBody(req.body);
		requirePhone(body.phone);
		if (!isBlank(body.email) && (typeof body.email !== 'string' || !EMAIL.test(body.email))) {
			throw validationError([{ propertyPath: 'email', message: 'This value is not a valid email address.' }]);
		}
		const { id: _id, created_at: _c, ...fields } = body;
		const contact = ctx.store.addContact(user.id, fields, isoNow());
		return reply.code(201).send(success(contact, 'Contact created.'));
	});

	app.get('/api/contacts/', async (req) => {
		const user = currentUser(req);
		const pg = pageOf(ctx.store.contactsOf(user.id), /** @type {any} */ (req.query), ctx.config);
		return listAnswer(ctx.config.listShape, listData(ctx.config, pg,
			({ items, total, page, limit }) => ({ items, total, currentPage: page, limit }),
			({ items, page, limit }) => ({ items, currentPage: page, limit })));
	});
}

module.exports = { contactRoutes };
