import type { ICredentialDataDecryptedObject, IExecuteFunctions, IHookFunctions, ILoadOptionsFunctions, INode, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { assertCredentialFieldsUsable, CREDENTIAL_TYPE, credentialSecrets, readCredentials, type CommerceMessagingCredentials } from './auth';
import type { LoginFailure } from './errors';
import type { Exchange } from './http';
import { loginLimits } from './login';
import { RunPacer, type PausableContext } from './pacing';
import { SecretSet } from './redact';
import { DEFAULT_RUN_SETTINGS, type RunSettings } from './settings';
import { TokenKeeper } from './tokens';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IHookFunctions;

/** Why a request was tried again, as the run's activity counts it. */
export type RetryKind = 'rate limit' | 'timeout' | 'connection' | 'service error';

/**
 * What a run did on the user's behalf, for the node's hints: counts and times only. `retriedRequests`: after an
 * error other than a rate limit, `retriedThenDone` of them answered in the end; `rateLimitHeldMs`: every lane held
 * for a Retry-After (wall time); `listsCutAtLimit`: stopped at their Limit while the service had more.
 */
export class RunActivity {
	reLogins = 0;
	readonly retries = new Map<RetryKind, number>();
	retriedRequests = 0;
	retriedThenDone = 0;
	listsCutAtLimit = 0;
	rateLimitHeldMs = 0;
	pagesRead = 0;

	/** Whether the run did anything its user should hear of. */
	get noteworthy(): boolean {
		return this.reLogins + this.retriedRequests + this.listsCutAtLimit + this.rateLimitHeldMs + this.pagesRead > 0;
	}
}

/**
 * One node run's view of the service: its credential (read once per run, not once per request), its settings, and
 * what every request of the run shares: the token, the pacing after a Retry-After, the secrets to redact, one login
 * at a time, and the run's activity.
 */
export class Session {
	readonly credentials: CommerceMessagingCredentials;
	readonly secrets = new SecretSet();
	readonly tokens: TokenKeeper;
	readonly pacer: RunPacer;
	/** The login another lane is making right now: every other lane waits for it (single flight). */
	private loginInFlight?: Promise<void>;
	/** A login of this run that failed for good: every later request fails with it instead of trying again. */
	private loginRefusal?: LoginFailure;

	constructor(
		/** The node, taken once for the run's errors and log lines (n8n copies it at every getNode()). */
		readonly node: INode,
		readonly data: ICredentialDataDecryptedObject,
		readonly settings: RunSettings,
		readonly activity: RunActivity,
		/** The execution's cancel signal: every wait and request of the run ends with it. */
		readonly cancel?: AbortSignal,
	) {
		this.credentials = readCredentials(data);
		this.secrets.add(...credentialSecrets(this.credentials));
		this.tokens = new TokenKeeper(data, this.credentials, this.secrets);
		this.pacer = new RunPacer(activity);
		// n8n's credentials helper runs the login with this data object alone: the run's limits go with it.
		loginLimits.set(data, { timeoutMs: settings.retry.timeoutMs, cancel, timeoutName: settings.names.timeout });
	}

	get baseUrl(): string {
		return this.credentials.baseUrl;
	}

	/** The login under way calls `loggedIn` when it has its token (the attempt's deadline starts over then). */
	whenLoggedIn(loggedIn: () => void): void {
		const limits = loginLimits.get(this.data);
		if (limits) limits.loggedIn = loggedIn;
	}

	/**
	 * Runs one exchange in its turn, in any lane: waits out a Retry-After and another lane's login, makes the token
	 * usable (renewed, or another run's), and tells `exchangeNow` whether it logs in on its way (n8n's helper does
	 * when the token field is empty). A login that failed for good answers every later exchange.
	 */
	async inTurn(ctx: PausableContext, exchangeNow: (logsIn: boolean) => Promise<Exchange>): Promise<{ exchange: Exchange; tokenSent: string; rateLimitWaitMs: number }> {
		let rateLimitWaitMs = 0;
		for (;;) {
			if (this.loginRefusal) return { exchange: { kind: 'loginFailed', failure: this.loginRefusal }, tokenSent: '', rateLimitWaitMs };
			rateLimitWaitMs += await this.pacer.waitTurn(ctx);
			if (this.loginInFlight) {
				await this.loginInFlight;
				continue;
			}
			this.tokens.prepare();
			if (this.tokens.hasToken) {
				// Taken before sending: another lane may replace the token while this request is under way.
				const tokenSent = this.tokens.token;
				return { exchange: await exchangeNow(false), tokenSent, rateLimitWaitMs };
			}
			const elsewhere = this.tokens.renewalElsewhere();
			if (!elsewhere) return { ...(await this.logInOnTheWay(exchangeNow)), rateLimitWaitMs };
			// Another run of this process is renewing this account's token: wait, then use the token it gets.
			await elsewhere;
			this.tokens.adoptRenewed();
		}
	}

	private async logInOnTheWay(exchangeNow: (logsIn: boolean) => Promise<Exchange>): Promise<{ exchange: Exchange; tokenSent: string }> {
		let finished: () => void = () => {};
		const login = new Promise<void>((resolve) => (finished = resolve));
		this.loginInFlight = login;
		this.tokens.loginStarted(login);
		try {
			const exchange = await exchangeNow(true);
			if (exchange.kind === 'loginFailed' && !exchange.failure.passing) this.loginRefusal = exchange.failure;
			// The request logged in on its way: the token it carried is the one it just received.
			this.tokens.received();
			return { exchange, tokenSent: this.tokens.token };
		} finally {
			const limits = loginLimits.get(this.data);
			if (limits) limits.loggedIn = undefined;
			if (this.loginInFlight === login) this.loginInFlight = undefined;
			finished();
		}
	}
}

/** Each run, keyed by its n8n context (it ends with the run); its session opens at its first request. */
interface Run {
	settings: RunSettings;
	activity: RunActivity;
	session?: Promise<Session>;
}

const runs = new WeakMap<object, Run>();

/**
 * Starts a run with the settings of all its requests (the router and the trigger's poll; a picker gets the defaults);
 * the credential is read at its first request, so a bad field fails that request (with Continue On Fail, that item),
 * and a polling trigger, which keeps one context while active, applies an edited credential at its next poll.
 */
export function startRun(ctx: ApiContext, settings: RunSettings): RunActivity {
	const activity = new RunActivity();
	runs.set(ctx, { settings, activity });
	return activity;
}

/** A context that did not start a run (a picker loading its list) reads one page at a time, with the default retries. */
const UNSTARTED_RUN_SETTINGS: RunSettings = { ...DEFAULT_RUN_SETTINGS, concurrency: 1 };

function runOf(ctx: object): Run {
	let run = runs.get(ctx);
	if (!run) runs.set(ctx, (run = { settings: UNSTARTED_RUN_SETTINGS, activity: new RunActivity() }));
	return run;
}

export const settingsOf = (ctx: object): RunSettings => runOf(ctx).settings;

export const activityOf = (ctx: object): RunActivity => runOf(ctx).activity;

/** The run's session, opened at its first request; a failed open (a bad Base URL) is tried again at the next. */
export async function getSession(ctx: ApiContext): Promise<Session> {
	const run = runOf(ctx);
	if (!run.session) {
		const opening = openSession(ctx, run);
		run.session = opening;
		opening.catch(() => {
			if (run.session === opening) run.session = undefined;
		});
	}
	return await run.session;
}

async function openSession(ctx: ApiContext, run: Run): Promise<Session> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal?.() : undefined;
	// A copy: the token n8n writes back must not leak into other runs' objects.
	const session = new Session(ctx.getNode(), { ...data }, run.settings, run.activity, cancel);
	try {
		// Before any login: a bad field is named here, not reported later as a failed connection.
		assertCredentialFieldsUsable(session.credentials);
	} catch (error) {
		throw new NodeOperationError(session.node, (error as Error).message, { description: 'Fix this field in the Commerce Messaging credential.' });
	}
	return session;
}
