import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { assertCredentialFieldsUsable, CREDENTIAL_TYPE, credentialSecrets, readCredentials, type CommerceMessagingCredentials } from './auth';
import type { Exchange, LoginFailure } from './http';
import { loginLimits } from './login';
import { RunPacer, type PausableContext } from './pacing';
import { SecretSet } from './redact';
import { DEFAULT_RUN_SETTINGS, type RunSettings } from './settings';
import { TokenKeeper } from './tokens';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IHookFunctions;

/** Why a request was tried again, as the run's activity counts it. */
export type RetryKind = 'rate limit' | 'timeout' | 'connection' | 'service error';

/**
 * What a run did on the user's behalf, counted for the node's execution hints and debug lines: logins, logins again
 * after a refused token, retries by kind, requests that were retried and then went through, and how long every lane
 * was held for the service's rate limit. Counts and times only: never a value that came from the service.
 */
export class RunActivity {
	logins = 0;
	reLogins = 0;
	readonly retries = new Map<RetryKind, number>();
	/** Requests that were retried after an error and then answered. */
	retriedThenDone = 0;

	constructor(private readonly pacer: RunPacer) {}

	/** How long the run's lanes were held for a Retry-After (wall time, not per lane), ms. */
	get rateLimitHeldMs(): number {
		return this.pacer.heldMs;
	}

	retrying(kind: RetryKind): void {
		this.retries.set(kind, (this.retries.get(kind) ?? 0) + 1);
	}

	requestDone(retried: boolean): void {
		if (retried) this.retriedThenDone++;
	}
}

/**
 * One node run's view of the service: its credential (read once per run, not once per request), its settings, and
 * the parts every request of the run shares: the token (renewal), the pacing after a Retry-After, the secrets to
 * redact, the run's one login at a time, and what the run did (its activity).
 */
export class Session {
	readonly credentials: CommerceMessagingCredentials;

	readonly secrets = new SecretSet();

	readonly tokens: TokenKeeper;

	readonly pacer = new RunPacer();

	readonly activity = new RunActivity(this.pacer);

	/** The login another lane is making right now: every other lane waits for it (single flight). */
	private loginInFlight?: Promise<void>;

	/** A login of this run that failed for good: every later request fails with it instead of trying again. */
	private loginRefusal?: LoginFailure;

	constructor(
		readonly data: ICredentialDataDecryptedObject,
		readonly settings: RunSettings,
		/** The execution's cancel signal: every wait and request of the run ends with it. */
		readonly cancel?: AbortSignal,
	) {
		this.credentials = readCredentials(data);
		this.secrets.add(...credentialSecrets(this.credentials));
		this.tokens = new TokenKeeper(data, this.credentials, this.secrets);
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

	/** One debug line per attempt in n8n's log (shown at log level debug only): never a URL, a body or a header. */
	logRequest(ctx: ApiContext, line: { route: string; method: string; status?: number; attempt: number; durationMs: number; itemIndex?: number }): void {
		ctx.logger?.debug(`Commerce Messaging: ${line.method} ${line.route} -> ${line.status ?? 'no answer'}`, { node: ctx.getNode().name, ...line });
	}

	/**
	 * Runs one exchange in its turn, in any lane of the run: waits out a Retry-After and a login another lane is
	 * making, makes the token usable (renewed, or taken from another run of this process), and tells `send` whether
	 * this exchange logs in on its way (n8n's helper logs in when the token field is empty). A login that fails for
	 * good is the answer of every later exchange of the run; `tokenSent` is the token the exchange carried, and
	 * `rateLimitWaitMs` how long this lane waited for the service's rate limit before its turn.
	 */
	async inTurn(
		ctx: PausableContext,
		send: (logsIn: boolean) => Promise<Exchange>,
	): Promise<{ exchange: Exchange; tokenSent: string; rateLimitWaitMs: number }> {
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
			if (elsewhere) {
				// Another run of this process is renewing this account's token: wait, then use the token it gets.
				await elsewhere;
				this.tokens.adoptRenewed();
				continue;
			}
			return { ...(await this.logInOnTheWay(send)), rateLimitWaitMs };
		}
	}

	private async logInOnTheWay(send: (logsIn: boolean) => Promise<Exchange>): Promise<{ exchange: Exchange; tokenSent: string }> {
		let finished: () => void = () => {};
		const login = new Promise<void>((resolve) => (finished = resolve));
		this.loginInFlight = login;
		this.tokens.loginStarted(login);
		try {
			this.activity.logins++;
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

/**
 * Each run's settings (startRun) and session (its credential, token, pacing and secrets, opened at its first
 * request), keyed by the run's n8n context: it ends with the run.
 */
const runs = new WeakMap<object, { settings: RunSettings; session?: Promise<Session> }>();

/**
 * Starts a run: the settings for all its requests. The credential is read once, at the run's first request (a
 * bad field then fails that request, or with Continue On Fail that item). The action node's router and the trigger
 * call it first; a context that makes requests without it (a picker) gets the defaults. A polling trigger keeps one
 * context while its workflow is active, so it starts a run at every poll: an edited credential applies at the next.
 */
export function startRun(ctx: ApiContext, settings: RunSettings): void {
	runs.set(ctx, { settings });
}

/** A context that did not start a run (a picker loading its list) reads one page at a time, with the default retries. */
const UNSTARTED_RUN_SETTINGS: RunSettings = { ...DEFAULT_RUN_SETTINGS, concurrency: 1 };

/** The settings of the context's run. */
export function settingsOf(ctx: object): RunSettings {
	return runs.get(ctx)?.settings ?? UNSTARTED_RUN_SETTINGS;
}

/** The run's session, opened at its first request. */
export async function getSession(ctx: ApiContext): Promise<Session> {
	let run = runs.get(ctx);
	if (!run) runs.set(ctx, (run = { settings: UNSTARTED_RUN_SETTINGS }));
	if (!run.session) {
		const opening = openSession(ctx, run.settings);
		run.session = opening;
		// A failed open (e.g. a bad Base URL) is not kept: the user may fix it before the next request.
		opening.catch(() => {
			if (run.session === opening) run.session = undefined;
		});
	}
	return await run.session;
}

async function openSession(ctx: ApiContext, settings: RunSettings): Promise<Session> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal?.() : undefined;
	// A copy: the token n8n writes back must not leak into other runs' objects.
	const session = new Session({ ...data }, settings, cancel);
	try {
		// Before any login: a bad field is named here, not reported later as a failed connection.
		assertCredentialFieldsUsable(session.credentials);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), (error as Error).message, {
			description: 'Fix this field in the Commerce Messaging credential.',
		});
	}
	return session;
}
