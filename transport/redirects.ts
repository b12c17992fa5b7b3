import type { Route } from './routes';

/**
 * Rule A6 for redirects: requests carrying credentials go with redirects off and each 3xx is judged here (n8n would
 * re-send the Authorization header to another host; a 307 re-posts the password). Never to another origin nor from
 * https to plain http; the document's other reading of a path is taken once (address.ts); a read is followed once.
 */

export type RedirectRefusal = { message: string; description: string };

export type RedirectVerdict = { go: 'otherReading' } | { go: 'to'; href: string } | { go: 'nowhere'; refusal: RedirectRefusal };

/** `from`: the address answered; `otherReading`: the path's other reading, if not tried yet; `follow`: false for the login. */
export interface Redirect {
	statusCode: number;
	location: string | undefined;
	from: string;
	baseUrl: string;
	method: Route['method'];
	otherReading?: string;
	alreadyMoved: boolean;
	follow: boolean;
}

export function judgeRedirect(redirect: Redirect): RedirectVerdict {
	const refuse = (where: string, why: string): RedirectVerdict => ({
		go: 'nowhere',
		refusal: {
			message: `The service answered HTTP ${redirect.statusCode} with a redirect ${where}; it was not followed`,
			description: `${why} Nothing was sent to the redirect target. If the service has moved, change the Base URL of the Commerce Messaging credential.`,
		},
	});
	const { location, from, baseUrl, method, otherReading, alreadyMoved, follow } = redirect;
	if (!location) return refuse('without a target', 'The answer named no Location.');
	if (!URL.canParse(location, from)) return refuse('to an address that is not a valid URL', 'The Location header could not be read.');
	const target = new URL(location, from);
	const base = new URL(baseUrl);
	if (base.protocol === 'https:' && target.protocol !== 'https:') {
		return refuse(`from https to ${target.protocol.replace(':', '')} (${target.host})`, 'Credentials are never sent without encryption.');
	}
	if (target.origin !== base.origin) {
		return refuse(`to another host (${target.host})`, 'The session token, the plugin API key and the password are only ever sent to the Base URL.');
	}
	if (otherReading !== undefined && !alreadyMoved && target.pathname === new URL(`${baseUrl}${otherReading}`).pathname) return { go: 'otherReading' };
	if (follow && (method === 'GET' || method === 'HEAD') && !alreadyMoved) return { go: 'to', href: target.href };
	return refuse(
		`for a ${method} on the same host (${target.host})`,
		alreadyMoved || !follow
			? 'A read is followed at most once: a second redirect in a row looks like a loop.'
			: 'Only reads are followed: repeating this request at another address could apply it twice.',
	);
}
