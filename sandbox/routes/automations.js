// @ts-check
'use strict';
/**
 * Automation instances (V3): POST /api/v1/automations/instances/ {automation_id (integer), payload? (object)}
 * -> 201 {instance_id, automation_id, status:'started', payload}; unknown (or another user's) automation: 404.
 */
const { success, validationError, notFound } = require('../jsend');
const { objectBody, isPlainObject } = require('../validate');
const { currentUser } = require('../context');

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('../context').Ctx} ctx
 */
function automationRoutes(app, ctx) {
	app.post('/api/v1/automations/instances/', async (req, reply) => {
		const user = currentUser(req);
		const body = objectBody(req.body);
		if (body.automation_id === undefined || body.automation_id === null || body.automation_id === '') {
			throw validationError([{ propertyPath: 'automation_id', message: 'This value should not be blank.' }]);
		}
		if (!Number.isInteger(body.automation_id)) {
			throw validationError([{ propertyPath: 'automation_id', message: 'This value should be of type integer.' }]);
		}
		if (body.payload !== undefined && !isPlainObject(body.payload)) {
			throw validationError([{ propertyPath: 'payload', message: 'This value should be of type object.' }]);
		}
		const automation = ctx.store.automations.get(body.automation_id);
		if (!automation || automation.userId !== user.id) throw notFound(`Automation ${body.automation_id} not found.`);
		const instance = {
			instance_id: ctx.store.nextId('instance'),
			automation_id: automation.id,
			status: 'started',
			payload: body.payload ?? {},
		};
		ctx.store.automationInstances.push({ ...instance, userId: user.id, at: Date.now() });
		return reply.code(201).send(success(instance, 'Automation instance started.'));
	});
}

module.exports = { automationRoutes };
