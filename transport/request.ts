import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Address, assertPlainPath, RequestRefused } from './address';
import { CREDENTIAL_TYPE } from './auth';
import { serviceError } from './errors';
import { exchange, type Exchange } from './http';
import { attemptTimeoutMs, decideRetry, judge, mayRetry } from './outcome';
import { pause } from './pause';
import { route as makeRoute, ROUTES, type Route, type RouteAnswer, type RouteName } from './routes';
import { getSession, type ApiContext, type Session } from './session';
import type { RetrySettings } from './settings';

/**
 * One API call, as a short pipeline: where it goes (address.ts), in its turn with a usable token (session.ts), one
 * bounded exchange (http.ts), what the answer means and whether to try again (outcome.ts). The only code of the
 * package that sends a request to the service.
 */

export interface RequestSpec {
	pathParams?: Record<string, string | number>;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** Built anew for every attempt, so a retry never re-sends a consumed body. */
	formData?: () => FormData;
	itemIndex?: number;
	/** The run's retry settings (startRun) unless given. */
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

/** The largest answer read: a list page of the largest size is far below it; more is not an answer for this node. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** The largest JSON body sent. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Sends one API call and returns the JSend `data` read by the route's parser (routes.ts). */
export async function apiRequest<R extends RouteName>(ctx: ApiContext, routeName: R, spec?: RequestSpec): Promise<RouteAnswer<R>>;
export async function apiRequest<T = unknown>(ctx: ApiContext, routeName: CustomRoute<T>, spec?: RequestSpec): Promise<T>;
export async function apiRequest(ctx: ApiContext, routeName: RouteName | CustomRoute, spec?: RequestSpec): Promise<unknown>;
export async function apiRequest(ctx: ApiContext, target: RouteName | CustomRoute, spec: RequestSpec = {}): Promise<unknown> {
	const session = await getSession(ctx);
	try {
		const route = resolveRoute(target);
		const answer = await send(ctx, session, route, spec);
		const data = session.secrets.redactAnswer(answer.data, answer.text);
		if (!spec.fullEnvelope) return route.parse(data);
		return route.parse({ status: 'success', ...(answer.message ? { message: answer.message } : {}), data: data ?? null });
	} catch (error) {
		const refused = error instanceof RequestRefused;
		const thrown = refused ? new NodeOperationError(ctx.getNode(), error.message, { description: error.description, itemIndex: spec.itemIndex }) : error;
		// Rule A6: whatever the service or the HTTP library wrote, no secret of this session leaves in an error.
		throw session.secrets.redactError(thrown);
	}
}

function resolveRoute(target: RouteName | CustomRoute): Route {
	if (typeof target === 'string') return ROUTES[target];
	assertPlainPath(target.path);
	return makeRoute(target.method, target.path, target.parse ?? ((data) => data), { plugin: target.plugin });
}

async function send(ctx: ApiContext, session: Session, route: Route, spec: RequestSpec) {
	const settings = spec.retry ?? session.settings.retry;
	const address = new Address(session.baseUrl, route, spec.pathParams, spec.qs);
	assertBodySize(spec.body);
	const started = Date.now();
	let failures = 0;
	let reloggedIn = false;
	for (;;) {
		let timeoutMs = settings.timeoutMs;
		const { exchange: answer, tokenSent } = await session.inTurn(ctx, async (logsIn) => {
			// After the turn: a Retry-After that any lane waited out counts against this request's budget too.
			timeoutMs = attemptTimeoutMs(settings, Date.now() - started);
			return await sendOnce(ctx, session, route, address, spec, logsIn ? 2 * timeoutMs : timeoutMs);
		});
		const outcome = judge(answer, { node: ctx.getNode(), route, address, session, itemIndex: spec.itemIndex, timeoutMs });
		switch (outcome.kind) {
			case 'done':
				session.pacer.countAccepted();
				address.served();
				return outcome;
			case 'moved':
				continue;
			case 'tokenRefused':
				if (reloggedIn) throw serviceError(ctx.getNode(), outcome.failure, spec.itemIndex);
				// Rule A3: whatever the reason, one fresh login and one retry; a refusal right after it is an error.
				reloggedIn = true;
				session.tokens.refused(tokenSent);
				continue;
			case 'failed': {
				if (!outcome.retry || !mayRetry(outcome.retry, route.retrySafe)) throw outcome.error();
				failures++;
				const decision = decideRetry(settings, failures, Date.now() - started, outcome.retryAfterMs);
				if (!decision.retry) throw outcome.error(decision.reason);
				// A Retry-After holds every lane of the run (the pacer waits for it); a plain backoff only this one.
				if (outcome.retryAfterMs !== undefined) session.pacer.holdAllUntil(Date.now() + decision.delayMs);
				else await pause(ctx, decision.delayMs);
			}
		}
	}
}

/**
 * One attempt. The login n8n's helper may run on the way has a deadline of its own (the same Timeout), so an attempt
 * that logs in first is given twice the time.
 */
async function sendOnce(
	ctx: ApiContext,
	session: Session,
	route: Route,
	address: Address,
	spec: RequestSpec,
	timeoutMs: number,
): Promise<Exchange> {
	const { url, qs } = address.target();
	return await exchange(
		async (options, signal) =>
			await ctx.helpers.httpRequestWithAuthentication.call(withCancelSignal(ctx, signal), CREDENTIAL_TYPE, options, {
				credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: session.data },
			}),
		{ method: route.method, url, qs, body: spec.body, formData: spec.formData },
		{ timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES, cancel: session.cancel },
	);
}

/**
 * n8n's helper gives the HTTP library the execution's cancel signal, read from the context it is called on; this
 * context hands it the attempt's signal instead (which includes the execution's), so the deadline ends the request.
 */
function withCancelSignal(ctx: ApiContext, signal: AbortSignal): IExecuteFunctions {
	return Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }) as IExecuteFunctions;
}

function assertBodySize(body: RequestSpec['body']): void {
	if (body === undefined) return;
	const bytes = Buffer.byteLength(JSON.stringify(body));
	if (bytes > MAX_BODY_BYTES) {
		throw new RequestRefused(
			`The request body is ${(bytes / (1024 * 1024)).toFixed(1)} MB, over the limit of ${MAX_BODY_BYTES / (1024 * 1024)} MB`,
			'Services refuse bodies this large. Send the data in several smaller requests.',
		);
	}
}
