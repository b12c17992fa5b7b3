import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	assertCredentialFieldsUsable,
	CREDENTIAL_TYPE,
	credentialSecrets,
	readCredentials,
	TokenClock,
	type CommerceMessagingCredentials,
} from './auth';
import { pause } from './pause';
import { ProcessTokens } from './processTokens';
import { servedPath, type Route } from './routes';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IHookFunctions;

/** Below this many accepted requests a rate says little: no pacing from it. */
const MIN_ACCEPTED_TO_PACE = 10;

/** Process-wide: expiry is judged from when this process received each token (rule A3, clock skew). */
const tokenClock = new TokenClock();

/** Process-wide: one renewal per account for all the runs of this process that hold its ageing token. */
const processTokens = new ProcessTokens();

/**
 * One node run's view of the credential. The decrypted data is read once per run (not once per request) and
 * handed to n8n with every request; n8n's credentials helper runs the credential's preAuthentication when the
 * token field is empty, stores the new token, and writes it back into this same object. So a run of thousands
 * of items logs in at most once per token lifetime, and the token is shared with later runs and with the
 * HTTP Request node.
 */
export class Session {
	readonly credentials: CommerceMessagingCredentials;

	/** Every token this session held: an error text may quote an old one as well as the current one. */
	private readonly tokensHeld = new Set<string>();

	/** The login another lane is making right now: every other lane waits for it (single flight). */
	private loginInFlight?: Promise<void>;

	/** A login of this run that the service refused: every later request fails with it instead of trying again. */
	private loginRefusal?: unknown;

	/** Until when every lane holds back, after the service asked it with a Retry-After. */
	private pausedUntil = 0;

	/** What the service accepted in this run since its first request: the rate it sustains. */
	private accepted = 0;
	private firstTurnAt = 0;

	/** The token this run held when it found it near its end: another run of this process may have renewed it. */
	private renewing?: string;

	/** The account this credential logs in to, as ProcessTokens knows it. */
	private readonly accountKey: string;

	/** Once the service rate-limited this run: requests start no faster than that sustained rate. */
	private paced = false;
	private nextStartAt = 0;

	constructor(readonly data: ICredentialDataDecryptedObject) {
		this.credentials = readCredentials(data);
		this.accountKey = ProcessTokens.keyOf(this.credentials);
		if (this.token) this.tokensHeld.add(this.token);
	}

	get baseUrl(): string {
		return this.credentials.baseUrl;
	}

	/**
	 * Before each request, in every lane of a run: waits out a Retry-After that any lane received and a login that
	 * another lane is making, then renews the token if it is missing or about to expire. `logsIn` says whether this
	 * request will log in; its caller must call `sent()` once the request is answered, so waiting lanes go on.
	 * Throws the run's login failure, if a login of this run already failed.
	 */
	async takeTurn(ctx: ApiContext): Promise<{ logsIn: boolean; sent: () => void }> {
		let spaced = false;
		for (;;) {
			if (this.loginRefusal !== undefined) throw this.loginRefusal;
			const wait = this.pausedUntil - Date.now();
			if (wait > 0) {
				await pause(ctx, wait);
				continue;
			}
			if (!spaced && this.paced) {
				// One start per interval, reserved in turn order: lanes then reach the service one by one instead of
				// all at once, so when its bucket runs dry one request is refused, not every lane's.
				spaced = true;
				const startAt = Math.max(Date.now(), this.nextStartAt);
				this.nextStartAt = startAt + this.sustainedIntervalMs();
				if (startAt > Date.now()) await pause(ctx, startAt - Date.now());
				continue;
			}
			if (!this.firstTurnAt) this.firstTurnAt = Date.now();
			if (this.loginInFlight) {
				await this.loginInFlight;
				continue;
			}
			this.prepareToken();
			if (this.hasToken) return { logsIn: false, sent: () => {} };
			const otherLogin = this.renewing !== undefined ? processTokens.loginUnderWay(this.accountKey) : undefined;
			if (otherLogin) {
				// Another run of this process is renewing the same ageing token: wait, then use the token it gets.
				await otherLogin;
				this.adoptRenewedToken();
				continue;
			}
			let finished: () => void = () => {};
			const login = new Promise<void>((resolve) => (finished = resolve));
			this.loginInFlight = login;
			processTokens.loginStarted(this.accountKey, login);
			return {
				logsIn: true,
				sent: () => {
					if (this.loginInFlight === login) this.loginInFlight = undefined;
					finished();
				},
			};
		}
	}

	/**
	 * Rule E5 across lanes: no lane sends anything before this Retry-After has passed; from then on the run keeps to
	 * the rate the service has sustained so far (pauses included), which keeps later refusals to about one per block.
	 */
	holdAllUntil(at: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, at);
		this.paced = true;
	}

	/** The login of this run failed (wrong password, service refusal): one attempt per run, not one per item. */
	loginFailed(error: unknown): void {
		this.loginRefusal = error;
	}

	/** A request the service accepted. */
	countAccepted(): void {
		this.accepted++;
	}

	/** Milliseconds between request starts at the sustained rate; none until there is enough to measure. */
	private sustainedIntervalMs(): number {
		if (this.accepted < MIN_ACCEPTED_TO_PACE) return 0;
		return (Date.now() - this.firstTurnAt) / this.accepted;
	}

	get token(): string {
		return typeof this.data.sessionToken === 'string' ? this.data.sessionToken : '';
	}

	get hasToken(): boolean {
		return this.token !== '';
	}

	/**
	 * Clears the token when it is missing or about to expire, so the next request logs in first (rule A3), unless
	 * another run of this process already renewed that token: then its new token is used.
	 */
	prepareToken(now = Date.now()): void {
		const receivedAt = typeof this.data.loginReceivedAt === 'number' ? this.data.loginReceivedAt : undefined;
		if (!tokenClock.needsRenewal(this.token, now, receivedAt)) return;
		if (this.hasToken) this.renewing = this.token;
		this.data.sessionToken = '';
		this.adoptRenewedToken(now);
	}

	/** Takes the token another run of this process received after this run's ageing one, if it is still good. */
	private adoptRenewedToken(now = Date.now()): void {
		if (this.renewing === undefined || this.hasToken) return;
		const newer = processTokens.newerThan(this.accountKey, this.renewing);
		if (!newer || tokenClock.needsRenewal(newer.token, now, newer.receivedAt)) return;
		this.data.sessionToken = newer.token;
		this.data.loginReceivedAt = newer.receivedAt;
		this.tokensHeld.add(newer.token);
		this.renewing = undefined;
	}

	/** After a request that logged in: start the new token's clock now, by the local clock. */
	tokenReceived(now = Date.now()): void {
		if (!this.hasToken) return;
		tokenClock.received(this.token, now);
		this.tokensHeld.add(this.token);
		processTokens.received(this.accountKey, { token: this.token, receivedAt: now });
		this.renewing = undefined;
	}

	/**
	 * After the service refused `refused`: force one fresh login on the next request, unless another lane already
	 * replaced that token (then the next request simply uses the new one: one login for all lanes).
	 */
	dropToken(refused: string = this.token): void {
		if (this.token === refused) this.data.sessionToken = '';
	}

	/** The path this service serves for a route (one of the document's readings). */
	pathOf(route: Route): string {
		return servedPath(this.baseUrl, route);
	}

	/** What must never appear in an error, an output or a log (rule A6). */
	secrets(): string[] {
		return [...credentialSecrets(this.credentials), ...this.tokensHeld, this.token].filter(Boolean);
	}
}

const sessions = new WeakMap<object, Promise<Session>>();

export async function getSession(ctx: ApiContext): Promise<Session> {
	let session = sessions.get(ctx);
	if (!session) {
		session = openSession(ctx);
		sessions.set(ctx, session);
		// A failed open (e.g. a bad Base URL) must not be cached: the user may fix it between items.
		session.catch(() => sessions.delete(ctx));
	}
	return await session;
}

/**
 * Ends a context's session, so its next request reads the credential again. A polling trigger keeps one context
 * for as long as its workflow is active: it ends the session at every poll, so an edited Base URL or password
 * applies at the next poll without re-activating the workflow.
 */
export function endSession(ctx: ApiContext): void {
	sessions.delete(ctx);
}

async function openSession(ctx: ApiContext): Promise<Session> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	// A copy: the token n8n writes back must not leak into other runs' objects.
	const session = new Session({ ...data });
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
