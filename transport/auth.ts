import { createHash, randomBytes } from 'crypto';
import type { ICredentialDataDecryptedObject, IHttpRequestHelper } from 'n8n-workflow';

import { Address } from './address';
import { isObject, readEnvelope } from './answers';
import { LoginFailure } from './failures';
import { formatCount, formatDuration } from './format';
import { exchange } from './http';
import { redactText } from './redact';
import { ROUTES } from './routes';
import {
	DEFAULT_RETRY,
	MAX_ANSWER_DEPTH,
	MAX_LOGIN_ANSWER_BYTES,
	MAX_TOKEN_LENGTH,
} from './settings';

/**
 * The credential's rules (A1-A6), for the credential (login, signing) and the transport alike: its fields and their
 * checks, the plugin headers, the session token's times and the account it belongs to, and the login itself.
 */

export const CREDENTIAL_TYPE = 'commerceMessagingApi';

/** The credential's fields, text fields as text ('' when missing). */
export function readCredentials(data: ICredentialDataDecryptedObject) {
	const text = (key: string) => (typeof data[key] === 'string' ? data[key] : '');
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

type CommerceMessagingCredentials = ReturnType<typeof readCredentials>;

export const normalizeBaseUrl = (url: string) => url.trim().replace(/\/+$/, '');

/** A header value is one line of ISO-8859-1: a CR or LF would inject headers, and clients mangle the rest. */
export function assertHeaderValueSafe(fieldLabel: string, value: string) {
	// A CR or LF is outside ISO-8859-1's printable range too.
	const at = value.search(/[^\x20-\xff]/);
	// Its place, not the character: the field may hold a secret.
	if (at >= 0)
		throw new Error(
			/[\r\n]/.test(value)
				? `The credential field "${fieldLabel}" contains a line break, which is not allowed in a header`
				: `The credential field "${fieldLabel}" contains a character that cannot be sent in a header (only ISO-8859-1 text is allowed; character ${at + 1} is not)`,
		);
}

const PLUGIN_FIELDS = [
	{ header: 'x-api-key', key: 'pluginApiKey', label: 'Plugin API Key' },
	{ header: 'x-platform-type', key: 'pluginPlatformType', label: 'Platform Type' },
	{ header: 'x-base-uri', key: 'pluginBaseUri', label: 'Shop Base URI' },
] as const;

/**
 * Every field checked before any login (rule A6): an Error naming the field, never repeating a secret. The token and
 * the password travel to the Base URL: https only (plain http for loopback hosts, the local emulator's). A
 * `user:pass@` part is refused, never repeated in the message: it would go along as Basic auth and show wherever the
 * URL is.
 */
export function assertCredentialFieldsUsable(credentials: CommerceMessagingCredentials) {
	if (!URL.canParse(credentials.baseUrl))
		throw new Error('The Base URL is not a valid URL. Use the form https://api.example.com');
	const { username, password, protocol, hostname, host } = new URL(credentials.baseUrl);
	if (username || password) {
		throw new Error(
			'The Base URL must not contain a user name or password (user:pass@host). Put the username and password in their own fields.',
		);
	}
	const loopback =
		['localhost', '[::1]'].includes(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
	if (protocol !== 'https:' && !(protocol === 'http:' && loopback)) {
		throw new Error(
			`The Base URL must use https (got "${protocol}//${host}"). Plain http is only allowed for localhost.`,
		);
	}
	if (credentials.pluginIntegration)
		for (const field of PLUGIN_FIELDS)
			assertHeaderValueSafe(field.label, credentials[field.key].trim());
}

/** The plugin secret-key headers (rule A5): those filled in, when Plugin Integration is on. */
export const pluginHeaders = (credentials: CommerceMessagingCredentials) =>
	Object.fromEntries(
		credentials.pluginIntegration
			? PLUGIN_FIELDS.map((field) => [field.header, credentials[field.key].trim()]).filter(
					([, value]) => value,
				)
			: [],
	);

/**
 * The credential fields a plugin-header refusal asks for: the switch when it is off, and the fields whose header is not
 * sent (all of them while it is off).
 */
export function missingPluginFields(credentials: CommerceMessagingCredentials) {
	const sent = pluginHeaders(credentials);
	const empty = PLUGIN_FIELDS.filter((field) => !sent[field.header]).map((field) => field.label);
	return credentials.pluginIntegration ? empty : ['Plugin Integration (switch it on)', ...empty];
}

/**
 * The seal stored beside a session token: a salted hash of the account (Base URL, username and password: what a token
 * is issued for) that obtained it. n8n keeps hidden fields through an edit of the credential, so a token whose seal
 * does not match is never sent. With an empty salt: the same for every copy of the account's credential, its key in
 * the transport's table of tokens (a hash: no secret sits in a key).
 */
export function sealFor(
	credentials: CommerceMessagingCredentials,
	salt = randomBytes(9).toString('base64url'),
) {
	return `v1.${salt}.${createHash('sha256')
		.update(salt)
		.update(JSON.stringify([credentials.baseUrl, credentials.username, credentials.password]))
		.digest('base64url')}`;
}

export function isSealedFor(
	data: ICredentialDataDecryptedObject,
	credentials: CommerceMessagingCredentials,
) {
	const seal = data.sessionTokenSeal;
	return typeof seal === 'string' && sealFor(credentials, seal.split('.')[1] ?? '') === seal;
}

/** `exp` and `iat` of a JWT in ms, read without verifying the signature (the service does that); an opaque token has none. */
export function readTokenTimes(token: string) {
	try {
		const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
		const ms = (value: unknown) => (typeof value === 'number' ? value * 1000 : undefined);
		return { expiresAt: ms(claims.exp), issuedAt: ms(claims.iat) };
	} catch {
		return {};
	}
}

/**
 * Whether the token in `data` should be renewed before its next request (rule A3): missing, or within a tenth of its
 * lifetime (at most a minute) of its end. Its end is judged by this machine's clock only: the local time it was
 * received plus its lifetime (`exp - iat`), so a service clock hours off costs one login per lifetime, not one per
 * request. `iat` has whole seconds: where the two clocks agree, the token was up to that old on arrival.
 */
export function tokenNeedsRenewal(data: ICredentialDataDecryptedObject, now = Date.now()) {
	if (typeof data.sessionToken !== 'string' || !data.sessionToken) return true;
	const { expiresAt, issuedAt } = readTokenTimes(data.sessionToken);
	if (expiresAt === undefined) return false;
	const receivedAt = data.loginReceivedAt;
	// No lifetime to measure, or no local time of receipt: the only clue left is exp against the local clock.
	if (
		issuedAt === undefined ||
		expiresAt <= issuedAt ||
		!(typeof receivedAt === 'number' && receivedAt > 0)
	)
		return expiresAt - 60_000 <= now;
	const lifetime = expiresAt - issuedAt;
	// Received within moments of iat (the clocks agree): its life counts from iat.
	const start = receivedAt - issuedAt >= 0 && receivedAt - issuedAt < 2_000 ? issuedAt : receivedAt;
	return start + lifetime - Math.min(60_000, lifetime / 10) <= now;
}

/**
 * What a run allows the login that n8n's helper makes on its behalf (its Timeout, its cancel signal, how messages name
 * the Timeout), carried on the credential data the run hands to n8n, which passes that same object to the login. A
 * non-enumerable symbol: never copied, never saved. n8n's credential test and HTTP Request node carry none.
 */
export const LOGIN_LIMITS = Symbol.for('n8n-nodes-commerce-messaging.loginLimits');

/**
 * Rule A1: the username and password exchanged for a JWT, with one request within the run's Timeout. A redirect is not
 * followed (a 307 would re-post the password) but to the path's other spelling; API access (rule A4) is not probed: the
 * first real call reports it, so a login costs one request. Answers the credential's new token fields; throws a
 * LoginFailure. It is the credential's preAuthentication: `this` is n8n's request helper.
 */
export async function logIn(this: IHttpRequestHelper, data: ICredentialDataDecryptedObject) {
	const credentials = readCredentials(data);
	// Every field is checked before the password leaves n8n.
	assertCredentialFieldsUsable(credentials);
	const { baseUrl, username, password } = credentials;
	const limits = (
		data as { [LOGIN_LIMITS]?: { timeoutMs: number; cancel?: AbortSignal; timeoutName?: string } }
	)[LOGIN_LIMITS] ?? { timeoutMs: DEFAULT_RETRY.timeoutMs };
	const redact = (text: string) => redactText(text, [password]);
	const address = new Address(baseUrl, ROUTES.login);
	for (;;) {
		const answer = await exchange(
			(options) => this.helpers.httpRequest(options),
			{ method: 'POST', url: address.target().url, body: JSON.stringify({ username, password }) },
			{ ...limits, maxAnswerBytes: MAX_LOGIN_ANSWER_BYTES },
		);
		if (answer.kind === 'network' && answer.timedOut) {
			throw new LoginFailure(
				`the service did not answer within ${formatDuration(answer.waitedMs)}${limits.timeoutName ? ` (${limits.timeoutName})` : ''}`,
			);
		}
		if (answer.kind === 'tooLarge' || answer.kind === 'tooDeep') {
			const size =
				answer.kind === 'tooLarge'
					? `larger than ${MAX_LOGIN_ANSWER_BYTES / 1024} KB`
					: `nested more than ${MAX_ANSWER_DEPTH} levels deep`;
			throw new LoginFailure(`the answer is ${size}, which no login answer is`);
		}
		if (answer.kind === 'cancelled') throw new LoginFailure('the execution was cancelled');
		if (answer.kind !== 'answer') {
			const reason =
				answer.kind === 'network'
					? answer.reason
					: ((answer.kind === 'thrown' ? answer.error : answer.failure) as Error | undefined)
							?.message;
			throw new LoginFailure(
				`the service could not be reached (${redact(reason ?? 'network error')})`,
				'connection',
			);
		}
		const rerouted = address.reroute(answer.status, answer.headers, false);
		if (rerouted === true) continue;
		if (rerouted) throw new LoginFailure(`${rerouted.message}. ${rerouted.description}`);
		const envelope = readEnvelope(answer.status, answer.headers, answer.text, redact);
		if (!envelope.ok) {
			const { message, code, httpStatus, retryAfterMs, kind } = envelope.failure;
			throw new LoginFailure(
				redact(`${message} (${code ? `code ${code}, ` : ''}HTTP ${httpStatus})`),
				kind === 'rateLimit' ? 'rate limit' : kind === 'unavailable' ? 'service error' : undefined,
				retryAfterMs,
				{ httpStatus, code, message: redact(message) },
			);
		}
		address.served();
		// The login answer's shape is not shown: the usual places a JWT is put, in its data or beside it (LexikJWT's
		// token with the user's data).
		const token = [envelope.data, envelope.body]
			.flatMap((place) => (isObject(place) ? [place.token, place.access_token, place.jwt] : []))
			.find((token): token is string => typeof token === 'string' && token.length > 0);
		if (!token) throw new LoginFailure('the answer contained no token');
		if (token.length > MAX_TOKEN_LENGTH) {
			throw new LoginFailure(
				`the token in the answer is ${formatCount(token.length)} characters long; a session token must fit in a header (at most ${formatCount(MAX_TOKEN_LENGTH)})`,
			);
		}
		if (/[^\x20-\xff]/.test(token)) {
			throw new LoginFailure(
				'the token in the answer contains characters that cannot be sent in a header (a line break or a non-ISO-8859-1 character)',
			);
		}
		return {
			sessionToken: token,
			loginReceivedAt: Date.now(),
			sessionTokenSeal: sealFor(credentials),
		};
	}
}
