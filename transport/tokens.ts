import { createHash, randomBytes } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { CommerceMessagingCredentials } from './auth';
import { CappedMap, checkedSeals, loginsUnderWay, newestTokens, tokenFirstSeen } from './processState';
import type { SecretSet } from './redact';

/**
 * The session token (rules A1-A3): its times (read from the JWT), its age by this process's clock, the account it
 * belongs to (its seal), and one run's keeping of it: whether it may be used for the next request, and its renewal,
 * shared with the other runs of this process.
 */

export interface TokenTimes {
	/** Expiry in ms since the epoch, from the JWT `exp` claim. */
	expiresAt?: number;
	/** Issue time in ms, from `iat`. */
	issuedAt?: number;
}

/** Reads `exp`/`iat` without verifying the signature (the service does that); an opaque token has none. */
export function readTokenTimes(token: string): TokenTimes {
	const parts = token.split('.');
	if (parts.length !== 3) return {};
	try {
		const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as IDataObject;
		const seconds = (value: unknown) => (typeof value === 'number' ? value * 1000 : undefined);
		return { expiresAt: seconds(claims.exp), issuedAt: seconds(claims.iat) };
	} catch {
		return {};
	}
}

/** How far a token's `iat` may lie behind the moment it arrived for the two clocks to count as agreeing. */
const CLOCKS_AGREE_WITHIN_MS = 2_000;

/**
 * Judges token expiry by the local clock only (rule A3): from the moment this process first held a token plus the
 * token's own lifetime (`exp - iat`), never by comparing `exp` with the local clock, so a service whose clock is
 * hours ahead or behind costs one login per lifetime, not one per request. A token first seen long after it was
 * issued, without the time it was received, may be thought younger than it is; the service's 401 then renews it.
 */
export class TokenClock {
	/** The times of the token asked about last: every request asks about the same token until it is renewed. */
	private last?: { token: string; times: TokenTimes };

	constructor(private readonly firstSeen = new CappedMap<string, number>(256)) {}

	/** A token just received from a login. */
	received(token: string, now = Date.now()): void {
		this.firstSeen.set(token, now);
	}

	/**
	 * Whether a token must be renewed before the next request: it is missing, or within a safety margin (a tenth
	 * of its lifetime, at most 60 s) of its end, so no request leaves with a token that expires in flight.
	 */
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
		if (seenAt === undefined) {
			seenAt = receivedAt && receivedAt <= now ? receivedAt : now;
			this.firstSeen.set(token, seenAt);
		}
		// `iat` has whole seconds: where the clocks agree, the token was already up to that old when it arrived.
		// Where they do not (iat far from the moment of receipt), the token is taken as new when first seen.
		const ageAtReceipt = seenAt - issuedAt;
		const age = ageAtReceipt >= 0 && ageAtReceipt < CLOCKS_AGREE_WITHIN_MS ? ageAtReceipt : 0;
		const margin = Math.min(60_000, lifetime / 10);
		return seenAt - age + lifetime - margin <= now;
	}
}

const tokenClock = new TokenClock(tokenFirstSeen);

/** Base URL, username and password: what a token is issued for. */
const accountWithPassword = (credentials: CommerceMessagingCredentials) =>
	JSON.stringify([credentials.baseUrl, credentials.username, credentials.password]);

/** The account a credential logs in to, with its password, as a hash: no secret sits in a map key. */
export function accountWithPasswordKey(credentials: CommerceMessagingCredentials): string {
	return createHash('sha256').update(accountWithPassword(credentials)).digest('base64url');
}

/**
 * The seal stored beside a session token: a salted hash of the account (with its password) that obtained it. n8n
 * keeps hidden fields when a credential is edited, so a token may outlive a change of Base URL, username or
 * password; a token whose seal does not match the credential's fields is never sent (a fresh login replaces it).
 */
export function sealFor(credentials: CommerceMessagingCredentials, salt = randomBytes(9).toString('base64url')): string {
	const digest = createHash('sha256').update(salt).update(accountWithPassword(credentials)).digest('base64url');
	return `v1.${salt}.${digest}`;
}

/** Whether the seal was made for these credentials; a seal checked once for the same fields is not hashed again. */
export function isSealedFor(seal: unknown, credentials: CommerceMessagingCredentials): boolean {
	if (typeof seal !== 'string') return false;
	const account = accountWithPassword(credentials);
	if (checkedSeals.get(seal) === account) return true;
	const [version, salt] = seal.split('.');
	const sealed = version === 'v1' && !!salt && sealFor(credentials, salt) === seal;
	if (sealed) checkedSeals.set(seal, account);
	return sealed;
}

/**
 * One run's token: the credential data the run hands to n8n with every request (n8n's credentials helper runs the
 * credential's preAuthentication when its token field is empty, stores the new token and writes it into this same
 * object). Decides before each request whether that token may be used: present, not near its end (rule A3), and
 * sealed for the account the credential names now. Runs of this process share a renewal: the first one logs in,
 * the others wait for it and take its token, so a burst of executions costs one login per token lifetime.
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

	/**
	 * Before a request: clears a token that is missing, about to expire or sealed for another account, so the request
	 * logs in first, unless another run of this process already renewed it for this account: then that token is used.
	 */
	prepare(now = Date.now()): void {
		const receivedAt = typeof this.data.loginReceivedAt === 'number' ? this.data.loginReceivedAt : undefined;
		const usable = isSealedFor(this.data.sessionTokenSeal, this.credentials) && !tokenClock.needsRenewal(this.token, now, receivedAt);
		if (usable) return;
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

	/** After a request that logged in: start the new token's clock now, by the local clock. */
	received(now = Date.now()): void {
		if (!this.hasToken) return;
		tokenClock.received(this.token, now);
		this.secrets.add(this.token);
		newestTokens.set(this.account, { token: this.token, receivedAt: now });
		this.replacing = undefined;
	}

	/**
	 * After the service refused `refused`: force one fresh login on the next request, unless another lane already
	 * replaced that token (then the next request simply uses the new one: one login for all lanes).
	 */
	refused(refused: string): void {
		if (this.token === refused) this.data.sessionToken = '';
	}
}
