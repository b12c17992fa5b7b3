/**
 * Why a login failed, as a kind the transport decides on (never by the message's words). The message is worded for
 * the user and never contains the password (rule A6).
 */
export type LoginFailureKind =
	/** No connection (refused, no such host): nothing was sent; a later item may try again. */
	| 'unreachable'
	/** The service did not answer within the run's Timeout: the run does not try again. */
	| 'timeout'
	/** HTTP 5xx or 429: the service is busy; a later item may try again. */
	| 'busy'
	/** The service refused the login (wrong password, unknown user, ...). */
	| 'refused'
	/** A redirect (never followed with the password). */
	| 'redirect'
	/** An answer without a usable token. */
	| 'badAnswer'
	/** The execution was cancelled while logging in. */
	| 'cancelled';

/** Failures that may pass: the next item of the run tries again. The others are the run's answer for every item. */
const PASSING: ReadonlySet<LoginFailureKind> = new Set(['unreachable', 'busy']);

export class LoginFailure extends Error {
	constructor(
		readonly kind: LoginFailureKind,
		reason: string,
	) {
		super(`Login to the Commerce Messaging service failed: ${reason}`);
		this.name = 'LoginFailure';
	}

	get passing(): boolean {
		return PASSING.has(this.kind);
	}
}

/** The login failure behind an error n8n's helper threw (it wraps what the credential's login threw). */
export function findLoginFailure(error: unknown): LoginFailure | undefined {
	const seen = new Set<unknown>();
	let current = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		// By shape as well: a credential loaded apart from the node could carry its own copy of this class.
		if (current instanceof LoginFailure || isLoginFailureShaped(current)) return current as LoginFailure;
		seen.add(current);
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

function isLoginFailureShaped(value: object): boolean {
	const candidate = value as Partial<LoginFailure>;
	return candidate.name === 'LoginFailure' && typeof candidate.kind === 'string' && typeof candidate.passing === 'boolean';
}
