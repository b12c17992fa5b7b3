import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { extractLoginToken, type CommerceMessagingCredentials } from './auth';
import { header, readEnvelope, type RawResponse } from './envelope';
import { redactText } from './redact';
import { isRedirect, planRedirect } from './redirects';
import { DEFAULT_RETRY } from './retryPolicy';
import { otherReading, rememberServedPath, ROUTES, servedPath } from './routes';

/** A login failure, worded for the user; it never contains the password (rule A6). */
export class LoginError extends Error {
	constructor(reason: string) {
		super(`Login to the Commerce Messaging service failed: ${reason}`);
		this.name = 'LoginError';
	}
}

/**
 * Rule A1: exchanges the username and password for a JWT with one request. Redirects are not followed (a 307 would
 * re-post the password to wherever it points); the document's two readings of the path (with and without the
 * trailing slash) are both accepted, found with at most one extra request and then remembered.
 * API access (rule A4) is not probed here: the first real call reports it, so a login costs one request.
 */
export async function logIn(helper: IHttpRequestHelper, credentials: CommerceMessagingCredentials): Promise<string> {
	const route = ROUTES.login;
	const secrets = [credentials.password];
	let path = servedPath(credentials.baseUrl, route);
	for (let attempt = 1; ; attempt++) {
		const url = `${credentials.baseUrl}${path}`;
		const options: IHttpRequestOptions = {
			method: route.method,
			url,
			body: { username: credentials.username, password: credentials.password },
			json: true,
			disableFollowRedirect: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: DEFAULT_RETRY.timeoutMs,
		};
		let response: RawResponse;
		try {
			response = (await helper.helpers.httpRequest(options)) as RawResponse;
		} catch (error) {
			const reason = (error as { code?: string; message?: string }).code ?? (error as Error).message ?? 'network error';
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- preAuthentication has no node to give NodeApiError
			throw new LoginError(`the service could not be reached (${redactText(String(reason), secrets)})`);
		}
		const mayTryOtherReading = attempt === 1;
		if (isRedirect(response.statusCode)) {
			const plan = planRedirect({
				baseUrl: credentials.baseUrl,
				route,
				path,
				requestUrl: url,
				statusCode: response.statusCode,
				location: header(response.headers, 'location'),
				alreadyFollowed: true, // a login is never "followed": only the other reading is tried
			});
			if (plan.action === 'otherReading' && mayTryOtherReading) {
				path = plan.path;
				continue;
			}
			throw new LoginError(plan.action === 'refuse' ? `${plan.message}. ${plan.description}` : 'redirected in a loop');
		}
		const other = otherReading(route, path);
		if (response.statusCode === 404 && mayTryOtherReading && other !== undefined) {
			path = other;
			continue;
		}
		const envelope = readEnvelope(response);
		if (!envelope.ok) {
			const { message, code, httpStatus } = envelope.failure;
			const details = [code ? `code ${code}` : undefined, `HTTP ${httpStatus}`].filter(Boolean).join(', ');
			throw new LoginError(redactText(`${message} (${details})`, secrets));
		}
		const token = extractLoginToken(envelope.data) ?? extractLoginToken(response.body);
		if (!token) throw new LoginError('the answer contained no token');
		rememberServedPath(credentials.baseUrl, route, path);
		return token;
	}
}
