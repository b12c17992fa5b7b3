import { createHash, randomBytes } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { CommerceMessagingCredentials } from './auth';
import { CappedMap, checkedSeals, loginsUnderWay, newestTokens, tokenFirstSeen } from './processState';
import type { SecretSet } from './redact';

/**
 * The session token (rules A1-A3): its times, its age by this process's clock, the account it belongs to (its seal),
 * and one run's keeping of it: whether the next request may use it, and its renewal, shared by the process's runs.
 */

/** `exp` and `iat` in ms, read without verifying the signature (the service does that); an opaque token has none. */
export function readTokenTimes(token: string): { expiresAt?: number; issuedAt?: number } {
	const parts = token.split('.');
	if (parts.length !== 3) return {};
	try {
		const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as IDataObject;
		const ms = (value: unknown) => (typeof value === 'number' ? value * 1000 : undefined);
		return { expiresAt: ms(claims.exp), issuedAt: ms(claims.iat) };
	} catch {
		return {};
	}
}

/** How far a token's `iat` may lie behind the moment it arrived for the two clocks to count as agreeing. */
const CLOCKS_AGREE_WITHIN_MS = 2_000;

/**
 * Judges expiry by the local clock only (rule A3): from when this process first held a token, plus its lifetime
 * (`exp - iat`), never `exp` against the local clock, so a service clock hours off costs one login per lifetime, not
 * one per request. A token first seen long after it was issued may seem younger than it is: a 401 then renews it.
 */
export class TokenClock {
	/** The token asked about last: every request asks about the same one until it is renewed. */
	private last?: { token: string; times: ReturnType<typeof readTokenTimes> };

	constructor(private readonly firstSeen = new CappedMap<string, number>(256)) {}

	received(token: string, now = Date.now()): void {
		this.firstSeen.set(token, now);
	}

	/** Missing, or within a margin (a tenth of its lifetime, at most 60 s) of its end: no token expires in flight. */
	needsRenewal(token: string, now = Date.now(), receivedAt?: number): boolean {
		if (!token) return true;
		if (this.last?.token !== token) this.last = { token, times: readTokenTimes(token) };
		const { expiresAt, issuedAt } = this.last.times;
		if (expiresAt === undefined) return false;
		// No lifetime to measure: the only clue left is exp against the local clock.
		if (issuedAt === undefined || expiresAt <= issuedAt) return expiresAt - 60_000 <= now;
		const lifetime = expiresAt - issuedAt;
		// Received by this process, or by the one that stored it with the token, or else first seen now.
		let seenAt = this.firstSeen.get(token);
		if (seenAt === undefined) this.firstSeen.set(token, (seenAt = receivedAt && receivedAt <= now ? receivedAt : now));
		// `iat` has whole seconds: where the clocks agree the token was up to that old on arrival, else new then.
		const ageAtReceipt = seenAt - issuedAt;
		const age = ageAtReceipt >= 0 && ageAtReceipt < CLOCKS_AGREE_WITHIN_MS ? ageAtReceipt : 0;
		return seenAt - age + lifetime - Math.min(60_000, lifetime / 10) <= now;
	}
}

const tokenClock = new TokenClock(tokenFirstSeen);

/** Base URL, username and password: what a token is issued for. */
const accountWithPassword = (credentials: CommerceMessagingCredentials) =>
	JSON.stringify([credentials.baseUrl, credentials.username, credentials.password]);

/** The account a credential logs in to, with its password, as a hash: no secret sits in a map key. */
const accountWithPasswordKey = (credentials: CommerceMessagingCredentials) =>
	createHash('sha256').update(accountWithPassword(credentials)).digest('base64url');

/**
 * The seal stored beside a session token: a salted hash of the account (with its password) that obtained it. n8n
 * keeps hidden fields through an edit of the credential, so a token whose seal does not match is never sent.
 */
export function sealFor(credentials: CommerceMessagingCredentials, salt = randomBytes(9).toString('base64url')): string {
	return `v1.${salt}.${createHash('sha256').update(salt).update(accountWithPassword(credentials)).digest('base64url')}`;
}

/** Whether the seal beside the token in `data` was made for these credentials (`data`'s own account). */
export function isSealedFor(data: ICredentialDataDecryptedObject, credentials: CommerceMessagingCredentials): boolean {
	const seal = data.sessionTokenSeal;
	if (typeof seal !== 'string') return false;
	if (checkedSeals.get(data) === seal) return true;
	const [version, salt] = seal.split('.');
	const sealed = version === 'v1' && !!salt && sealFor(credentials, salt) === seal;
	if (sealed) checkedSeals.set(data, seal);
	return sealed;
}

/**
 * One run's token, in the credential data the run hands to n8n with every request (n8n's helper logs in when its
 * token field is empty and writes the new token into this same object). Before each request: present, not near its
 * end (rule A3), and sealed for the account the credential names now? Runs of this process share a renewal: the
 * first logs in, the others take its token, so a burst of executions costs one login per token lifetime.
 */
export class TokenKeeper {
	readonly account: string;
	/** The token this run held when it found it unusable: another run of this process may have replaced it. */
	private replacing?: string;

	constructor(
		readonly data: ICredentialDataDecryptedObject,
		private readonly credentials: CommerceMessagingCredentials,
		private readonly secrets: SecretSet,
	) {
		this.account = accountWithPasswordKey(credentials);
		secrets.add(this.token);
	}

	get token(): string {
		return typeof this.data.sessionToken === 'string' ? this.data.sessionToken : '';
	}

	get hasToken(): boolean {
		return this.token !== '';
	}

	/** Clears a token that is missing, ageing or another account's (the request then logs in), unless renewed elsewhere. */
	prepare(now = Date.now()): void {
		const receivedAt = typeof this.data.loginReceivedAt === 'number' ? this.data.loginReceivedAt : undefined;
		if (isSealedFor(this.data, this.credentials) && !tokenClock.needsRenewal(this.token, now, receivedAt)) return;
		if (this.hasToken) this.replacing = this.token;
		this.data.sessionToken = '';
		this.adoptRenewed(now);
	}

	/** The login another run of this process is making for this account, if this run waits for a replacement. */
	renewalElsewhere(): Promise<void> | undefined {
		return this.replacing !== undefined ? loginsUnderWay.get(this.account) : undefined;
	}

	/** A login of this run starts; `done` settles when it is answered. */
	loginStarted(done: Promise<void>): void {
		loginsUnderWay.set(this.account, done);
		void done.finally(() => {
			if (loginsUnderWay.get(this.account) === done) loginsUnderWay.delete(this.account);
		});
	}

	/** Takes the token another run of this process received for this account, if it is still good. */
	adoptRenewed(now = Date.now()): void {
		if (this.replacing === undefined || this.hasToken) return;
		const newer = newestTokens.get(this.account);
		if (!newer || newer.token === this.replacing || tokenClock.needsRenewal(newer.token, now, newer.receivedAt)) return;
		Object.assign(this.data, { sessionToken: newer.token, loginReceivedAt: newer.receivedAt, sessionTokenSeal: sealFor(this.credentials) });
		this.secrets.add(newer.token);
		this.replacing = undefined;
	}

	/** After a request that logged in: the new token's clock starts now, by the local clock. */
	received(now = Date.now()): void {
		if (!this.hasToken) return;
		tokenClock.received(this.token, now);
		this.secrets.add(this.token);
		newestTokens.set(this.account, { token: this.token, receivedAt: now });
		this.replacing = undefined;
	}

	/** After the service refused `refused`: the next request logs in, unless another lane already replaced it. */
	refused(refused: string): void {
		if (this.token === refused) this.data.sessionToken = '';
	}
}
