import type { IHttpRequestHelper } from 'n8n-workflow';

import { Address } from './address';
import { extractLoginToken, isHeaderValue, type CommerceMessagingCredentials } from './auth';
import { header, readEnvelope } from './envelope';
import { formatSeconds, LoginFailure } from './errors';
import { exchange, type HttpAnswer } from './http';
import { redactText } from './redact';
import { ROUTES } from './routes';
import { DEFAULT_RETRY } from './settings';

/**
 * Rule A1: the login, which n8n's credentials helper runs through the credential's preAuthentication when a request
 * goes out without a token: one request of its own, failing with a LoginFailure (errors.ts) whose kind decides.
 */

/**
 * What a run allows its login: `cancel`, the execution's signal; `timeoutName`, how messages name the Timeout (none
 * for n8n's credential test and HTTP Request node); `loggedIn`, told so the request gets its own Timeout from then.
 */
export interface LoginLimits {
	timeoutMs: number;
	cancel?: AbortSignal;
	timeoutName?: string;
	loggedIn?: () => void;
}

/** The limits of the run that hands this credential data to n8n, whose credentials helper calls the login with it alone. */
export const loginLimits = new WeakMap<object, LoginLimits>();

/** A login answer carries a token and little else: anything larger is not a login answer. */
const MAX_LOGIN_ANSWER_BYTES = 256 * 1024;
/** JWTs are a few hundred bytes to a few KB; a token that does not fit in a header cannot be used. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/**
 * The username and password exchanged for a JWT with one request, within the run's Timeout. A redirect is not
 * followed (a 307 would re-post the password); both readings of the path are accepted (address.ts). API access (rule
 * A4) is not probed: the first real call reports it, so a login costs one request. Throws a LoginFailure.
 */
export async function logIn(helper: IHttpRequestHelper, credentials: CommerceMessagingCredentials, limitsOf: object): Promise<string> {
	const limits = loginLimits.get(limitsOf) ?? { timeoutMs: DEFAULT_RETRY.timeoutMs };
	const secrets = [credentials.password];
	const address = new Address(credentials.baseUrl, ROUTES.login);
	for (;;) {
		const outcome = await exchange(
			async (options) => await helper.helpers.httpRequest(options),
			{ method: ROUTES.login.method, url: address.target().url, body: JSON.stringify({ username: credentials.username, password: credentials.password }) },
			{ timeoutMs: limits.timeoutMs, maxAnswerBytes: MAX_LOGIN_ANSWER_BYTES, cancel: limits.cancel },
		);
		switch (outcome.kind) {
			case 'answer':
				break;
			case 'network':
				throw outcome.timedOut
					? new LoginFailure('timeout', `the service did not answer within ${formatSeconds(outcome.waitedMs)}${limits.timeoutName ? ` (${limits.timeoutName})` : ''}`)
					: new LoginFailure('unreachable', `the service could not be reached (${redactText(outcome.reason, secrets)})`);
			case 'tooLarge':
				throw new LoginFailure('badAnswer', `the answer is larger than ${MAX_LOGIN_ANSWER_BYTES / 1024} KB, which no login answer is`);
			case 'tooDeep':
				throw new LoginFailure('badAnswer', `the answer is nested more than ${outcome.limit} levels deep, which no login answer is`);
			case 'cancelled':
				throw new LoginFailure('cancelled', 'the execution was cancelled');
			default: {
				const error = outcome.kind === 'thrown' ? outcome.error : outcome.failure;
				const reason = (error as { message?: string })?.message ?? 'network error';
				throw new LoginFailure('unreachable', `the service could not be reached (${redactText(reason, secrets)})`);
			}
		}
		if (outcome.status >= 300 && outcome.status < 400 && outcome.status !== 304) {
			const refusal = address.redirected(outcome.status, header(outcome.headers, 'location'), false);
			if (!refusal) continue;
			throw new LoginFailure('redirect', `${refusal.message}. ${refusal.description}`);
		}
		if (outcome.status === 404 && address.notFound()) continue;
		const token = readToken(outcome, secrets);
		address.served();
		limits.loggedIn?.();
		return token;
	}
}

function readToken(answer: HttpAnswer, secrets: string[]): string {
	const envelope = readEnvelope({ statusCode: answer.status, headers: answer.headers, body: answer.text });
	if (!envelope.ok) {
		const { message, code, httpStatus } = envelope.failure;
		const details = [code ? `code ${code}` : undefined, `HTTP ${httpStatus}`].filter(Boolean).join(', ');
		const kind = httpStatus >= 500 || httpStatus === 429 ? 'busy' : 'refused';
		throw new LoginFailure(kind, redactText(`${message} (${details})`, secrets));
	}
	let body: unknown;
	try {
		body = JSON.parse(answer.text);
	} catch {
		body = undefined;
	}
	const token = extractLoginToken(envelope.data) ?? extractLoginToken(body);
	if (!token) throw new LoginFailure('badAnswer', 'the answer contained no token');
	if (token.length > MAX_TOKEN_LENGTH) {
		throw new LoginFailure(
			'badAnswer',
			`the token in the answer is ${token.length.toLocaleString('en-US')} characters long; a session token must fit in a header (at most ${MAX_TOKEN_LENGTH.toLocaleString('en-US')})`,
		);
	}
	if (!isHeaderValue(token)) {
		throw new LoginFailure('badAnswer', 'the token in the answer contains characters that cannot be sent in a header (a line break or a non-ISO-8859-1 character)');
	}
	return token;
}

