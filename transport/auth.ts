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

/** True for the local emulator's hosts, the only ones where plain http is allowed. */
export function isLoopbackHost(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * The token and the password travel to this URL, so it must be https. Plain http is allowed only for loopback
 * hosts, where the local emulator runs. A `user:pass@` part is refused (and never repeated in the message): it
 * would be sent along as Basic auth and shown wherever the URL is.
 */
export function assertSafeBaseUrl(baseUrl: string): void {
	if (!URL.canParse(baseUrl)) {
		throw new Error('The Base URL is not a valid URL. Use the form https://api.example.com');
	}
	const parsed = new URL(baseUrl);
	if (parsed.username || parsed.password) {
		throw new Error(
			'The Base URL must not contain a user name or password (user:pass@host). Put the username and password in their own fields.',
		);
	}
	if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) return;
	throw new Error(
		`The Base URL must use https (got "${parsed.protocol}//${parsed.host}"). Plain http is only allowed for localhost.`,
	);
}

/**
 * A header value must be one line of ISO-8859-1: a CR or LF would let a credential field inject extra headers,
 * and HTTP clients silently drop or mangle other characters.
 */
export function assertHeaderValueSafe(fieldLabel: string, value: string): void {
	if (/[\r\n]/.test(value)) {
		throw new Error(`The credential field "${fieldLabel}" contains a line break, which is not allowed in a header`);
	}
	const outside = charactersOutsideHeaders(value);
	if (outside !== undefined) {
		throw new Error(
			`The credential field "${fieldLabel}" contains a character that cannot be sent in a header (only ISO-8859-1 text is allowed; found U+${outside.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`,
		);
	}
}

/** The first character a header value cannot carry (a control character, a line break, or beyond ISO-8859-1). */
function charactersOutsideHeaders(value: string): string | undefined {
	return [...value].find((character) => character.charCodeAt(0) > 0xff || character.charCodeAt(0) < 0x20);
}

/** Whether a value can be sent as a header as it is. */
export function isHeaderValue(value: string): boolean {
	return charactersOutsideHeaders(value) === undefined;
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

/**
 * Every credential field checked before any login (rule A6): the Base URL, and the fields that become headers.
 * Throws an Error whose message names the field and never repeats a secret.
 */
export function assertCredentialFieldsUsable(credentials: CommerceMessagingCredentials): void {
	assertSafeBaseUrl(credentials.baseUrl);
	if (!credentials.pluginIntegration) return;
	for (const field of PLUGIN_FIELDS) assertHeaderValueSafe(field.label, credentials[field.key].trim());
}

/** The values that must never appear in an output, an error or a log (rule A6). */
export function credentialSecrets(credentials: CommerceMessagingCredentials): string[] {
	return [credentials.password, credentials.pluginApiKey, credentials.sessionToken].filter((value) => value.length >= 4);
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
