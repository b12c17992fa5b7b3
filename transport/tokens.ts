import { createHash, randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { CommerceMessagingCredentials } from './auth';
import { CappedMap } from './cappedMap';

/**
 * What a session token is and whom it belongs to: its times (read from the JWT), its age by this process's clock
 * (rule A3), and the account it was issued for. Pure: no I/O.
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
	private readonly firstSeen: CappedMap<string, number>;

	/** The times of the token asked about last: every request asks about the same token until it is renewed. */
	private last?: { token: string; times: TokenTimes };

	constructor(capacity = 256) {
		this.firstSeen = new CappedMap(capacity);
	}

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
		if (issuedAt === undefined || expiresAt <= issuedAt) {
			// No lifetime to measure: the only clue left is exp against the local clock.
			return expiresAt - 60_000 <= now;
		}
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

const accountParts = (credentials: CommerceMessagingCredentials) =>
	JSON.stringify([credentials.baseUrl, credentials.username, credentials.password]);

/** The account a credential logs in to (Base URL, username, password), as a hash: no secret sits in a map key. */
export function accountKey(credentials: CommerceMessagingCredentials): string {
	return createHash('sha256').update(accountParts(credentials)).digest('base64url');
}

/**
 * The seal stored beside a session token: a salted hash of the account that obtained it. n8n keeps hidden fields
 * when a credential is edited, so a token may outlive a change of Base URL, username or password; a token whose
 * seal does not match the credential's fields is never sent (a fresh login replaces it).
 */
export function sealFor(credentials: CommerceMessagingCredentials, salt = randomBytes(9).toString('base64url')): string {
	const digest = createHash('sha256').update(salt).update(accountParts(credentials)).digest('base64url');
	return `v1.${salt}.${digest}`;
}

export function isSealedFor(seal: unknown, credentials: CommerceMessagingCredentials): boolean {
	if (typeof seal !== 'string') return false;
	const [version, salt] = seal.split('.');
	return version === 'v1' && !!salt && sealFor(credentials, salt) === seal;
}

export interface ReceivedToken {
	token: string;
	/** Local time this process received it (rule A3: expiry is judged by the local clock). */
	receivedAt: number;
}

/**
 * Process-wide, per account: the newest token a login of this process received, and the login under way.
 * Executions that run side by side (a webhook burst, a queue-mode worker's concurrent jobs) each read the stored
 * credential when they start; when its token nears its end, each would log in. With this, the first one renews,
 * the others wait for it and take its token: one login per process per token lifetime.
 */
export class ProcessTokens {
	private readonly newest: CappedMap<string, ReceivedToken>;

	private readonly underWay = new Map<string, Promise<void>>();

	constructor(capacity = 256) {
		this.newest = new CappedMap(capacity);
	}

	/** The newest token this process received for the account, if it is not `than`. */
	newerThan(account: string, than: string): ReceivedToken | undefined {
		const newest = this.newest.get(account);
		return newest && newest.token !== than ? newest : undefined;
	}

	received(account: string, token: ReceivedToken): void {
		this.newest.set(account, token);
	}

	/** A login for the account starts; `done` settles when it is answered. */
	loginStarted(account: string, done: Promise<void>): void {
		this.underWay.set(account, done);
		void done.finally(() => {
			if (this.underWay.get(account) === done) this.underWay.delete(account);
		});
	}

	/** The login another run of this process is making for the account right now. */
	loginUnderWay(account: string): Promise<void> | undefined {
		return this.underWay.get(account);
	}
}
