import type { IDataObject } from 'n8n-workflow';

import { learnedPaths } from './processState';
import type { Route } from './routes';

/**
 * Where one request goes: the route's path under the Base URL with its parameters filled in, and where it goes
 * next after a redirect or a 404 (shared by the API requests and the login).
 *
 * Rule A6: no request that carries credentials follows a redirect blindly (n8n would re-send the Authorization
 * header to another host, and a 307 re-posts a login body with its password). Every request is sent with
 * redirects off and a 3xx answer is judged here. Where the document contradicts itself about a path (its table
 * against its trailing-slash rule, `alternatePath`), the other reading is tried once after a 404 or a redirect to
 * it, and the reading the service serves is remembered for the process.
 */

/** Longest request address (path and query) sent: longer ones are refused before sending, never retried. */
export const MAX_URL_LENGTH = 8_192;

/** Input the transport refuses to send (a path parameter that would change the endpoint, an address too long). */
export class RequestRefused extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
		this.name = 'RequestRefused';
	}
}

export type RedirectRefusal = { message: string; description: string };

export class Address {
	private path: string;

	/** Set once a same-origin redirect of a read was followed: the absolute address it named. */
	private redirectedTo?: string;

	private triedOtherReading = false;

	constructor(
		private readonly baseUrl: string,
		private readonly route: Route,
		private readonly pathParams: Record<string, string | number> = {},
		private readonly qs?: IDataObject,
	) {
		this.path = servedPath(baseUrl, route);
		// Checked at once, so a bad id or an oversized address fails before any login or wait.
		this.target();
	}

	/** The absolute URL and query string of the next attempt. */
	target(): { url: string; qs?: IDataObject } {
		const target = this.redirectedTo
			? { url: this.redirectedTo, qs: new URL(this.redirectedTo).search ? undefined : this.qs }
			: { url: `${this.baseUrl}${buildPath(this.path, this.pathParams)}`, qs: this.qs };
		assertAddressLength(target.url, target.qs);
		return target;
	}

	/**
	 * A 3xx answer: undefined when the request goes on (to the other reading, or a same-origin read followed once),
	 * or why it was refused. `follow` false: only the other reading is accepted (the login is never followed).
	 */
	redirected(statusCode: number, location: string | undefined, follow = true): RedirectRefusal | undefined {
		const refuse = (where: string, why: string): RedirectRefusal => ({
			message: `The service answered HTTP ${statusCode} with a redirect ${where}; it was not followed`,
			description: `${why} Nothing was sent to the redirect target. If the service has moved, change the Base URL of the Commerce Messaging credential.`,
		});
		if (!location) return refuse('without a target', 'The answer named no Location.');
		let target: URL;
		try {
			target = new URL(location, this.target().url);
		} catch {
			return refuse('to an address that is not a valid URL', 'The Location header could not be read.');
		}
		const base = new URL(this.baseUrl);
		if (base.protocol === 'https:' && target.protocol !== 'https:') {
			return refuse(`from https to ${target.protocol.replace(':', '')} (${target.host})`, 'Credentials are never sent without encryption.');
		}
		if (target.origin !== base.origin) {
			return refuse(`to another host (${target.host})`, 'The session token, the plugin API key and the password are only ever sent to the Base URL.');
		}
		const other = this.otherReading();
		const alreadyMoved = this.redirectedTo !== undefined || this.triedOtherReading;
		if (other !== undefined && !alreadyMoved && target.pathname === new URL(`${this.baseUrl}${other}`).pathname) {
			this.useOtherReading(other);
			return undefined;
		}
		const read = this.route.method === 'GET' || this.route.method === 'HEAD';
		if (follow && read && !alreadyMoved) {
			this.redirectedTo = target.href;
			return undefined;
		}
		return refuse(
			`for a ${this.route.method} on the same host (${target.host})`,
			alreadyMoved || !follow
				? 'A read is followed at most once: a second redirect in a row looks like a loop.'
				: 'Only reads are followed: repeating this request at another address could apply it twice.',
		);
	}

	/** A 404: true when the document's other reading of the path is tried next (once). */
	notFound(): boolean {
		const other = this.otherReading();
		if (other === undefined || this.triedOtherReading || this.redirectedTo) return false;
		this.useOtherReading(other);
		return true;
	}

	/** The service answered: remember which reading of the path it serves. */
	served(): void {
		if (!this.triedOtherReading) return;
		const key = pathKey(this.baseUrl, this.route);
		if (this.path === this.route.path) learnedPaths.delete(key);
		else learnedPaths.set(key, this.path);
	}

	private otherReading(): string | undefined {
		if (!this.route.alternatePath) return undefined;
		return this.path === this.route.path ? this.route.alternatePath : this.route.path;
	}

	private useOtherReading(other: string): void {
		this.triedOtherReading = true;
		this.path = other;
	}
}

const pathKey = (baseUrl: string, route: Route) => `${baseUrl} ${route.method} ${route.path}`;

function servedPath(baseUrl: string, route: Route): string {
	return learnedPaths.get(pathKey(baseUrl, route)) ?? route.path;
}

/**
 * Fills `{id}` placeholders. Each value is one path segment: URI-encoded, and refused when empty, `.` or `..`
 * (which a URL resolves into another endpoint: `DELETE /api/v1/products/..` would be `DELETE /api/v1/`).
 */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name] === undefined ? '' : String(params[name]);
		if (value.trim() === '' || value === '.' || value === '..') {
			throw new RequestRefused(
				value.trim() === '' ? `The ${name} is empty` : `The ${name} "${value}" is not a valid id`,
				`An id is one segment of the address ${path}: it cannot be empty, "." or "..".`,
			);
		}
		return encodeURIComponent(value);
	});
}

/**
 * A path of the Other Endpoint call: relative to the Base URL, and without `.` or `..` segments (also percent-
 * encoded), which would make it name another address than the one written.
 */
export function assertPlainPath(path: string): void {
	const segments = path.split(/[?#]/)[0].split('/');
	const dotted = segments.find((segment) => /^(\.|%2e){1,2}$/i.test(segment));
	if (dotted !== undefined) {
		throw new RequestRefused(
			`The path "${path.slice(0, 200)}" contains the segment "${dotted}"`,
			'"." and ".." segments would change which endpoint is called: write the path as the service names it.',
		);
	}
}

function assertAddressLength(url: string, qs: IDataObject | undefined): void {
	const query = qs ? new URLSearchParams(Object.entries(qs).map(([k, v]) => [k, String(v)])).toString() : '';
	const length = url.length + (query ? query.length + 1 : 0);
	if (length > MAX_URL_LENGTH) {
		throw new RequestRefused(
			`The request's address is ${length.toLocaleString('en-US')} characters long, over the limit of ${MAX_URL_LENGTH.toLocaleString('en-US')}`,
			'Services refuse addresses this long. Shorten the path or the query parameters; send large data in the body instead.',
		);
	}
}
