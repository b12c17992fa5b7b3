import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	assertSafeBaseUrl,
	CREDENTIAL_TYPE,
	readCredentials,
	tokenNeedsRenewal,
	type CommerceMessagingCredentials,
} from './auth';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IHookFunctions;

/**
 * One node run's view of the credential. The decrypted data is read once per run (not once per request) and
 * handed to n8n with every request; n8n's credentials helper runs the credential's preAuthentication when the
 * token field is empty, stores the new token, and writes it back into this same object. So a run of thousands
 * of items logs in at most once per token lifetime, and the token is shared with later runs and with the
 * HTTP Request node.
 */
export class Session {
	readonly credentials: CommerceMessagingCredentials;

	constructor(readonly data: ICredentialDataDecryptedObject) {
		this.credentials = readCredentials(data);
	}

	get baseUrl(): string {
		return this.credentials.baseUrl;
	}

	/** Clears the token when it is missing or about to expire, so the next request logs in first (rule A3). */
	prepareToken(now = Date.now()): void {
		const token = typeof this.data.sessionToken === 'string' ? this.data.sessionToken : '';
		if (tokenNeedsRenewal(token, now)) this.data.sessionToken = '';
	}

	/** After the service said the token expired: force one fresh login on the next request. */
	dropToken(): void {
		this.data.sessionToken = '';
	}

	get hasToken(): boolean {
		return typeof this.data.sessionToken === 'string' && this.data.sessionToken !== '';
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

async function openSession(ctx: ApiContext): Promise<Session> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	// A copy: the token n8n writes back must not leak into other runs' objects.
	const session = new Session({ ...data });
	try {
		assertSafeBaseUrl(session.baseUrl);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), (error as Error).message, {
			description: 'Fix the Base URL in the Commerce Messaging credential.',
		});
	}
	return session;
}
