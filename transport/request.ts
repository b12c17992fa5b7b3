import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './auth';
import { header, readEnvelope, type RawResponse } from './envelope';
import { serviceError } from './errors';
import { pause } from './pause';
import { redactError } from './redact';
import { isRedirect, planRedirect } from './redirects';
import { attemptTimeoutMs, decideRetry, type RetrySettings } from './retryPolicy';
import { readRetrySettings } from './retrySettings';
import {
	buildPath,
	otherReading,
	rememberServedPath,
	route as makeRoute,
	ROUTES,
	type Route,
	type RouteAnswer,
	type RouteName,
} from './routes';
import { getSession, type ApiContext, type Session } from './session';

export interface RequestSpec {
	pathParams?: Record<string, string | number>;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** Built anew for every attempt, so a retry never re-sends a consumed body. */
	formData?: () => FormData;
	itemIndex?: number;
	retry?: RetrySettings;
	/** Return the whole success envelope ({status, message?, data}) instead of `data` (Custom API Call). */
	fullEnvelope?: boolean;
}

/**
 * For the Custom API Call operation: any method and path under the Base URL, same auth and handling. Its answer is
 * `unknown` (the JSend `data`, or with `fullEnvelope` the whole success envelope) unless it names a `parse`.
 */
export interface CustomRoute<T = unknown> {
	method: Route['method'];
	path: string;
	plugin?: boolean;
	parse?: (data: unknown) => T;
}

const NETWORK_ERROR_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT']);
/** Refused connections never reached the service, so even a POST may be tried again. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT']);

/**
 * Sends one API call and returns the JSend `data` read by the route's parser (routes.ts). The only function in the
 * package that does HTTP.
 */
export async function apiRequest<R extends RouteName>(ctx: ApiContext, routeName: R, spec?: RequestSpec): Promise<RouteAnswer<R>>;
export async function apiRequest<T = unknown>(ctx: ApiContext, routeName: CustomRoute<T>, spec?: RequestSpec): Promise<T>;
export async function apiRequest(ctx: ApiContext, routeName: RouteName | CustomRoute, spec?: RequestSpec): Promise<unknown>;
export async function apiRequest(
	ctx: ApiContext,
	routeName: RouteName | CustomRoute,
	spec: RequestSpec = {},
): Promise<unknown> {
	const route: Route =
		typeof routeName === 'string'
			? ROUTES[routeName]
			: makeRoute(routeName.method, routeName.path, routeName.parse ?? ((data) => data), { plugin: routeName.plugin });
	const session = await getSession(ctx);
	try {
		return await send(ctx, session, route, spec);
	} catch (error) {
		// Rule A6: whatever the service or the HTTP library wrote, no secret of this session leaves in an error.
		throw redactError(error, session.secrets());
	}
}

async function send(ctx: ApiContext, session: Session, route: Route, spec: RequestSpec): Promise<unknown> {
	const node = ctx.getNode();
	const settings = spec.retry ?? readRetrySettings(ctx, spec.itemIndex);
	let path = session.pathOf(route);
	/** Set once a same-origin redirect of a read was followed: the absolute address it named. */
	let redirectedTo: string | undefined;
	let triedOtherReading = false;
	let reloggedIn = false;
	const started = Date.now();

	for (let attempt = 1; ; attempt++) {
		const elapsed = () => Date.now() - started;
		const options: IHttpRequestOptions = {
			method: route.method,
			...(redirectedTo
				? { url: redirectedTo, qs: new URL(redirectedTo).search ? undefined : spec.qs }
				: { baseURL: session.baseUrl, url: buildPath(path, spec.pathParams), qs: spec.qs }),
			headers: { Accept: 'application/json' },
			// The raw text is parsed by readEnvelope, so an HTML page or broken JSON is reported, not thrown.
			encoding: 'text',
			json: false,
			returnFullResponse: true,
			// Status handling is ours (JSend + retries + one re-login), not n8n's generic 401 retry.
			ignoreHttpStatusErrors: true,
			// Redirects are judged by planRedirect, never followed blindly with the credentials (rule A6).
			disableFollowRedirect: true,
		};
		if (spec.formData) {
			// The multipart boundary is set by the HTTP library from the FormData itself (rule M1).
			options.body = spec.formData();
		} else if (spec.body !== undefined) {
			options.body = spec.body;
			options.headers = { ...options.headers, 'Content-Type': 'application/json' };
			options.json = true;
		}

		const turn = await session.takeTurn(ctx).catch((refusal: unknown) => {
			throw loginError(node, refusal, spec.itemIndex);
		});
		// After the turn: a Retry-After that any lane waited out counts against this request's budget too.
		options.timeout = attemptTimeoutMs(settings, elapsed());
		const loginExpected = turn.logsIn;
		let tokenSent = session.token;
		let response: RawResponse;
		try {
			response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options, {
				credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: session.data },
			})) as RawResponse;
		} catch (error) {
			if (loginExpected && !session.hasToken && !isPassingLoginFailure(error)) session.loginFailed(error);
			turn.sent();
			if (loginExpected && !session.hasToken) throw loginError(node, error, spec.itemIndex);
			const code = networkErrorCode(error);
			const mayRetry = code && (NOT_SENT_CODES.has(code) || (route.retrySafe && NETWORK_ERROR_CODES.has(code)));
			let retryNote: string | undefined;
			if (mayRetry) {
				const decision = decideRetry(settings, attempt, elapsed(), undefined);
				if (decision.retry) {
					await pause(ctx, decision.delayMs);
					continue;
				}
				retryNote = decision.reason;
			}
			throw networkError(node, error, code, route, { itemIndex: spec.itemIndex, settings, retryNote });
		}
		if (loginExpected) {
			// The request logged in on its way: the token it carried is the one it just received.
			tokenSent = session.token;
			session.tokenReceived();
		}
		turn.sent();

		if (isRedirect(response.statusCode)) {
			const plan = planRedirect({
				baseUrl: session.baseUrl,
				route,
				path,
				requestUrl: redirectedTo ?? `${session.baseUrl}${buildPath(path, spec.pathParams)}`,
				statusCode: response.statusCode,
				location: header(response.headers, 'location'),
				alreadyFollowed: redirectedTo !== undefined || triedOtherReading,
			});
			if (plan.action === 'otherReading' && !triedOtherReading) {
				triedOtherReading = true;
				path = plan.path;
				attempt--;
				continue;
			}
			if (plan.action === 'follow') {
				redirectedTo = plan.url;
				attempt--;
				continue;
			}
			const refusal = plan.action === 'refuse' ? plan : { message: 'The service redirected in a loop', description: '' };
			throw new NodeApiError(
				node,
				{ message: refusal.message, httpCode: String(response.statusCode) },
				{ message: refusal.message, description: refusal.description, httpCode: String(response.statusCode), itemIndex: spec.itemIndex },
			);
		}
		const other = otherReading(route, path);
		if (response.statusCode === 404 && other !== undefined && !triedOtherReading && !redirectedTo) {
			// The document's other reading of this path (its table against its trailing-slash rule).
			triedOtherReading = true;
			path = other;
			attempt--;
			continue;
		}

		const envelope = readEnvelope(response);
		if (envelope.ok) {
			session.countAccepted();
			if (triedOtherReading) rememberServedPath(session.baseUrl, route, path);
			if (!spec.fullEnvelope) return route.parse(envelope.data);
			return route.parse({ status: 'success', ...(envelope.message ? { message: envelope.message } : {}), data: envelope.data ?? null });
		}
		const failure = envelope.failure;

		if (failure.kind === 'tokenRefused') {
			// Rule A3: whatever the reason (expired, revoked, rotated key, no body), one fresh login and one retry;
			// a refusal right after that login is an error, never a loop.
			if (!reloggedIn) {
				reloggedIn = true;
				session.dropToken(tokenSent);
				attempt--;
				continue;
			}
			throw serviceError(node, failure, spec.itemIndex);
		}
		if (failure.kind === 'pluginAuth') {
			throw serviceError(node, failure, spec.itemIndex, { missingPluginFields: pluginFieldsMissing(session) });
		}
		const retryable = failure.kind === 'rateLimit' || (failure.kind === 'unavailable' && route.retrySafe);
		if (retryable) {
			const decision = decideRetry(settings, attempt, elapsed(), failure.retryAfterMs);
			if (decision.retry) {
				// A Retry-After holds every lane of the run (takeTurn waits for it); a plain backoff only this one.
				if (failure.retryAfterMs !== undefined) session.holdAllUntil(Date.now() + decision.delayMs);
				else await pause(ctx, decision.delayMs);
				continue;
			}
			throw serviceError(node, failure, spec.itemIndex, { retryNote: decision.reason });
		}
		throw serviceError(node, failure, spec.itemIndex);
	}
}

function pluginFieldsMissing(session: Session): string[] {
	const { credentials } = session;
	if (!credentials.pluginIntegration) return ['Plugin Integration (switch it on)', 'Plugin API Key', 'Platform Type', 'Shop Base URI'];
	return [
		['Plugin API Key', credentials.pluginApiKey],
		['Platform Type', credentials.pluginPlatformType],
		['Shop Base URI', credentials.pluginBaseUri],
	]
		.filter(([, value]) => !value.trim())
		.map(([label]) => label);
}

function networkErrorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current = error as { code?: unknown; cause?: unknown } | undefined;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		if (typeof current.code === 'string' && /^E[A-Z_]+$/.test(current.code)) return current.code;
		current = current.cause as typeof current;
	}
	const message = (error as Error)?.message ?? '';
	if (/socket hang up/i.test(message)) return 'ECONNRESET';
	if (/timeout of \d+ms exceeded|timed out/i.test(message)) return 'ETIMEDOUT';
	return undefined;
}

function networkError(
	node: INode,
	error: unknown,
	code: string | undefined,
	route: Route,
	context: { itemIndex?: number; settings: RetrySettings; retryNote?: string },
) {
	const reason = code ?? (error as Error)?.message ?? 'unknown network error';
	const timedOut = code !== undefined && TIMEOUT_CODES.has(code);
	const unsafe = code && NETWORK_ERROR_CODES.has(code) && !route.retrySafe;
	const retried = context.retryNote ? ` It was retried with backoff and ${context.retryNote}.` : '';
	const apiError = new NodeApiError(
		node,
		{ message: reason, networkErrorCode: code ?? 'NETWORK_ERROR' },
		{
			description: unsafe
				? 'Not retried automatically: the service may already have processed this request, and sending it again could duplicate it.'
				: timedOut
					? `Each attempt may take up to ${Math.round(context.settings.timeoutMs / 1000)} s (Request Options > Timeout).${retried}`
					: `Check the Base URL and that the service is reachable.${retried}`,
			itemIndex: context.itemIndex,
		},
	);
	// Set after construction: n8n rewrites messages that mention a network error code into generic text.
	apiError.message = timedOut
		? `The service did not answer in time: the request timed out after ${Math.round(context.settings.timeoutMs / 1000)} s (${reason})`
		: `The connection to the service failed (${reason})`;
	return apiError;
}

/**
 * A login that failed for a reason that may pass (the service unreachable, busy or rate-limiting): the next item
 * may try again. Any other failure (wrong password, redirect, no token) is the run's answer for every item.
 */
function isPassingLoginFailure(error: unknown): boolean {
	const text = loginFailureText(error);
	return /could not be reached|HTTP (5\d\d|429)\)/.test(text);
}

function loginFailureText(error: unknown): string {
	const failure = error as { message?: string; cause?: { message?: string } };
	return [failure.cause?.message, failure.message].find((m) => m && /Login/.test(m)) ?? failure.message ?? 'Login failed';
}

/** A login failure (from the credential's preAuthentication) is reported with the service's words only. */
function loginError(node: INode, error: unknown, itemIndex?: number) {
	const text = loginFailureText(error);
	return new NodeApiError(
		node,
		{ message: text },
		{
			message: text,
			description: 'Check the username, password and Base URL of the Commerce Messaging credential.',
			itemIndex,
		},
	);
}
