// @ts-check
'use strict';
/**
 * Products (V5, A5) under /api/v1/products/ and /api/v1/products/{productId}/: list (plain array), get, create
 * (id + name required; existing id -> 409 CONFLICT), partial update (PUT), delete. Every call also needs the
 * plugin headers x-api-key (the user's plugin key), x-platform-type and x-base-uri -> else 403 PLUGIN_AUTH_REQUIRED
 * (config pluginHeaders 'required', the default; with 'optional' the JWT alone is enough).
 */
const { ApiError, success, notFound, validationError } = require('../jsend');
const { objectBody, isBlank, BLANK } = require('../validate');
const { pageOf, listData } = require('../variants');
const { currentUser, isoNow } = require('../context');
const { listAnswer } = require('../shapes');

const PLATFORMS = ['woocommerce', 'shopify', 'prestashop', 'magento', 'custom'];

/**
 * @param {Record<string, string | string[] | undefined>} headers
 * @param {import('../context').User} user
 * @param {boolean} [onlySent] pluginHeaders 'optional': a header that is not sent is fine, one that is sent must be right
 */
function checkPluginHeaders(headers, user, onlySent = false) {
	/** @param {string} message */
	const deny = (message) => new ApiError(403, 'PLUGIN_AUTH_REQUIRED', message);
	/** @param {string} name */
	const check = (name) => !onlySent || headers[name] !== undefined;
	const key = headers['x-api-key'];
	if (check('x-api-key')) {
		if (!key) throw deny('Missing x-api-key header: the products area requires the plugin secret key.');
		if (!user.pluginKey || key !== user.pluginKey) throw deny('Invalid x-api-key header: the plugin secret key is not valid for this account.');
	}
	const platform = headers['x-platform-type'];
	if (check('x-platform-type')) {
		if (!platform) throw deny(`Missing x-platform-type header (one of ${PLATFORMS.join(', ')}).`);
		if (typeof platform !== 'string' || !PLATFORMS.includes(platform)) {
			throw deny(`Invalid x-platform-type header "${String(platform)}": expected one of ${PLATFORMS.join(', ')}.`);
		}
	}
	const base = headers['x-base-uri'];
	if (!check('x-base-uri')) return;
	if (!base) throw deny('Missing x-base-uri header (the shop\'s absolute http(s) URL).');
	let ok = false;
	try {
		const u = new URL(String(base));
		ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
	} catch {
		ok = false;
	}
	if (!ok) throw deny(`Invalid x-base-uri header "${String(base)}": expected an absolute http(s) URL.`);
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('../context').Ctx} ctx
 */
function productRoutes(app, ctx) {
	app.register(async (scope) => {
		scope.addHook('preHandler', async (req) => {
			checkPluginHeaders(req.headers, currentUser(req), ctx.config.pluginHeaders === 'optional');
		});

		/** @param {import('fastify').FastifyRequest} req */
		const lookup = (req) => {
			const user = currentUser(req);
			const id = /** @type {{ productId: string }} */ (req.params).productId;
			const products = ctx.store.productsOf(user.id);
			const product = products.get(id);
			if (!product) throw notFound(`Product ${id} not found.`);
			return { id, products, product };
		};

		scope.get('/api/v1/products/', async (req) => {
			const user = currentUser(req);
			const pg = pageOf([...ctx.store.productsOf(user.id).values()], /** @type {any} */ (req.query), ctx.config);
			return listAnswer(ctx.config.listShape, listData(ctx.config, pg, ({ items }) => items, ({ items }) => items));
		});

		scope.post('/api/v1/products/', async (req, reply) => {
			const user = currentUser(req);
			const body = objectBody(req.body);
			/** @type {import('../jsend').Violation[]} */
			const violations = [];
			if (isBlank(body.id)) violations.push({ propertyPath: 'id', message: BLANK });
			else if (typeof body.id !== 'string' && !Number.isInteger(body.id)) {
				violations.push({ propertyPath: 'id', message: 'This value should be a string or an integer.' });
			}
			if (isBlank(body.name)) violations.push({ propertyPath: 'name', message: BLANK });
			else if (typeof body.name !== 'string') violations.push({ propertyPath: 'name', message: 'This value should be of type string.' });
			if (violations.length) throw validationError(violations);
			const products = ctx.store.productsOf(user.id);
			const key = String(body.id);
			if (products.has(key)) throw new ApiError(409, 'CONFLICT', `Product ${key} already exists.`, { id: body.id });
			const now = isoNow();
			const product = { ...body, id: body.id, name: body.name, created_at: now, updated_at: now };
			products.set(key, product);
			return reply.code(201).send(success(product, 'Product created.'));
		});

		scope.get('/api/v1/products/:productId/', async (req) => success(lookup(req).product));

		scope.put('/api/v1/products/:productId/', async (req) => {
			const { product } = lookup(req);
			const body = objectBody(req.body);
			if ('name' in body && (isBlank(body.name) || typeof body.name !== 'string')) {
				throw validationError([{ propertyPath: 'name', message: BLANK }]);
			}
			for (const [k, v] of Object.entries(body)) {
				if (k !== 'id' && k !== 'created_at' && k !== 'updated_at' && k !== '__proto__') product[k] = v;
			}
			product.updated_at = isoNow();
			return success(product, 'Product updated.');
		});

		scope.delete('/api/v1/products/:productId/', async (req) => {
			const { id, products, product } = lookup(req);
			products.delete(id);
			return success({ id: product.id, deleted: true }, 'Product deleted.');
		});
	});
}

module.exports = { productRoutes, PLATFORMS };
