import type { IDataObject } from 'n8n-workflow';

import { header } from './answers';
import { formatCount } from './format';
import type { Route } from './routes';
import { MAX_TABLE_ENTRIES, MAX_URL_LENGTH } from './settings';

/**
 * Where one request goes (an API request or the login): the route's path under the Base URL with its ids, and where
 * next after a redirect or a 404. Rule A6 for redirects: requests with credentials never follow one blindly (n8n would
 * re-send the Authorization header to another host; a 307 re-posts the password). Never to another origin nor from
 * https to http; the document's other spelling of a path is tried once; a read is followed once.
 */

/** Input the transport refuses to send: a path parameter that would change the endpoint, an address too long. */
export class RequestRefused extends Error {
	name = 'RequestRefused';

	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
	}
}

/**
 * Which spelling of a contradicted path each service serves (by Base URL and route), learned once for the process, so
 * the steady state costs no extra request: a service's paths do not change between executions. Bound: MAX_TABLE_ENTRIES.
 */
const learnedPaths = new Map<string, string>();

/** A path's first `.` or `..` segment (also percent-encoded), which would name another address. */
export const dotSegment = (path: string) =>
	path
		.split(/[?#]/)[0]
		.split('/')
		.find((segment) => /^(\.|%2e){1,2}$/i.test(segment));

export class Address {
	private path: string;
	/** Set once a same-origin redirect of a read was followed: the absolute address it named. */
	private redirectedTo?: string;
	/** Set once the request went to another address (the path's other spelling, or a redirect): never twice. */
	private rerouted = false;

	constructor(
		private readonly baseUrl: string,
		private readonly route: Route,
		private readonly pathParams: Record<string, string | number> = {},
		private readonly qs?: IDataObject,
	) {
		this.path = learnedPaths.get(this.key) ?? route.path;
		// Checked at once: a dot segment, a bad id or an oversized address fails before any login or wait. The route's
		// path (one a user gave too) has no `.` or `..` segments.
		const dotted = dotSegment(route.path);
		if (dotted !== undefined) {
			throw new RequestRefused(
				`The path "${route.path.slice(0, 200)}" contains the segment "${dotted}"`,
				'"." and ".." segments would change which endpoint is called: write the path as the service names it.',
			);
		}
		this.target();
	}

	private get key() {
		return `${this.baseUrl} ${this.route.method} ${this.route.path}`;
	}

	/** The absolute URL and query string of the next attempt. */
	target() {
		const url = this.redirectedTo ?? `${this.baseUrl}${buildPath(this.path, this.pathParams)}`;
		// A redirect target that names a query of its own takes the place of the request's.
		const qs = this.redirectedTo && new URL(url).search ? undefined : this.qs;
		const query = qs ? new URLSearchParams(qs as Record<string, string>).toString() : '';
		const length = url.length + (query ? query.length + 1 : 0);
		if (length > MAX_URL_LENGTH) {
			throw new RequestRefused(
				`The request's address is ${formatCount(length)} characters long, over the limit of ${formatCount(MAX_URL_LENGTH)}`,
				'Services refuse addresses this long. Shorten the path or the query parameters; send large data in the body instead.',
			);
		}
		return { url, qs };
	}

	/**
	 * What an answer means for the address: true when the request goes again (a 404, or a redirect, to the path's other
	 * spelling, tried once; a same-origin redirect of a read, followed once), a refusal for a redirect not followed, false
	 * when the answer stands. `follow` false: only the other spelling (the login).
	 */
	reroute(status: number, headers: Record<string, unknown>, follow = true) {
		const { alternatePath, path, method } = this.route;
		// The other spelling of the path, if the route has one and it was not tried yet.
		const other =
			alternatePath && !this.rerouted ? (this.path === path ? alternatePath : path) : undefined;
		if (status !== 404) {
			if (status < 300 || status >= 400 || status === 304) return false;
			const refuse = (where: string, why: string) => ({
				message: `The service answered HTTP ${status} with a redirect ${where}; it was not followed`,
				description: `${why} Nothing was sent to the redirect target. If the service has moved, change the Base URL of the Commerce Messaging credential.`,
			});
			const location = header(headers, 'location');
			const from = this.target().url;
			if (!location) return refuse('without a target', 'The answer named no Location.');
			if (!URL.canParse(location, from))
				return refuse(
					'to an address that is not a valid URL',
					'The Location header could not be read.',
				);
			const target = new URL(location, from);
			const base = new URL(this.baseUrl);
			if (base.protocol === 'https:' && target.protocol !== 'https:') {
				return refuse(
					`from https to ${target.protocol.replace(':', '')} (${target.host})`,
					'Credentials are never sent without encryption.',
				);
			}
			if (target.origin !== base.origin) {
				return refuse(
					`to another host (${target.host})`,
					'The session token, the plugin API key and the password are only ever sent to the Base URL.',
				);
			}
			if (other === undefined || target.pathname !== new URL(`${this.baseUrl}${other}`).pathname) {
				if (follow && (method === 'GET' || method === 'HEAD') && !this.rerouted) {
					this.redirectedTo = target.href;
					this.rerouted = true;
					return true;
				}
				return refuse(
					`for a ${method} on the same host (${target.host})`,
					this.rerouted || !follow
						? 'A read is followed at most once: a second redirect in a row looks like a loop.'
						: 'Only reads are followed: repeating this request at another address could apply it twice.',
				);
			}
		}
		// A 404, or a redirect to the other spelling: that spelling is tried next, once.
		if (other) {
			this.path = other;
			this.rerouted = true;
		}
		return !!other;
	}

	/** The service answered: remember which spelling of the path it serves. */
	served() {
		if (!this.route.alternatePath || this.redirectedTo) return;
		learnedPaths.delete(this.key);
		if (this.path !== this.route.path) learnedPaths.set(this.key, this.path);
		if (learnedPaths.size > MAX_TABLE_ENTRIES)
			learnedPaths.delete(learnedPaths.keys().next().value!);
	}
}

/**
 * Fills `{id}` placeholders. Each value is one path segment: URI-encoded, and refused when empty, `.` or `..` (which
 * a URL resolves into another endpoint: `DELETE /api/v1/products/..` would be `DELETE /api/v1/`).
 */
function buildPath(path: string, params: Record<string, string | number>) {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = String(params[name] ?? '');
		const empty = !value.trim();
		if (empty || value === '.' || value === '..') {
			throw new RequestRefused(
				empty ? `The ${name} is empty` : `The ${name} "${value}" is not a valid id`,
				`An id is one segment of the address ${path}: it cannot be empty, "." or "..".`,
			);
		}
		return encodeURIComponent(value);
	});
}
