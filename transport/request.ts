import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE, pluginHeaders } from './auth';
import { readEnvelope, type RawResponse, type ServiceFailure } from './envelope';
import { serviceError } from './errors';
import { decideRetry, type RetrySettings } from './retryPolicy';
import { readRetrySettings } from './retrySettings';
import { buildPath, ROUTES, type Route, type RouteName } from './routes';
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

/** For the Custom API Call operation: any method and path under the Base URL, same auth and handling. */
export interface CustomRoute {
	method: Route['method'];
	path: string;
	plugin?: boolean;
}

const NETWORK_ERROR_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT']);
/** Refused connections never reached the service, so even a POST may be tried again. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN']);

/** Sends one API call and returns the JSend `data`. The only function in the package that does HTTP. */
export async function apiRequest(
	ctx: ApiContext,
	routeName: RouteName | CustomRoute,
	spec: RequestSpec = {},
): Promise<unknown> {
	const route: Route =
		typeof routeName === 'string'
			? ROUTES[routeName]
			: { ...routeName, retrySafe: ['GET', 'PUT', 'DELETE', 'HEAD'].includes(routeName.method) };
	const session = await getSession(ctx);
	const node = ctx.getNode();
	const settings = spec.retry ?? readRetrySettings(ctx, spec.itemIndex);
	assertPluginHeaders(node, session, route, spec.itemIndex);
	const url = buildPath(route.path, spec.pathParams);

	let attempt = 0;
	let waitedMs = 0;
	let reloggedIn = false;
	for (;;) {
		attempt++;
		const options: IHttpRequestOptions = {
			method: route.method,
			baseURL: session.baseUrl,
			url,
			qs: spec.qs,
			headers: { Accept: 'application/json' },
			// The raw text is parsed by readEnvelope, so an HTML page or broken JSON is reported, not thrown.
			encoding: 'text',
			json: false,
			returnFullResponse: true,
			// Status handling is ours (JSend + retries + one re-login), not n8n's generic 401 retry.
			ignoreHttpStatusErrors: true,
		};
		if (spec.formData) {
			// The multipart boundary is set by the HTTP library from the FormData itself (rule M1).
			options.body = spec.formData();
		} else if (spec.body !== undefined) {
			options.body = spec.body;
			options.headers = { ...options.headers, 'Content-Type': 'application/json' };
			options.json = true;
		}

		session.prepareToken();
		const loginExpected = !session.hasToken;
		let response: RawResponse;
		try {
			response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options, {
				credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: session.data },
			})) as RawResponse;
		} catch (error) {
			if (loginExpected && !session.hasToken) throw loginError(node, error, spec.itemIndex);
			const code = networkErrorCode(error);
			const mayRetry = code && (NOT_SENT_CODES.has(code) || (route.retrySafe && NETWORK_ERROR_CODES.has(code)));
			if (mayRetry) {
				const decision = decideRetry(settings, attempt, waitedMs, undefined);
				if (decision.retry) {
					waitedMs += decision.delayMs;
					await sleep(decision.delayMs);
					continue;
				}
			}
			throw networkError(node, error, code, route, spec.itemIndex);
		}

		const envelope = readEnvelope(response);
		if (envelope.ok) {
			if (!spec.fullEnvelope) return envelope.data;
			return { status: 'success', ...(envelope.message ? { message: envelope.message } : {}), data: envelope.data ?? null };
		}
		const failure = envelope.failure;

		if (failure.kind === 'expiredToken' && !reloggedIn) {
			// Rule A3: exactly one fresh login and one retry, never a loop.
			reloggedIn = true;
			session.dropToken();
			continue;
		}
		const retryable = failure.kind === 'rateLimit' || (failure.kind === 'unavailable' && route.retrySafe);
		if (retryable) {
			const decision = decideRetry(settings, attempt, waitedMs, failure.retryAfterMs);
			if (decision.retry) {
				waitedMs += decision.delayMs;
				await sleep(decision.delayMs);
				continue;
			}
			throw serviceError(node, failure, spec.itemIndex, { retryNote: decision.reason });
		}
		throw serviceError(node, failure, spec.itemIndex);
	}
}

/** Rule A5: say which credential fields are missing before sending a request that cannot succeed. */
function assertPluginHeaders(node: INode, session: Session, route: Route, itemIndex?: number): void {
	if (!route.plugin) return;
	const { missing } = pluginHeaders(session.credentials);
	if (missing.length) {
		throw new NodeOperationError(
			node,
			`This operation needs the plugin integration headers: fill in ${missing.join(', ')} in the Commerce Messaging credential`,
			{
				itemIndex,
				description:
					'Open the credential, switch on "Plugin Integration" and enter the plugin API key, the platform type and the shop base URI (rule: the products area requires x-api-key, x-platform-type and x-base-uri).',
			},
		);
	}
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
	return undefined;
}

function networkError(node: INode, error: unknown, code: string | undefined, route: Route, itemIndex?: number) {
	const reason = code ?? (error as Error)?.message ?? 'unknown network error';
	const unsafe = code && NETWORK_ERROR_CODES.has(code) && !route.retrySafe;
	const apiError = new NodeApiError(
		node,
		{ message: reason, networkErrorCode: code ?? 'NETWORK_ERROR' },
		{
			description: unsafe
				? 'Not retried automatically: the service may already have processed this request, and sending it again could duplicate it.'
				: 'Check the Base URL and that the service is reachable.',
			itemIndex,
		},
	);
	// Set after construction: n8n rewrites messages that mention a network error code into generic text.
	apiError.message = `The connection to the service failed (${reason})`;
	return apiError;
}

/** A login failure (from the credential's preAuthentication) is reported with the service's words only. */
function loginError(node: INode, error: unknown, itemIndex?: number) {
	const failure = error as { message?: string; description?: string; cause?: { message?: string } };
	const text = [failure.cause?.message, failure.message].find((m) => m && /Login/.test(m)) ?? failure.message;
	const failureInfo: ServiceFailure = { kind: 'service', httpStatus: 401, message: text ?? 'Login failed' };
	return new NodeApiError(
		node,
		{ message: failureInfo.message },
		{
			message: failureInfo.message,
			description: 'Check the username, password and Base URL of the Commerce Messaging credential.',
			itemIndex,
		},
	);
}
