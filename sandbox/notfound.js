// @ts-check
'use strict';
/**
 * Unknown routes: 404 JSend NOT_FOUND. When the same path with (or without) a trailing slash exists, the message
 * says so (rule E6); when the path exists with other methods, it lists them.
 */
const { errorBody } = require('./jsend');

const E6 = 'v1 and unversioned routes end with a trailing slash; v2 WhatsApp routes do not';

class RouteIndex {
	constructor() {
		/** @type {Array<{ method: string, re: RegExp, active?: () => boolean }>} */ this.routes = [];
	}

	/**
	 * @param {string | string[]} method
	 * @param {string} url a fastify pattern such as /api/v1/products/:productId/
	 * @param {() => boolean} [active] for a form served only in some variant modes (variants.js)
	 */
	add(method, url, active) {
		const source = url.split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
		const re = new RegExp(`^${source}$`);
		for (const m of Array.isArray(method) ? method : [method]) this.routes.push({ method: m, re, active });
	}

	/** @param {string} path @returns {string[]} methods served on this exact path */
	methodsFor(path) {
		return this.routes.filter((r) => r.re.test(path) && (!r.active || r.active())).map((r) => r.method);
	}
}

/** @param {RouteIndex} routes */
function notFoundHandler(routes) {
	/**
	 * @param {import('fastify').FastifyRequest} req
	 * @param {import('fastify').FastifyReply} reply
	 */
	return (req, reply) => {
		const q = req.url.indexOf('?');
		const path = q === -1 ? req.url : req.url.slice(0, q);
		let message = `No route found for "${req.method} ${path}".`;
		const here = routes.methodsFor(path);
		const alt = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
		if (here.length > 0) {
			message += ` Method not allowed (allowed: ${[...new Set(here)].join(', ')}).`;
		} else if (routes.methodsFor(alt).length > 0) {
			message += ` Unknown route: check the trailing slash (${E6}); did you mean "${alt}"?`;
		} else {
			message += ` Unknown route (${E6}).`;
		}
		reply.code(404).send(errorBody('NOT_FOUND', message));
	};
}

module.exports = { RouteIndex, notFoundHandler };
