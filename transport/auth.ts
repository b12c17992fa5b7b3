import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

/**
 * Pure helpers shared by the credential (login, header injection) and the node's transport (token expiry,
 * plugin headers). Nothing here does I/O, so every rule about secrets and headers is checked in one place.
 */

export const CREDENTIAL_TYPE = 'commerceMessagingApi';

export interface CommerceMessagingCredentials {
	baseUrl: string;
	username: string;
	password: string;
	sessionToken: string;
	pluginIntegration: boolean;
	pluginApiKey: string;
	pluginPlatformType: string;
	pluginBaseUri: string;
}

export function readCredentials(data: ICredentialDataDecryptedObject): CommerceMessagingCredentials {
	const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
	return {
		baseUrl: normalizeBaseUrl(text('baseUrl')),
		username: text('username'),
		password: text('password'),
		sessionToken: text('sessionToken'),
		pluginIntegration: data.pluginIntegration === true,
		pluginApiKey: text('pluginApiKey'),
		pluginPlatformType: text('pluginPlatformType'),
		pluginBaseUri: text('pluginBaseUri'),
	};
}

export function normalizeBaseUrl(url: string): string {
	return url.trim().replace(/\/+$/, '');
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The token and the password travel to this URL, so it must be https. Plain http is allowed only for loopback
 * hosts, where the local emulator runs.
 */
export function assertSafeBaseUrl(baseUrl: string): void {
	if (!URL.canParse(baseUrl)) {
		throw new Error(`The Base URL "${baseUrl}" is not a valid URL. Use the form https://api.example.com`);
	}
	const parsed = new URL(baseUrl);
	const loopback = LOOPBACK_HOSTS.has(parsed.hostname) || /^127\.\d+\.\d+\.\d+$/.test(parsed.hostname);
	if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && loopback)) return;
	throw new Error(
		`The Base URL must use https (got "${parsed.protocol}//${parsed.host}"). Plain http is only allowed for localhost.`,
	);
}

/** A CR or LF in a header value would let a credential field inject extra headers. */
export function assertHeaderValueSafe(fieldLabel: string, value: string): void {
	if (/[\r\n]/.test(value)) {
		throw new Error(`The credential field "${fieldLabel}" contains a line break, which is not allowed in a header`);
	}
}

export const PLUGIN_FIELDS = [
	{ header: 'x-api-key', key: 'pluginApiKey', label: 'Plugin API Key' },
	{ header: 'x-platform-type', key: 'pluginPlatformType', label: 'Platform Type' },
	{ header: 'x-base-uri', key: 'pluginBaseUri', label: 'Shop Base URI' },
] as const;

/** The plugin secret-key headers (rule A5), or the labels of the fields still to fill in. */
export function pluginHeaders(credentials: CommerceMessagingCredentials): {
	headers: IDataObject;
	missing: string[];
} {
	const headers: IDataObject = {};
	const missing: string[] = [];
	for (const field of PLUGIN_FIELDS) {
		const value = credentials.pluginIntegration ? credentials[field.key].trim() : '';
		if (value === '') {
			missing.push(field.label);
			continue;
		}
		assertHeaderValueSafe(field.label, value);
		headers[field.header] = value;
	}
	return { headers, missing };
}

/** The login answer's shape is not shown: accept the usual places a JWT is put. */
export function extractLoginToken(body: unknown): string | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const top = body as IDataObject;
	const data = (top.data && typeof top.data === 'object' ? top.data : {}) as IDataObject;
	for (const candidate of [top.token, top.access_token, top.jwt, data.token, data.access_token, data.jwt]) {
		if (typeof candidate === 'string' && candidate.length > 0) return candidate;
	}
	return undefined;
}

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

/**
 * Whether a token must be renewed before the next request: it is missing, or its `exp` is within a safety
 * margin (a tenth of its lifetime, at most 60 s), so no request leaves with a token that expires in flight.
 */
export function tokenNeedsRenewal(token: string, now = Date.now()): boolean {
	if (!token) return true;
	const { expiresAt, issuedAt } = readTokenTimes(token);
	if (expiresAt === undefined) return false;
	const lifetime = issuedAt !== undefined ? expiresAt - issuedAt : 3_600_000;
	const margin = Math.min(60_000, Math.max(0, lifetime / 10));
	return expiresAt - margin <= now;
}
