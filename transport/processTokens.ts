import { createHash } from 'crypto';

import type { CommerceMessagingCredentials } from './auth';

/** Credentials one process keeps a token for; beyond it the oldest entry goes. */
const CAPACITY = 256;

export interface ReceivedToken {
	token: string;
	/** Local time this process received it (rule A3: expiry is judged by the local clock). */
	receivedAt: number;
}

/**
 * Process-wide, per credential: the newest token a login of this process received, and the login under way.
 * Executions that run side by side (a webhook burst, a queue-mode worker's concurrent jobs) each read the stored
 * credential when they start; when its token nears its end, each would log in. With this, the first one renews,
 * the others wait for it and take its token: one login per process per token lifetime.
 */
export class ProcessTokens {
	private readonly newest = new Map<string, ReceivedToken>();

	private readonly underWay = new Map<string, Promise<void>>();

	/** The identity of a credential's account, kept as a hash so no secret sits in a map key. */
	static keyOf(credentials: CommerceMessagingCredentials): string {
		const account = JSON.stringify([credentials.baseUrl, credentials.username, credentials.password]);
		return createHash('sha256').update(account).digest('base64url');
	}

	/** The newest token this process received for the account, if it is not `than`. */
	newerThan(key: string, than: string): ReceivedToken | undefined {
		const newest = this.newest.get(key);
		return newest && newest.token !== than ? newest : undefined;
	}

	received(key: string, token: ReceivedToken): void {
		this.newest.delete(key);
		if (this.newest.size >= CAPACITY) {
			const oldest = this.newest.keys().next().value;
			if (oldest !== undefined) this.newest.delete(oldest);
		}
		this.newest.set(key, token);
	}

	/** A login for the account starts; `done` settles when it is answered. */
	loginStarted(key: string, done: Promise<void>): void {
		this.underWay.set(key, done);
		void done.finally(() => {
			if (this.underWay.get(key) === done) this.underWay.delete(key);
		});
	}

	/** The login another run of this process is making for the account right now. */
	loginUnderWay(key: string): Promise<void> | undefined {
		return this.underWay.get(key);
	}
}
