import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { normalizeBaseUrl, readCredentials } from '../../../../transport';

/** What makes two events the same, before the account is added: the kind and the event's own ids. */
export interface EventIdentity {
	kind: 'order' | 'cart';
	parts: string[];
}

export interface EventKey {
	/** Readable form, shown on skipped items. */
	label: string;
	/** Stored form: compact, and free of the shop's identifiers and of the account. */
	hash: string;
}

/**
 * Characters of a stored hash: 60 bits. With 10,000 events kept, a new event matches a kept one by chance with a
 * probability of 10,000 / 2^60, about 1e-14.
 */
export const HASH_LENGTH = 10;

export function orderEvent(orderId: string, status: string): EventIdentity {
	return { kind: 'order', parts: [orderId, status] };
}

export function cartEvent(cartId: string, total: number): EventIdentity {
	return { kind: 'cart', parts: [cartId, normaliseTotal(total)] };
}

/** 49.9, 49.90 and 49.900000001 are one total; binary float noise never makes two keys. */
export function normaliseTotal(total: number): string {
	return String(Number(total.toFixed(6)) + 0);
}

/**
 * An event is a duplicate only for the service account that accepted it, so the key holds the account. JSON keeps
 * ("a:b","c") and ("a","b:c") apart.
 */
export function eventKey(account: string, event: EventIdentity): EventKey {
	const hash = createHash('sha256')
		.update(JSON.stringify([event.kind, account, ...event.parts]))
		.digest('base64url')
		.slice(0, HASH_LENGTH);
	return { label: [event.kind, ...event.parts].join(':'), hash };
}

/**
 * The service account a credential logs in to: its Base URL (scheme and host as the URL standard writes them,
 * no trailing slash) and username, hashed. The password is not part of it (a new password is the same account),
 * nor is the credential's name.
 */
export function accountId(data: ICredentialDataDecryptedObject): string {
	const { baseUrl, username } = readCredentials(data);
	return createHash('sha256').update(JSON.stringify([canonicalBaseUrl(baseUrl), username])).digest('base64url').slice(0, 16);
}

function canonicalBaseUrl(baseUrl: string): string {
	if (!URL.canParse(baseUrl)) return baseUrl;
	const url = new URL(baseUrl);
	return normalizeBaseUrl(`${url.protocol}//${url.host}${url.pathname}`);
}
