import type { IDataObject } from 'n8n-workflow';

import { learnedPaths } from './processState';
import { judgeRedirect, type RedirectRefusal } from './redirects';
import type { Route } from './routes';

/**
 * Where one request goes (an API request or the login): the route's path under the Base URL with its ids filled in,
 * and where next after a redirect (judged by redirects.ts) or a 404. Where the document contradicts itself about a
 * path (`alternatePath`), the other reading is tried once after a 404 or a redirect to it, and the one the service
 * serves is remembered for the process.
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
		this.path = learnedPaths.get(this.pathKey) ?? route.path;
		// Checked at once, so a bad id or an oversized address fails before any login or wait.
		this.target();
	}

	private get pathKey(): string {
		return `${this.baseUrl} ${this.route.method} ${this.route.path}`;
	}

	/** The absolute URL and query string of the next attempt. */
	target(): { url: string; qs?: IDataObject } {
		const target = this.redirectedTo
			? { url: this.redirectedTo, qs: new URL(this.redirectedTo).search ? undefined : this.qs }
			: { url: `${this.baseUrl}${buildPath(this.path, this.pathParams)}`, qs: this.qs };
		const query = target.qs ? new URLSearchParams(Object.entries(target.qs).map(([k, v]) => [k, String(v)])).toString() : '';
		const length = target.url.length + (query ? query.length + 1 : 0);
		if (length > MAX_URL_LENGTH) {
			throw new RequestRefused(
				`The request's address is ${length.toLocaleString('en-US')} characters long, over the limit of ${MAX_URL_LENGTH.toLocaleString('en-US')}`,
				'Services refuse addresses this long. Shorten the path or the query parameters; send large data in the body instead.',
			);
		}
		return target;
	}

	/** A 3xx (redirects.ts): undefined when the request goes on, else why not; `follow` false: only the other reading (the login). */
	redirected(statusCode: number, location: string | undefined, follow = true): RedirectRefusal | undefined {
		const other = this.otherReading();
		const alreadyMoved = this.redirectedTo !== undefined || this.triedOtherReading;
		const { baseUrl, route } = this;
		const verdict = judgeRedirect({ statusCode, location, from: this.target().url, baseUrl, method: route.method, otherReading: other, alreadyMoved, follow });
		if (verdict.go === 'nowhere') return verdict.refusal;
		if (verdict.go === 'to') this.redirectedTo = verdict.href;
		else if (other !== undefined) this.useOtherReading(other);
		return undefined;
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
		if (this.path === this.route.path) learnedPaths.delete(this.pathKey);
		else learnedPaths.set(this.pathKey, this.path);
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

/** A path of the Other Endpoint call: no `.` or `..` segments (also percent-encoded), which would name another address. */
export function assertPlainPath(path: string): void {
	const dotted = path.split(/[?#]/)[0].split('/').find((segment) => /^(\.|%2e){1,2}$/i.test(segment));
	if (dotted !== undefined) {
		throw new RequestRefused(
			`The path "${path.slice(0, 200)}" contains the segment "${dotted}"`,
			'"." and ".." segments would change which endpoint is called: write the path as the service names it.',
		);
	}
}
