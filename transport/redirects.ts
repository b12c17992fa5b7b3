import { otherReading, type Route } from './routes';

/**
 * Rule A6: no request that carries credentials follows a redirect blindly (n8n would re-send the Authorization
 * header to another host, and a 307 re-posts a login body with its password). Every request is sent with
 * redirects off, and a 3xx answer is judged here.
 */
export type RedirectPlan =
	/** The service serves the document's other reading of this path (a trailing slash added or removed). */
	| { action: 'otherReading'; path: string }
	/** A same-origin redirect of a read: followed once, by the transport. */
	| { action: 'follow'; url: string }
	| { action: 'refuse'; message: string; description: string };

export const isRedirect = (statusCode: number) => statusCode >= 300 && statusCode < 400 && statusCode !== 304;

export function planRedirect(input: {
	baseUrl: string;
	route: Route;
	/** The route path this request used (before the Base URL). */
	path: string;
	requestUrl: string;
	statusCode: number;
	location: string | undefined;
	alreadyFollowed: boolean;
}): RedirectPlan {
	const { statusCode, route } = input;
	const refuse = (where: string, why: string): RedirectPlan => ({
		action: 'refuse',
		message: `The service answered HTTP ${statusCode} with a redirect ${where}; it was not followed`,
		description: `${why} Nothing was sent to the redirect target. If the service has moved, change the Base URL of the Commerce Messaging credential.`,
	});
	if (!input.location) return refuse('without a target', 'The answer named no Location.');
	let target: URL;
	try {
		target = new URL(input.location, input.requestUrl);
	} catch {
		return refuse('to an address that is not a valid URL', 'The Location header could not be read.');
	}
	const base = new URL(input.baseUrl);
	if (base.protocol === 'https:' && target.protocol !== 'https:') {
		return refuse(`from https to ${target.protocol.replace(':', '')} (${target.host})`, 'Credentials are never sent without encryption.');
	}
	if (target.origin !== base.origin) {
		return refuse(`to another host (${target.host})`, 'The session token, the plugin API key and the password are only ever sent to the Base URL.');
	}
	const other = otherReading(route, input.path);
	if (other !== undefined && target.pathname === new URL(`${input.baseUrl}${other}`).pathname) {
		return { action: 'otherReading', path: other };
	}
	if ((route.method === 'GET' || route.method === 'HEAD') && !input.alreadyFollowed) {
		return { action: 'follow', url: target.href };
	}
	return refuse(
		`for a ${route.method} on the same host (${target.host})`,
		input.alreadyFollowed
			? 'A read is followed at most once: a second redirect in a row looks like a loop.'
			: 'Only reads are followed: repeating this request at another address could apply it twice.',
	);
}
