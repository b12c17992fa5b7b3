// @ts-check
'use strict';
/**
 * Media v2 (M1-M4): POST /api/v2/whatsapp/media (multipart/form-data with a boundary, binary part `file`)
 * -> 201 {media_id} (or another shape: config.mediaAnswer); DELETE /api/v2/whatsapp/media/{id} (owner only, not while used by a send).
 */
const crypto = require('node:crypto');
const { ApiError, success, notFound, validationError } = require('../jsend');
const { currentUser, isoNow } = require('../context');
const { mediaAnswer } = require('../shapes');
const { BLANK } = require('../validate');

const ROOT = '/api/v2/whatsapp/media';

/**
 * @param {unknown} err
 * @returns {ApiError}
 */
function multipartError(err) {
	if (err instanceof ApiError) return err;
	const e = /** @type {{ code?: string, message?: string }} */ (err ?? {});
	if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FILES_LIMIT') {
		return new ApiError(413, 'VALIDATION_ERROR', `The upload is too large (${e.message}).`);
	}
	return new ApiError(400, 'INVALID_MULTIPART',
		`Invalid multipart/form-data body (${e.message ?? 'unreadable'}). Let the HTTP client set the Content-Type `
		+ 'header so that it carries the multipart boundary.');
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('../context').Ctx} ctx
 */
function mediaRoutes(app, ctx) {
	app.post(ROOT, async (req, reply) => {
		const user = currentUser(req);
		if (!req.isMultipart()) {
			throw new ApiError(400, 'INVALID_MULTIPART',
				`The upload must be multipart/form-data with a binary part named "file" (got Content-Type "${req.headers['content-type'] ?? ''}").`);
		}
		/** @type {{ filename: string, mimetype: string, size: number } | null} */
		let file = null;
		try {
			for await (const part of req.parts()) {
				if (part.type !== 'file') continue;
				let size = 0;
				for await (const chunk of part.file) size += chunk.length;
				if (part.fieldname === 'file' && !file) file = { filename: part.filename, mimetype: part.mimetype, size };
			}
		} catch (err) {
			throw multipartError(err);
		}
		if (!file) throw validationError([{ propertyPath: 'file', message: BLANK }]);
		const mediaId = `med_${crypto.randomBytes(9).toString('base64url')}`;
		ctx.store.addMedia(user.id, file, mediaId, isoNow());
		return reply.code(201).send(mediaAnswer(ctx.config.mediaAnswer, mediaId, file));
	});

	app.delete(`${ROOT}/:id`, async (req) => {
		const user = currentUser(req);
		const id = /** @type {{ id: string }} */ (req.params).id;
		const media = ctx.store.media.get(id);
		if (!media) throw notFound(`Media ${id} not found.`);
		if (media.userId !== user.id) {
			throw new ApiError(403, 'MEDIA_NOT_OWNED', `Media ${id} belongs to another user.`);
		}
		if (media.used_by.length > 0) {
			throw new ApiError(409, 'MEDIA_IN_USE', `Media ${id} is used by a sent template and cannot be deleted.`,
				{ media_id: id, template_ids: media.used_by });
		}
		ctx.store.media.delete(id);
		return success({ media_id: id, deleted: true }, 'Media deleted.');
	});
}

module.exports = { mediaRoutes };
