/**
 * Rule A6: any text that came from the service (or from an HTTP library that quotes the request) and goes into an
 * error, an error item, an output or a log has the secrets of the session replaced, so a service that echoes the
 * request's headers or its login body cannot leak them through the node.
 */
export const REDACTED = '[redacted]';

const USERINFO_IN_URL = /(\/\/)[^\s/@:]+:[^\s/@]*@/g;
const BEARER_VALUE = /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

/** Shorter values are not treated as secrets: replacing "ab" everywhere would garble every text. */
const MIN_SECRET_LENGTH = 4;

/** The secrets of one run: the credential's, and every token it held (an error may quote an old one). */
export class SecretSet {
	private readonly values = new Set<string>();

	/** Longest first, so a secret that contains another is replaced whole. */
	private ordered: string[] = [];

	add(...values: Array<string | undefined>): void {
		let added = false;
		for (const value of values) {
			if (!value || value.length < MIN_SECRET_LENGTH || this.values.has(value)) continue;
			this.values.add(value);
			added = true;
		}
		if (added) this.ordered = [...this.values].sort((a, b) => b.length - a.length);
	}

	list(): readonly string[] {
		return this.ordered;
	}

	/** Error texts: the secrets, and anything shaped like credentials (a bearer token, a URL's user:password@). */
	redactText(text: string): string {
		return redactSecrets(text, this.ordered).replace(USERINFO_IN_URL, `$1${REDACTED}@`).replace(BEARER_VALUE, `$1${REDACTED}`);
	}

	redactError<E>(error: E): E {
		return redactError(error, (text) => this.redactText(text));
	}

	/**
	 * A successful answer's data, redacted in place where it echoes a secret of the session (rule A6 for outputs).
	 * `rawText` is the answer as received: the parsed data is walked only when a secret is in that text (as is or
	 * JSON-escaped, or, when the text uses \u escapes, in the data written out again), so the common answer costs
	 * one substring search per secret.
	 */
	redactAnswer<T>(data: T, rawText: string): T {
		if (this.ordered.length === 0) return data;
		const holds = (text: string) =>
			this.ordered.some((secret) => text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)));
		const mayHold = holds(rawText) || (/\\u[0-9a-fA-F]{4}/.test(rawText) && holds(JSON.stringify(data) ?? ''));
		return mayHold ? redactDeep(data, (text) => redactSecrets(text, this.ordered)) : data;
	}
}

function redactSecrets(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
	return result;
}

/** For texts written before a session exists (the credential's login): the given secrets and credential shapes. */
export function redactText(text: string, secrets: readonly string[]): string {
	const set = new SecretSet();
	set.add(...secrets);
	return set.redactText(text);
}

/**
 * Every string inside a value, redacted in place, at any depth (walked with a stack, cycles tolerated). Plain
 * objects and arrays are walked; other objects (sockets, agents, buffers of an HTTP library's error) are left alone.
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
	if (typeof value === 'string') return redact(value) as T;
	const seen = new WeakSet<object>();
	const stack: unknown[] = [value];
	while (stack.length > 0) {
		const container = stack.pop();
		if (!isWalkable(container) || seen.has(container)) continue;
		seen.add(container);
		const record = container as Record<string | number, unknown>;
		for (const key of Object.keys(record)) {
			const entry = record[key];
			if (typeof entry === 'string') {
				const redacted = redact(entry);
				if (redacted !== entry) assign(record, key, redacted);
			} else if (isWalkable(entry)) {
				stack.push(entry);
			}
		}
	}
	return value;
}

function isWalkable(value: unknown): value is object {
	if (!value || typeof value !== 'object') return false;
	if (Array.isArray(value)) return true;
	const prototype = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

function assign(record: Record<string | number, unknown>, key: string, value: string): void {
	try {
		record[key] = value;
	} catch {
		// A read-only property keeps its value.
	}
}

/**
 * An error's message, description, stack, context and response body redacted in place, and so is every error in
 * its cause chain (their text fields only).
 */
function redactError<E>(error: E, redact: (text: string) => string): E {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const target = current as Record<string, unknown>;
		for (const key of ['message', 'description', 'stack']) {
			if (typeof target[key] === 'string') assign(target, key, redact(target[key] as string));
		}
		for (const key of ['context', 'errorResponse', 'messages']) {
			if (target[key] !== undefined) target[key] = redactDeep(target[key], redact);
		}
		current = target.cause;
	}
	return error;
}
