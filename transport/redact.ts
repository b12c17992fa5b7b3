/**
 * Rule A6: any text that came from the service (or from an HTTP library that quotes the request) and goes into an
 * error, an error item or a log has the secrets of the session replaced, so a service that echoes the request's
 * headers in its error page cannot leak them through the node.
 */
export const REDACTED = '[redacted]';

const USERINFO_IN_URL = /(\/\/)[^\s/@:]+:[^\s/@]*@/g;
const BEARER_VALUE = /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

export function redactText(text: string, secrets: readonly string[]): string {
	let result = text;
	// Longest first, so a secret that contains another is replaced whole.
	for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
		if (secret) result = result.split(secret).join(REDACTED);
	}
	return result.replace(USERINFO_IN_URL, `$1${REDACTED}@`).replace(BEARER_VALUE, `$1${REDACTED}`);
}

/**
 * Every string inside a value, redacted in place: plain objects and arrays are walked (to a bounded depth, cycles
 * tolerated); other objects (sockets, agents, buffers of an HTTP library's error) are left alone.
 */
export function redactDeep<T>(value: T, secrets: readonly string[], depth = 0, seen = new WeakSet<object>()): T {
	if (typeof value === 'string') return redactText(value, secrets) as T;
	if (!value || typeof value !== 'object' || depth > MAX_DEPTH || seen.has(value)) return value;
	seen.add(value);
	if (Array.isArray(value)) {
		value.forEach((entry, index) => (value[index] = redactDeep(entry, secrets, depth + 1, seen)));
		return value;
	}
	const prototype = Object.getPrototypeOf(value);
	if (prototype !== Object.prototype && prototype !== null) return value;
	const record = value as Record<string, unknown>;
	for (const key of Object.keys(record)) {
		try {
			record[key] = redactDeep(record[key], secrets, depth + 1, seen);
		} catch {
			// A read-only property keeps its value.
		}
	}
	return value;
}

const MAX_DEPTH = 8;

/**
 * An error's message, description, stack, context and response body redacted in place, and so is every error in
 * its cause chain (their text fields only).
 */
export function redactError<E>(error: E, secrets: readonly string[]): E {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const target = current as Record<string, unknown>;
		for (const key of ['message', 'description', 'stack']) {
			if (typeof target[key] === 'string') target[key] = redactText(target[key] as string, secrets);
		}
		for (const key of ['context', 'errorResponse', 'messages']) {
			if (target[key] !== undefined) target[key] = redactDeep(target[key], secrets);
		}
		current = target.cause;
	}
	return error;
}
