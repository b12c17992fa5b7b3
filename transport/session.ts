import type { ICredentialDataDecryptedObject, IExecuteFunctions, IHookFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
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
 * What a run did on the user's behalf, for the node's execution hints and log lines: counts and times only, never a
 * value that came from the service.
 */
export class RunActivity {
	logins = 0;
	/** Logins after the service refused the token (rule A3). */
	reLogins = 0;
	/** Attempts tried again, by why (a rate limit's are counted here too, and in `rateLimitHeldMs`). */
	readonly retries = new Map<RetryKind, number>();
	/** Requests tried again after an error other than a rate limit, and how many of them were answered in the end. */
	retriedRequests = 0;
	retriedThenDone = 0;
	/** Lists read with a Limit that stopped there while the service had more. */
	listsCutAtLimit = 0;
	/** How long every lane was held for a Retry-After in all (wall time, each moment once), ms. */
	rateLimitHeldMs = 0;
	/** Pages of lists read. */
	pagesRead = 0;
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
	 * Runs one exchange in its turn, in any lane of the run: waits out a Retry-After and a login another lane is
	 * making, makes the token usable (renewed, or taken from another run of this process), and tells `send` whether
	 * it logs in on its way (n8n's helper logs in when the token field is empty). A login that fails for good is the
	 * answer of every later exchange; `tokenSent` is the token it carried, `rateLimitWaitMs` this lane's wait.
	 */
	async inTurn(ctx: PausableContext, send: (logsIn: boolean) => Promise<Exchange>): Promise<{ exchange: Exchange; tokenSent: string; rateLimitWaitMs: number }> {
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
				return { exchange: await send(false), tokenSent, rateLimitWaitMs };
			}
			const elsewhere = this.tokens.renewalElsewhere();
			if (!elsewhere) return { ...(await this.logInOnTheWay(send)), rateLimitWaitMs };
			// Another run of this process is renewing this account's token: wait, then use the token it gets.
			await elsewhere;
			this.tokens.adoptRenewed();
		}
	}

	private async logInOnTheWay(send: (logsIn: boolean) => Promise<Exchange>): Promise<{ exchange: Exchange; tokenSent: string }> {
		let finished: () => void = () => {};
		const login = new Promise<void>((resolve) => (finished = resolve));
		this.loginInFlight = login;
		this.tokens.loginStarted(login);
		this.activity.logins++;
		try {
			const exchange = await send(true);
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

interface Run {
	settings: RunSettings;
	activity: RunActivity;
	/** Opened at the run's first request. */
	session?: Promise<Session>;
}

/** Each run, keyed by its n8n context: it ends with the run. */
const runs = new WeakMap<object, Run>();

/**
 * Starts a run with the settings of all its requests; the credential is read at its first request (a bad field then
 * fails that request, or with Continue On Fail that item). The action node's router and the trigger call it first;
 * a context that did not (a picker) gets the defaults. A polling trigger keeps one context while its workflow is
 * active, so it starts a run at every poll: an edited credential applies at the next.
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
	const session = new Session({ ...data }, run.settings, run.activity, cancel);
	try {
		// Before any login: a bad field is named here, not reported later as a failed connection.
		assertCredentialFieldsUsable(session.credentials);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), (error as Error).message, { description: 'Fix this field in the Commerce Messaging credential.' });
	}
	return session;
}
