// @ts-check
'use strict';
/**
 * WhatsApp templates v2 (T1-T5, E4), rooted at /api/v2/whatsapp/templates (no trailing slash):
 * create (DRAFT), list ({items,total}, optional state filter), get, submit (DRAFT -> PENDING), send (APPROVED only,
 * values filling every placeholder), delete (any state). Records are stored flat and answered per templateShape.
 */
const { ApiError, success, notFound, validationError } = require('../jsend');
const { objectBody, requireStrings, requirePhone, isBlank } = require('../validate');
const { pageOf, listData } = require('../variants');
const { currentUser, isoNow } = require('../context');
const { listAnswer, templateRecord } = require('../shapes');
const { checkSendValues } = require('../placeholders');

const ROOT = '/api/v2/whatsapp/templates';
const STATES = ['DRAFT', 'PENDING', 'APPROVED', 'REJECTED'];
const SERVER_FIELDS = ['id', 'state', 'reason', 'created_at', 'updated_at', 'submitted_at', 'reviewed_at'];

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('../context').Ctx} ctx
 */
function templateRoutes(app, ctx) {
	/** @param {import('../store').Template} tpl */
	const shaped = (tpl) => templateRecord(ctx.config.templateShape, tpl);

	/**
	 * @param {import('fastify').FastifyRequest} req
	 * @returns {import('../store').Template}
	 */
	function findTemplate(req) {
		const user = currentUser(req);
		const raw = /** @type {{ id: string }} */ (req.params).id;
		const tpl = /^\d{1,15}$/.test(raw) ? ctx.store.templateOf(user.id, Number(raw)) : undefined;
		if (!tpl) throw notFound(`Template ${raw} not found.`);
		return tpl;
	}

	app.post(ROOT, async (req, reply) => {
		const user = currentUser(req);
		const body = objectBody(req.body);
		requireStrings(body, ['name', 'body']);
		/** @type {Record<string, any>} */
		const fields = {};
		for (const [k, v] of Object.entries(body)) if (!SERVER_FIELDS.includes(k)) fields[k] = v;
		const tpl = ctx.store.addTemplate(user.id, fields, 'DRAFT', isoNow());
		return reply.code(201).send(success(shaped(tpl), 'Template created as DRAFT.'));
	});

	app.get(ROOT, async (req) => {
		const user = currentUser(req);
		const query = /** @type {Record<string, unknown>} */ (req.query);
		const state = query.state;
		if (state !== undefined && (typeof state !== 'string' || !STATES.includes(state))) {
			throw validationError([{ propertyPath: 'state', message: `The state must be one of ${STATES.join(', ')}.` }], 400);
		}
		const mine = [];
		for (const t of ctx.store.templates.values()) {
			if (t.userId === user.id && (state === undefined || t.state === state)) mine.push(t);
		}
		const page = pageOf(mine, query, ctx.config);
		return listAnswer(ctx.config.listShape, listData(ctx.config, { ...page, items: page.items.map(shaped) },
			({ items, total }) => ({ items, total }), ({ items }) => ({ items })));
	});

	app.get(`${ROOT}/:id`, async (req) => success(shaped(findTemplate(req))));

	app.post(`${ROOT}/:id/submit`, async (req) => {
		const tpl = findTemplate(req);
		if (tpl.state !== 'DRAFT') {
			throw new ApiError(409, 'INVALID_STATE', `Only a DRAFT template can be submitted; this template is ${tpl.state}.`,
				{ state: tpl.state });
		}
		const now = isoNow();
		tpl.state = 'PENDING';
		tpl.submitted_at = now;
		tpl.updated_at = now;
		ctx.reviews.schedule(tpl);
		return success(shaped(tpl), 'Template submitted for review.');
	});

	app.post(`${ROOT}/:id/send`, async (req, reply) => {
		const tpl = findTemplate(req);
		const user = currentUser(req);
		if (tpl.state !== 'APPROVED') {
			throw new ApiError(400, 'TEMPLATE_NOT_APPROVED',
				`Template "${tpl.name}" cannot be sent: its state is ${tpl.state}; only APPROVED templates can be sent.`,
				tpl.state === 'REJECTED' ? { state: tpl.state, reason: tpl.reason } : { state: tpl.state });
		}
		const body = objectBody(req.body);
		const phone = requirePhone(body.phone);
		let media = null;
		if (!isBlank(body.header_media_id)) {
			const mediaId = String(body.header_media_id);
			media = ctx.store.media.get(mediaId);
			if (!media) throw notFound(`Media ${mediaId} not found.`);
			if (media.userId !== user.id) {
				throw new ApiError(403, 'MEDIA_NOT_OWNED', `Media ${mediaId} belongs to another user; upload it with this account.`);
			}
		}
		checkSendValues(tpl, body);
		if (media && !media.used_by.includes(tpl.id)) media.used_by.push(tpl.id);
		const messageId = `wamid.${ctx.store.nextId('message')}`;
		ctx.store.messages.push({
			type: 'template', userId: user.id, message_id: messageId, template_id: tpl.id, template_name: tpl.name, phone,
			variables: body.variables ?? null, header_variables: body.header_variables ?? null,
			button_variables: body.button_variables ?? null, header_media_id: media ? media.media_id : null, at: Date.now(),
		});
		return reply.code(201).send(success({ message_id: messageId, template_id: tpl.id, phone, status: 'queued' },
			'Template message queued.'));
	});

	app.delete(`${ROOT}/:id`, async (req) => {
		const tpl = findTemplate(req);
		ctx.reviews.cancel(tpl.id);
		ctx.store.templates.delete(tpl.id);
		return success({ id: tpl.id, deleted: true }, 'Template deleted.');
	});
}

module.exports = { templateRoutes };
