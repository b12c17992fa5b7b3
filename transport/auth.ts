import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

/** The credential's fields and their rules (A1, A5, A6), pure, for the credential (login, signing) and the transport alike. */

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

export const normalizeBaseUrl = (url: string) => url.trim().replace(/\/+$/, '');

/** The local emulator's hosts: the only ones where plain http is allowed. */
export const isLoopbackHost = (hostname: string) => ['localhost', '127.0.0.1', '[::1]', '::1'].includes(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/**
 * The token and the password travel to this URL: https only (plain http for loopback hosts). A `user:pass@` part is
 * refused, never repeated in the message: it would go along as Basic auth and show wherever the URL is.
 */
export function assertSafeBaseUrl(baseUrl: string): void {
	if (!URL.canParse(baseUrl)) throw new Error('The Base URL is not a valid URL. Use the form https://api.example.com');
	const parsed = new URL(baseUrl);
	if (parsed.username || parsed.password) {
		throw new Error('The Base URL must not contain a user name or password (user:pass@host). Put the username and password in their own fields.');
	}
	if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) return;
	throw new Error(`The Base URL must use https (got "${parsed.protocol}//${parsed.host}"). Plain http is only allowed for localhost.`);
}

/** The first character a header value cannot carry (a control character, a line break, or beyond ISO-8859-1). */
const outsideHeaders = (value: string) => {
	const at = value.search(/[^\x20-\xff]/);
	return at < 0 ? undefined : String.fromCodePoint(value.codePointAt(at)!);
};

export const isHeaderValue = (value: string) => outsideHeaders(value) === undefined;

/** A header value is one line of ISO-8859-1: a CR or LF would inject headers, and clients mangle the rest. */
export function assertHeaderValueSafe(fieldLabel: string, value: string): void {
	if (/[\r\n]/.test(value)) throw new Error(`The credential field "${fieldLabel}" contains a line break, which is not allowed in a header`);
	const outside = outsideHeaders(value);
	if (outside === undefined) return;
	const code = outside.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
	throw new Error(`The credential field "${fieldLabel}" contains a character that cannot be sent in a header (only ISO-8859-1 text is allowed; found U+${code})`);
}

export const PLUGIN_FIELDS = [
	{ header: 'x-api-key', key: 'pluginApiKey', label: 'Plugin API Key' },
	{ header: 'x-platform-type', key: 'pluginPlatformType', label: 'Platform Type' },
	{ header: 'x-base-uri', key: 'pluginBaseUri', label: 'Shop Base URI' },
] as const;

/** The plugin secret-key headers (rule A5): those whose field is filled in, when Plugin Integration is on. */
export function pluginHeaders(credentials: CommerceMessagingCredentials): IDataObject {
	const headers: IDataObject = {};
	if (!credentials.pluginIntegration) return headers;
	for (const field of PLUGIN_FIELDS) {
		const value = credentials[field.key].trim();
		if (value === '') continue;
		assertHeaderValueSafe(field.label, value);
		headers[field.header] = value;
	}
	return headers;
}

/** The credential fields a plugin-header refusal asks for: the switch when it is off, and the fields still empty. */
export function missingPluginFields(credentials: CommerceMessagingCredentials): string[] {
	const empty = PLUGIN_FIELDS.filter((field) => !credentials.pluginIntegration || credentials[field.key].trim() === '').map((field) => field.label);
	return credentials.pluginIntegration ? empty : ['Plugin Integration (switch it on)', ...empty];
}

/** Every field checked before any login (rule A6): an Error naming the field, never repeating a secret. */
export function assertCredentialFieldsUsable(credentials: CommerceMessagingCredentials): void {
	assertSafeBaseUrl(credentials.baseUrl);
	if (!credentials.pluginIntegration) return;
	for (const field of PLUGIN_FIELDS) assertHeaderValueSafe(field.label, credentials[field.key].trim());
}

/** The values that must never appear in an output, an error or a log (rule A6). */
export const credentialSecrets = (credentials: CommerceMessagingCredentials) => [credentials.password, credentials.pluginApiKey, credentials.sessionToken];

/** The login answer's shape is not shown: the usual places a JWT is put. */
export function extractLoginToken(body: unknown): string | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const top = body as IDataObject;
	const data = (top.data && typeof top.data === 'object' ? top.data : {}) as IDataObject;
	const candidates = [top.token, top.access_token, top.jwt, data.token, data.access_token, data.jwt];
	return candidates.find((candidate): candidate is string => typeof candidate === 'string' && candidate.length > 0);
}
