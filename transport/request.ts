import {
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type ILoadOptionsFunctions,
	type INode,
	type IPollFunctions,
	NodeOperationError,
	sleep,
} from 'n8n-workflow';

import { Address, RequestRefused } from './address';
import { readEnvelope } from './answers';
import {
	assertCredentialFieldsUsable,
	CREDENTIAL_TYPE,
	isSealedFor,
	LOGIN_LIMITS,
	missingPluginFields,
	readCredentials,
	sealFor,
	tokenNeedsRenewal,
} from './auth';
import { decideRetry, LoginFailure, type RetryKind } from './failures';
import { formatMegabytes } from './format';
import { exchange, type Exchange } from './http';
import { exchangeError, networkError, plainApiError, serviceError } from './messages';
import { SecretSet } from './redact';
import { isRetrySafe, ROUTES, type Route, type RouteAnswer, type RouteName } from './routes';
import {
	DEFAULT_RUN_SETTINGS,
	LOGIN_CHECK_MS,
	MAX_ANSWER_BYTES,
	MAX_BODY_BYTES,
	MAX_TABLE_ENTRIES,
	MIN_ACCEPTED_TO_PACE,
	PACE_GAIN,
	type RetrySettings,
	type RunSettings,
} from './settings';

/**
 * One API call, read top to bottom in `sendAndRead`: the run's session (its credential read once, its token, its
 * pacing), the address (address.ts), then attempts until one is answered or one fails for good: wait until the run
 * may send and the token is usable (n8n's helper logs in on the way when the token field is empty: auth.ts), one
 * bounded exchange (http.ts), what the answer means (answers.ts, failures.ts) and whether to try again. Every request
 * of the nodes goes through here; the only other request the package sends is the login.
 */

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions;

/** `formData`: built anew for every attempt; `fullEnvelope`: the whole answer as it came, not `data`. */
export interface RequestSpec {
	pathParams?: Record<string, string | number>;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	formData?: () => FormData;
	itemIndex?: number;
	fullEnvelope?: boolean;
}

/** A call to any method and path under the Base URL, with the same handling; `data` as it is unless `parse` reads it. */
export type CustomRoute<T = unknown> = Pick<Route<T>, 'method' | 'path'> &
	Partial<Pick<Route<T>, 'parse'>>;

/**
 * What a run did on the user's behalf, for the node's hints: counts and times only. `retriedRequests`: requests
 * retried after an error other than a rate limit, `retriedThenDone` of them answered in the end; lists the Limit cut
 * short (`listsStoppedAtLimit`: without a total, so they may have ended there); `rateLimitHeldMs`: wall time the whole
 * run was held for a Retry-After.
 */
const newActivity = () => ({
	reLogins: 0,
	retries: {} as Partial<Record<RetryKind, number>>,
	retriedRequests: 0,
	retriedThenDone: 0,
	listsCutAtLimit: 0,
	listsStoppedAtLimit: 0,
	rateLimitHeldMs: 0,
	pagesRead: 0,
});

/** One run of a node (an execution of the action node, a poll, a picker's load), keyed by its n8n context. */
interface Run {
	settings: RunSettings;
	activity: ReturnType<typeof newActivity>;
	session?: Promise<Session>;
}

const runs = new WeakMap<object, Run>();

/** Starts a run with its settings: the router and the trigger's poll. A context that did not start one (a picker) reads one page at a time. */
export function startRun(ctx: object, settings: RunSettings) {
	const run: Run = { settings, activity: newActivity() };
	runs.set(ctx, run);
	return run;
}

const runOf = (ctx: object) =>
	runs.get(ctx) ?? startRun(ctx, { ...DEFAULT_RUN_SETTINGS, concurrency: 1 });

export const settingsOf = (ctx: object) => runOf(ctx).settings;
export const activityOf = (ctx: object) => runOf(ctx).activity;

type Cancellable = Pick<IExecuteFunctions, 'getNode'> & {
	getExecutionCancelSignal?: () => AbortSignal | undefined;
};

/** Waits `ms` in quarter-second slices, so a cancelled execution stops waiting at once. */
export async function pause(ctx: Cancellable, ms: number) {
	for (
		const end = Date.now() + ms;
		Date.now() < end;
		await sleep(Math.max(0, Math.min(250, end - Date.now())))
	) {
		if (ctx.getExecutionCancelSignal?.()?.aborted)
			throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled while waiting');
	}
}

/**
 * This process's newest token per account, and the login under way for it: executions running side by side, whose
 * copies of the credential all hold the ageing token, renew it once between them (queue mode: one login per worker
 * per token lifetime). Bound: MAX_TABLE_ENTRIES accounts.
 */
const accounts = new Map<string, { token: string; receivedAt: number; renewal?: symbol }>();

/**
 * Rules E5 and L1 across the requests a run has in flight: after a Retry-After none is sent until it has passed, and
 * from then on requests start one per interval in turn, at the rate the service sustained so far, so that when its
 * bucket runs dry one request is refused, not every one in flight; each request it accepts shortens the interval a
 * little (`pace`), so a rate measured low is not kept for good.
 */
export class RunPacer {
	/** When the last Retry-After ends; 0: none came, and requests are not paced. */
	private pausedUntil = 0;
	private nextStartAt = 0;
	private accepted = 0;
	private firstStartAt = 0;
	/**
	 * The share of the measured interval the paced requests keep: it shrinks with each request the service accepts and
	 * is whole again at the next Retry-After, so a rate measured low (a Retry-After longer than the service needed)
	 * is not kept for the rest of the run.
	 */
	private pace = 1;

	constructor(private readonly activity: { rateLimitHeldMs: number }) {}

	/** Waits until this request may be sent; answers how long it waited for the service's rate limit. */
	async waitToSend(ctx: Cancellable) {
		const started = Date.now();
		for (let spaced = false; ; ) {
			if (this.pausedUntil > Date.now()) {
				await pause(ctx, this.pausedUntil - Date.now());
			} else if (this.pausedUntil && !spaced) {
				spaced = true;
				const startAt = Math.max(Date.now(), this.nextStartAt);
				this.nextStartAt =
					startAt +
					(this.accepted < MIN_ACCEPTED_TO_PACE
						? 0
						: ((Date.now() - this.firstStartAt) / this.accepted) * this.pace);
				await pause(ctx, startAt - Date.now());
			} else {
				this.firstStartAt ||= Date.now();
				return Date.now() - started;
			}
		}
	}

	/** The service asked every request of the run to hold back until `at` (a Retry-After). */
	holdAllUntil(at: number) {
		this.activity.rateLimitHeldMs += Math.max(0, at - Math.max(Date.now(), this.pausedUntil));
		this.pausedUntil = Math.max(this.pausedUntil, at);
		this.pace = 1;
	}

	countAccepted() {
		this.accepted++;
		this.pace *= PACE_GAIN;
	}
}

/**
 * A run's view of the service: its credential data (a copy, read once and its fields checked: n8n logs in through it
 * and writes the new token into it), the secrets to redact, the pacing, and its token: present, sealed for the account
 * the credential names now, and not near its end before each request, renewed once at a time.
 */
class Session {
	readonly credentials;
	readonly secrets = new SecretSet();
	readonly pacer;
	readonly account;
	/**
	 * This run's login under way, by identity (waiters poll, none awaits it): its other requests wait until it has
	 * stored a usable token; `afterLogin` ends it.
	 */
	private login?: symbol;
	/** A login of this run that failed for good: every later request fails with it. */
	private loginRefusal?: LoginFailure;
	/** The token this run gave up on (ageing, refused, another account's): only a newer one is taken from another run. */
	private replacing?: string;
	/**
	 * When a refused token was sent: another run's token is taken only if it arrived later. One it held before may be
	 * refused just the same (a rotated signing key, revoked tokens, another credential of the account).
	 */
	private refusedAt = -Infinity;

	constructor(
		readonly node: INode,
		readonly data: ICredentialDataDecryptedObject,
		readonly run: Run,
		readonly cancel?: AbortSignal,
	) {
		this.credentials = readCredentials(data);
		this.pacer = new RunPacer(run.activity);
		// The account's key in `accounts`: its seal without salt.
		this.account = sealFor(this.credentials, '');
		// Rule A6: the values that must never appear in an output, an error or a log.
		this.secrets.add(
			this.credentials.password,
			this.credentials.pluginApiKey,
			this.credentials.sessionToken,
		);
		Object.defineProperty(data, LOGIN_LIMITS, {
			value: {
				timeoutMs: run.settings.retry.timeoutMs,
				cancel,
				timeoutName: run.settings.names.timeout,
			},
		});
		try {
			assertCredentialFieldsUsable(this.credentials);
		} catch (error) {
			throw new NodeOperationError(node, (error as Error).message, {
				description: 'Fix this field in the Commerce Messaging credential.',
			});
		}
	}

	get token() {
		return typeof this.data.sessionToken === 'string' ? this.data.sessionToken : '';
	}

	/** Present, sealed for the account the credential names now, and not near its end. */
	private readonly tokenUsable = () =>
		isSealedFor(this.data, this.credentials) && !tokenNeedsRenewal(this.data);

	/**
	 * Waits until the request may be sent with a usable token: another request's login, another execution's renewal
	 * (whose token it takes); the waits for the service's rate limit are added to `notes`. Answers whether the request
	 * logs in on its way; a login of this run that failed for good answers all.
	 */
	async ready(ctx: ApiContext, notes: { rateLimitWaitMs: number }) {
		while (!this.loginRefusal) {
			notes.rateLimitWaitMs += await this.pacer.waitToSend(ctx);
			const shared = accounts.get(this.account);
			const usable = this.tokenUsable();
			// This run's login is over for its other requests once n8n has stored a usable token, not when the request
			// that logged in has its answer, which may take that request's whole Timeout.
			const renewal = this.login && usable ? undefined : (this.login ?? shared?.renewal);
			if (renewal) {
				// Under way while it is this run's login (afterLogin ends it) or the account's renewal (another run's).
				while (
					renewal === this.login
						? !this.tokenUsable()
						: renewal === accounts.get(this.account)?.renewal
				)
					await sleep(LOGIN_CHECK_MS);
				continue;
			}
			if (usable) {
				// A token this run's login stored is a secret of the run from its first request on.
				this.secrets.add(this.token);
				return {};
			}
			// A credential without a token logs in itself, so that n8n stores the token it gets.
			this.replacing = this.token || this.replacing;
			if (
				this.replacing !== undefined &&
				shared &&
				shared.token !== this.replacing &&
				shared.receivedAt > this.refusedAt &&
				!tokenNeedsRenewal({ sessionToken: shared.token, loginReceivedAt: shared.receivedAt })
			) {
				Object.assign(this.data, {
					sessionToken: shared.token,
					loginReceivedAt: shared.receivedAt,
					sessionTokenSeal: sealFor(this.credentials),
				});
				this.secrets.add(shared.token);
			} else {
				this.login = Symbol('login');
				this.data.sessionToken = '';
				accounts.delete(this.account);
				accounts.set(this.account, {
					token: '',
					receivedAt: 0,
					...shared,
					renewal: this.login,
				});
				if (accounts.size > MAX_TABLE_ENTRIES) accounts.delete(accounts.keys().next().value!);
				// n8n stores the whole object a login is handed: a renewal with this run's copy would undo an edit of the
				// credential saved meanwhile. The run stops instead, and the next one uses the edit.
				if (this.replacing !== undefined && (await this.editedMeanwhile(ctx))) {
					this.afterLogin({
						kind: 'loginFailed',
						failure: new LoginFailure(
							'the credential was edited while this run was under way; logging in again with the fields it started with would undo the edit. Run the workflow again to use the edited credential',
						),
					});
					break;
				}
				return { logsIn: true };
			}
		}
		return { failure: this.loginRefusal };
	}

	/** Whether the stored credential's fields (the token aside) differ from those this run started with. */
	private async editedMeanwhile(ctx: ApiContext) {
		try {
			// The stored fields with this run's token, against this run's.
			return (
				JSON.stringify({
					...readCredentials(await ctx.getCredentials(CREDENTIAL_TYPE)),
					sessionToken: this.credentials.sessionToken,
				}) !== JSON.stringify(this.credentials)
			);
		} catch {
			// Unreadable now: the run goes on with its copy, as it would have.
			return false;
		}
	}

	/** After a request that logged in on its way: its new token, or the failure that answers the rest of the run. */
	afterLogin(outcome: Exchange) {
		if (outcome.kind === 'loginFailed' && !outcome.failure.retry)
			this.loginRefusal = outcome.failure;
		accounts.set(
			this.account,
			this.token
				? { token: this.token, receivedAt: Number(this.data.loginReceivedAt) || Date.now() }
				: { ...accounts.get(this.account)!, renewal: undefined },
		);
		this.secrets.add(this.token);
		this.login = undefined;
	}

	/**
	 * Rule A3: the service refused `token`, sent at `sentAt`; the next request logs in, unless another request already
	 * did.
	 */
	tokenRefused(token: string, sentAt: number) {
		this.replacing = token;
		this.refusedAt = Math.max(this.refusedAt, sentAt);
		if (this.token === token) this.data.sessionToken = '';
	}
}

/** The run's session, opened at its first request (a bad credential field fails that request, not the run). */
async function sessionOf(ctx: ApiContext) {
	const run = runOf(ctx);
	// A copy of the credential data: the token n8n writes into it must not reach other runs' objects.
	run.session ??= (async () =>
		new Session(
			ctx.getNode(),
			{ ...(await ctx.getCredentials(CREDENTIAL_TYPE)) },
			run,
			(ctx as Cancellable).getExecutionCancelSignal?.(),
		))().catch((error: unknown) => {
		// A failed open (a bad Base URL) is tried again at the next request.
		run.session = undefined;
		throw error;
	});
	return await run.session;
}

/** The credential data of the run, as its session reads it (once per run). */
export const credentialDataOf = async (ctx: ApiContext) => (await sessionOf(ctx)).data;

/** Sends one API call and returns the JSend `data` read by the route's parser (routes.ts). */
export async function apiRequest<R extends RouteName | CustomRoute>(
	ctx: ApiContext,
	route: R,
	spec: RequestSpec = {},
) {
	return (await sendAndRead(ctx, route, spec)).value as R extends RouteName
		? RouteAnswer<R>
		: R extends CustomRoute<infer T>
			? T
			: never;
}

/**
 * How long the next attempt may take: its Timeout, cut to the budget left (to a second at least, or the Timeout if it
 * is shorter); a budget of 0: no retries.
 */
export const attemptTimeoutMs = (settings: RetrySettings, elapsedMs: number) =>
	settings.maxTotalWaitMs === 0
		? settings.timeoutMs
		: Math.max(
				Math.min(1_000, settings.timeoutMs),
				Math.min(settings.timeoutMs, settings.maxTotalWaitMs - elapsedMs),
			);

/**
 * apiRequest, with the size of the answer's text in bytes (a whole-list read counts them): attempts until one is
 * answered, one fails for good, or the retry budget is used up.
 */
export async function sendAndRead(
	ctx: ApiContext,
	route: RouteName | CustomRoute,
	spec: RequestSpec,
) {
	const session = await sessionOf(ctx);
	const {
		node,
		pacer,
		run: { activity, settings },
	} = session;
	const { itemIndex } = spec;
	const [routeName, target]: [string, Route] =
		typeof route === 'string'
			? [route, ROUTES[route]]
			: ['custom', { parse: (data) => data, ...route }];
	try {
		const address = new Address(session.credentials.baseUrl, target, spec.pathParams, spec.qs);
		const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
		if (body && Buffer.byteLength(body) > MAX_BODY_BYTES) {
			throw new RequestRefused(
				`The request body is ${formatMegabytes(Buffer.byteLength(body))}, over the limit of ${formatMegabytes(MAX_BODY_BYTES)}`,
				'Services refuse bodies this large. Send the data in several smaller requests.',
			);
		}
		const started = Date.now();
		const notes = {
			attempts: 0,
			backoffMs: 0,
			rateLimitWaitMs: 0,
			gaveUp: '',
			names: settings.names,
		};
		let failures = 0;
		let reLoggedIn = false;
		let retriedAfterError = false;
		// An attempt that got no answer, or a 5xx, after the request left: the service may have applied it.
		let mayHaveApplied = false;
		for (;;) {
			// Built first: a request that logs in must reach afterLogin, so nothing between them may throw.
			const request = { method: target.method, ...address.target(), body, formData: spec.formData };
			const ready = await session.ready(ctx, notes);
			const attemptStarted = Date.now();
			// Taken before sending (another request may replace it meanwhile), or after a login on the way: the token it got.
			let tokenSent = session.token;
			const outcome: Exchange = ready.failure
				? { kind: 'loginFailed', failure: ready.failure }
				: await exchange(
						(options) =>
							ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options, {
								credentialsDecrypted: {
									id: '',
									name: '',
									type: CREDENTIAL_TYPE,
									data: session.data,
								},
							}),
						request,
						{
							timeoutMs: attemptTimeoutMs(settings.retry, attemptStarted - started),
							maxAnswerBytes: MAX_ANSWER_BYTES,
							cancel: session.cancel,
							// A login on the way has a Timeout of its own; the request's counts from the token's arrival.
							startedAt: ready.logsIn
								? () =>
										Number(session.data.loginReceivedAt) >= attemptStarted
											? Number(session.data.loginReceivedAt)
											: undefined
								: undefined,
						},
					);
			if (ready.logsIn) {
				session.afterLogin(outcome);
				tokenSent = session.token;
			}
			notes.attempts++;
			// One line per attempt in n8n's log at debug level: the route's name, never its address, body or headers.
			const status = outcome.kind === 'answer' ? outcome.status : outcome.kind;
			ctx.logger?.debug(`Commerce Messaging: ${target.method} ${routeName} -> ${status}`, {
				node: node.name,
				method: target.method,
				route: routeName,
				status,
				attempt: notes.attempts,
				durationMs: Date.now() - attemptStarted,
				itemIndex,
			});

			/**
			 * Rule L1: a failed attempt is retried only when it can help, is safe (a write the service may have acted on is
			 * not), and fits the budget; Max Attempts counts failed attempts only. Here: why it is retried, and its error.
			 */
			let failure: { retry: RetryKind; retryAfterMs?: number; error: () => Error };
			if (outcome.kind === 'answer') {
				const { headers, text } = outcome;
				const rerouted = address.reroute(outcome.status, headers);
				if (rerouted === true) continue;
				if (rerouted)
					throw plainApiError(
						node,
						rerouted.message,
						rerouted.description,
						itemIndex,
						String(status),
					);
				const envelope = readEnvelope(outcome.status, headers, text, (quoted) =>
					session.secrets.redactText(quoted),
				);
				if (envelope.ok) {
					pacer.countAccepted();
					if (retriedAfterError) activity.retriedThenDone++;
					address.served();
					// Rule A6 for outputs: an answer that echoes a secret of this session, in any form, has it redacted.
					return {
						value: target.parse(
							session.secrets.redactAnswer(spec.fullEnvelope ? envelope.body : envelope.data, text),
						),
						bytes: Buffer.byteLength(text),
					};
				}
				const refused = envelope.failure;
				// Rule A3: whatever the reason, one fresh login and one retry; a refusal right after it is an error.
				if (refused.kind === 'tokenRefused' && !reLoggedIn) {
					reLoggedIn = true;
					activity.reLogins++;
					session.tokenRefused(tokenSent, attemptStarted);
					continue;
				}
				// A DELETE of the route table that an earlier attempt may have applied finds nothing now: it is done, not
				// an error (a call to any path gets the service's answer as it is). Such an attempt was retried after an error.
				if (
					refused.httpStatus === 404 &&
					mayHaveApplied &&
					target.method === 'DELETE' &&
					routeName !== 'custom'
				) {
					activity.retriedThenDone++;
					return { value: target.parse(undefined), bytes: Buffer.byteLength(text) };
				}
				// A rate limit is always tried again (the service did nothing), a 5xx only when that is safe; any other
				// refusal never (the message of a plugin-header refusal names the credential fields still empty).
				if (
					refused.kind !== 'rateLimit' &&
					(refused.kind !== 'unavailable' || !isRetrySafe(target))
				)
					throw serviceError(node, refused, itemIndex, {
						missingPluginFields: missingPluginFields(session.credentials),
						maybeApplied: refused.kind === 'unavailable',
					});
				mayHaveApplied ||= refused.kind === 'unavailable';
				failure = {
					retry: refused.kind === 'rateLimit' ? 'rate limit' : 'service error',
					retryAfterMs: refused.retryAfterMs,
					error: () => serviceError(node, refused, itemIndex, notes),
				};
			} else if (outcome.kind === 'network') {
				// A request that never left is always safe to send again.
				const maybeApplied = !outcome.notSent && !isRetrySafe(target);
				mayHaveApplied ||= !outcome.notSent;
				failure = {
					retry: outcome.timedOut ? 'timeout' : 'connection',
					error: () => networkError(node, outcome, itemIndex, { ...notes, maybeApplied }),
				};
				if (maybeApplied) throw failure.error();
			} else if (outcome.kind === 'loginFailed' && outcome.failure.retry) {
				// A login the service could not serve now is tried again like any request: a login applies nothing.
				failure = {
					retry: outcome.failure.retry,
					retryAfterMs: outcome.failure.retryAfterMs,
					error: () => exchangeError(node, outcome, itemIndex, notes),
				};
			} else {
				throw exchangeError(node, outcome, itemIndex);
			}

			const decision = decideRetry(
				settings.retry,
				++failures,
				Date.now() - started,
				failure.retryAfterMs,
			);
			if (!decision.retry) {
				notes.gaveUp = decision.reason;
				throw failure.error();
			}
			activity.retries[failure.retry] = (activity.retries[failure.retry] ?? 0) + 1;
			if (failure.retry !== 'rate limit' && !retriedAfterError) {
				retriedAfterError = true;
				activity.retriedRequests++;
			}
			if (failure.retryAfterMs !== undefined) {
				// A Retry-After holds every request of the run.
				pacer.holdAllUntil(Date.now() + decision.delayMs);
			} else {
				await pause(ctx, decision.delayMs);
				notes.backoffMs += decision.delayMs;
			}
		}
	} catch (error) {
		// Rule A6: whatever the service or the HTTP library wrote, no secret of this session leaves in an error.
		throw session.secrets.redactError(
			error instanceof RequestRefused
				? new NodeOperationError(node, error.message, { description: error.description, itemIndex })
				: error,
		);
	}
}
