import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { CommerceMessagingCredentials } from './auth';
import { processTokens, tokenClock } from './processState';
import type { SecretSet } from './redact';
import { accountKey, isSealedFor, sealFor } from './tokens';

/**
 * One run's token: the credential data the run hands to n8n with every request (n8n's credentials helper runs the
 * credential's preAuthentication when its token field is empty, stores the new token and writes it into this same
 * object). Decides before each request whether that token may be used: present, not near its end (rule A3), and
 * sealed for the account the credential names now.
 */
export class TokenKeeper {
	readonly account: string;

	/** The token this run held when it found it unusable: another run of this process may have replaced it. */
	private replacing?: string;

	/** The last seal found to match this run's credential (checking one is a hash: once per seal, not per request). */
	private verifiedSeal?: string;

	constructor(
		readonly data: ICredentialDataDecryptedObject,
		private readonly credentials: CommerceMessagingCredentials,
		private readonly secrets: SecretSet,
	) {
		this.account = accountKey(credentials);
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
		const usable = this.sealedForThisAccount() && !tokenClock.needsRenewal(this.token, now, receivedAt);
		if (usable) return;
		if (this.hasToken) this.replacing = this.token;
		this.data.sessionToken = '';
		this.adoptRenewed(now);
	}

	private sealedForThisAccount(): boolean {
		const seal = this.data.sessionTokenSeal;
		if (seal !== undefined && seal === this.verifiedSeal) return true;
		if (!isSealedFor(seal, this.credentials)) return false;
		this.verifiedSeal = seal as string;
		return true;
	}

	/** The login another run of this process is making for this account, if this run waits for a replacement. */
	renewalElsewhere(): Promise<void> | undefined {
		return this.replacing !== undefined ? processTokens.loginUnderWay(this.account) : undefined;
	}

	loginStarted(done: Promise<void>): void {
		processTokens.loginStarted(this.account, done);
	}

	/** Takes the token another run of this process received for this account, if it is still good. */
	adoptRenewed(now = Date.now()): void {
		if (this.replacing === undefined || this.hasToken) return;
		const newer = processTokens.newerThan(this.account, this.replacing);
		if (!newer || tokenClock.needsRenewal(newer.token, now, newer.receivedAt)) return;
		Object.assign(this.data, {
			sessionToken: newer.token,
			loginReceivedAt: newer.receivedAt,
			sessionTokenSeal: sealFor(this.credentials),
		});
		this.secrets.add(newer.token);
		this.replacing = undefined;
	}

	/** After a request that logged in: start the new token's clock now, by the local clock. */
	received(now = Date.now()): void {
		if (!this.hasToken) return;
		tokenClock.received(this.token, now);
		this.secrets.add(this.token);
		processTokens.received(this.account, { token: this.token, receivedAt: now });
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
