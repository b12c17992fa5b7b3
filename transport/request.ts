import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Address, assertPlainPath, RequestRefused } from './address';
import { CREDENTIAL_TYPE } from './auth';
import { header, readEnvelope } from './envelope';
import { formatMegabytes, redirectRefusedError, serviceError, type RequestHistory, type ServiceFailure } from './errors';
import { Deadline, exchange, type Exchange } from './http';
import { decideRetry, failedAnswer, failedExchange, mayRetry, type Failed, type FailureContext } from './retry';
import { pause } from './pacing';
import { route as makeRoute, ROUTES, type Route, type RouteAnswer, type RouteName } from './routes';
import { getSession, type ApiContext, type RetryKind, type Session } from './session';
import type { RetrySettings } from './settings';

/**
 * One API call, as a short pipeline: where it goes (address.ts), in its turn with a usable token (session.ts), one
 * bounded exchange (http.ts), what the answer means (`judge`; a failure and whether to try again: retry.ts). Every
 * request of the nodes goes through here; the only other request the package sends is the login (login.ts), which
 * n8n runs on the way when the token is missing.
 */

/**
 * `formData`: built anew for every attempt (a retry never re-sends a consumed body); `retry`: the run's unless given;
 * `fullEnvelope`: answer the whole success envelope, not `data`; `answerSize`: told the bytes of the answer's text.
 */
export interface RequestSpec {
	pathParams?: Record<string, string | number>;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	formData?: () => FormData;
	itemIndex?: number;
	retry?: RetrySettings;
	fullEnvelope?: boolean;
	answerSize?: (bytes: number) => void;
}

/** For the Custom API Call operation: any method and path under the Base URL, same handling; `data` as is unless it names a `parse`. */
export interface CustomRoute<T = unknown> {
	method: Route['method'];
	path: string;
	plugin?: boolean;
	parse?: (data: unknown) => T;
}

/** The largest answer read (far above a list page of the largest size) and the largest JSON body sent. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Sends one API call and returns the JSend `data` read by the route's parser (routes.ts). */
export async function apiRequest<R extends RouteName>(ctx: ApiContext, route: R, spec?: RequestSpec): Promise<RouteAnswer<R>>;
export async function apiRequest<T = unknown>(ctx: ApiContext, route: CustomRoute<T>, spec?: RequestSpec): Promise<T>;
export async function apiRequest(ctx: ApiContext, route: RouteName | CustomRoute, spec?: RequestSpec): Promise<unknown>;
export async function apiRequest(ctx: ApiContext, route: RouteName | CustomRoute, spec: RequestSpec = {}): Promise<unknown> {
	const session = await getSession(ctx);
	try {
		const resolved = typeof route === 'string' ? ROUTES[route] : customRoute(route);
		const done = await sendWithRetries(ctx, session, resolved, typeof route === 'string' ? route : 'custom', spec);
		if (spec.answerSize) spec.answerSize(Buffer.byteLength(done.text));
		const envelope = spec.fullEnvelope ? { status: 'success', ...(done.message ? { message: done.message } : {}), data: done.data ?? null } : done.data;
		// Rule A6 for outputs: an answer that echoes a secret of this session (in any form) has it redacted.
		return resolved.parse(session.secrets.redactAnswer(envelope, done.text));
	} catch (error) {
		const refused = error instanceof RequestRefused;
		const thrown = refused ? new NodeOperationError(ctx.getNode(), error.message, { description: error.description, itemIndex: spec.itemIndex }) : error;
		// Rule A6: whatever the service or the HTTP library wrote, no secret of this session leaves in an error.
		throw session.secrets.redactError(thrown);
	}
}

function customRoute(custom: CustomRoute): Route {
	assertPlainPath(custom.path);
	return makeRoute(custom.method, custom.path, custom.parse ?? ((data) => data), { plugin: custom.plugin });
}

/** The retrying loop: attempts until one is done, one fails for good, or the budget is used up. */
async function sendWithRetries(
	ctx: ApiContext,
	session: Session,
	route: Route,
	routeName: string,
	spec: RequestSpec,
): Promise<Extract<Outcome, { kind: 'done' }>> {
	const settings = spec.retry ?? session.settings.retry;
	const address = new Address(session.baseUrl, route, spec.pathParams, spec.qs);
	const body = serialisedBody(spec.body);
	const started = Date.now();
	const history: Progress = { attempts: 0, backoffMs: 0, rateLimitWaitMs: 0, failures: 0, retriedAfterError: false };
	let reloggedIn = false;
	for (;;) {
		const attemptStarted = Date.now();
		const turn = await session.inTurn(ctx, async (logsIn) => {
			// After the turn: a Retry-After that any lane waited out counts against this request's budget too.
			const timeoutMs = attemptTimeoutMs(settings, Date.now() - started);
			return await attempt(ctx, session, route, address, { ...spec, body }, timeoutMs, logsIn);
		});
		history.attempts++;
		history.rateLimitWaitMs += turn.rateLimitWaitMs;
		const outcome = judge(turn.exchange, address, { node: session.node, route, session, itemIndex: spec.itemIndex, history });
		const status = turn.exchange.kind === 'answer' ? turn.exchange.status : turn.exchange.kind;
		// One line per attempt in n8n's log at debug level: the route's name, never its address, body or headers.
		const line = { node: session.node.name, method: route.method, route: routeName, status, attempt: history.attempts, durationMs: Date.now() - attemptStarted, itemIndex: spec.itemIndex };
		ctx.logger?.debug(`Commerce Messaging: ${line.method} ${line.route} -> ${line.status}`, line);
		if (outcome.kind === 'done') {
			session.pacer.countAccepted();
			if (history.retriedAfterError) session.activity.retriedThenDone++;
			address.served();
			return outcome;
		}
		if (outcome.kind === 'tokenRefused') {
			if (reloggedIn) throw serviceError(session.node, outcome.failure, spec.itemIndex);
			// Rule A3: whatever the reason, one fresh login and one retry; a refusal right after it is an error.
			reloggedIn = true;
			session.activity.reLogins++;
			session.tokens.refused(turn.tokenSent);
		} else if (outcome.kind === 'failed') {
			await waitToRetry(ctx, session, settings, route, outcome, turn.exchange, history, Date.now() - started);
		}
	}
}

/** A request's history (sent how often, waited how long) and what its retries are decided on. */
type Progress = RequestHistory & { failures: number; retriedAfterError: boolean };

type Outcome =
	| { kind: 'done'; data: unknown; message?: string; text: string }
	/** Sent again at another address (a followed redirect, the other reading of a path): not a failed attempt. */
	| { kind: 'moved' }
	/** Rule A3: the service refused the token itself; one fresh login and one retry follow. */
	| { kind: 'tokenRefused'; failure: ServiceFailure }
	| Failed;

/** What one exchange means for the request (rules E1, E2): the JSend envelope decides with the HTTP status. */
function judge(exchange: Exchange, address: Address, context: FailureContext): Outcome {
	if (exchange.kind !== 'answer') return failedExchange(exchange, context);
	const { status, headers, text } = exchange;
	if (status >= 300 && status < 400 && status !== 304) {
		const refusal = address.redirected(status, header(headers, 'location'));
		return refusal ? { kind: 'failed', error: () => redirectRefusedError(context.node, refusal, status, context.itemIndex) } : { kind: 'moved' };
	}
	if (status === 404 && address.notFound()) return { kind: 'moved' };
	const envelope = readEnvelope({ statusCode: status, headers, body: text });
	if (envelope.ok) return { kind: 'done', data: envelope.data, message: envelope.message, text };
	return envelope.failure.kind === 'tokenRefused' ? { kind: 'tokenRefused', failure: envelope.failure } : failedAnswer(envelope.failure, context);
}

/** After a failed attempt: throws when it is not tried again, else waits (a Retry-After holds every lane of the run). */
async function waitToRetry(
	ctx: ApiContext,
	session: Session,
	settings: RetrySettings,
	route: Route,
	outcome: Failed,
	exchange: Exchange,
	history: Progress,
	elapsedMs: number,
): Promise<void> {
	if (!outcome.retry || !mayRetry(outcome.retry, route.retrySafe)) throw outcome.error();
	// Max Attempts and the backoff count failed attempts only: a re-login or a followed redirect is not one.
	history.failures++;
	const decision = decideRetry(settings, history.failures, elapsedMs, outcome.retryAfterMs);
	if (!decision.retry) throw outcome.error(decision.reason);
	const kind: RetryKind =
		outcome.retry === 'rateLimited' ? 'rate limit' : outcome.retry === 'serviceFailed' ? 'service error' : exchange.kind === 'network' && exchange.timedOut ? 'timeout' : 'connection';
	const { activity } = session;
	activity.retries.set(kind, (activity.retries.get(kind) ?? 0) + 1);
	if (kind !== 'rate limit' && !history.retriedAfterError) {
		history.retriedAfterError = true;
		activity.retriedRequests++;
	}
	if (outcome.retryAfterMs !== undefined) return session.pacer.holdAllUntil(Date.now() + decision.delayMs);
	await pause(ctx, decision.delayMs);
	history.backoffMs += decision.delayMs;
}

/** One attempt. A login n8n's helper runs on the way has a Timeout of its own; the request's starts when it is done. */
async function attempt(
	ctx: ApiContext,
	session: Session,
	route: Route,
	address: Address,
	spec: Omit<RequestSpec, 'body'> & { body?: string },
	timeoutMs: number,
	logsIn: boolean,
): Promise<Exchange> {
	const { url, qs } = address.target();
	const deadline = new Deadline(logsIn ? session.settings.retry.timeoutMs + timeoutMs : timeoutMs);
	if (logsIn) session.whenLoggedIn(() => deadline.restart(timeoutMs));
	return await exchange(
		async (options, signal) =>
			await ctx.helpers.httpRequestWithAuthentication.call(withCancelSignal(ctx, signal), CREDENTIAL_TYPE, options, {
				credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: session.data },
			}),
		{ method: route.method, url, qs, body: spec.body, formData: spec.formData },
		{ timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES, cancel: session.cancel, deadline },
	);
}

/** n8n's helper reads the cancel signal from its context: this one hands it the attempt's (the execution's included). */
function withCancelSignal(ctx: ApiContext, signal: AbortSignal): IExecuteFunctions {
	return Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }) as IExecuteFunctions;
}

/** The JSON body as it is sent, written once (the size check reads the same text), refused when too large. */
function serialisedBody(body: RequestSpec['body']): string | undefined {
	if (body === undefined) return undefined;
	const text = JSON.stringify(body);
	const bytes = Buffer.byteLength(text);
	if (bytes > MAX_BODY_BYTES) {
		throw new RequestRefused(
			`The request body is ${(bytes / (1024 * 1024)).toFixed(1)} MB, over the limit of ${formatMegabytes(MAX_BODY_BYTES)}`,
			'Services refuse bodies this large. Send the data in several smaller requests.',
		);
	}
	return text;
}

/** How long the next attempt may take: its timeout, cut to the budget left (at least a second); a budget of 0 means no retries. */
export function attemptTimeoutMs(settings: RetrySettings, elapsedMs: number): number {
	if (settings.maxTotalWaitMs === 0) return settings.timeoutMs;
	return Math.max(1_000, Math.min(settings.timeoutMs, settings.maxTotalWaitMs - elapsedMs));
}
