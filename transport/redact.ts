/**
 * Rule A6: any text that came from the service (or from an HTTP library that quotes the request) and goes into an
 * error, an error item, an output or a log has the secrets of the session replaced, so a service that echoes the
 * request's headers or its login body cannot leak them through the node: in values and in object keys, at any
 * depth, and in every form a service may write them (JSON escapes such as PHP's `\/` or `\u002f`, URL encoding).
 */
export const REDACTED = '[redacted]';

const USERINFO_IN_URL = /(\/\/)[^\s/@:]+:[^\s/@]*@/g;
const BEARER_VALUE = /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

/** Shorter values are not treated as secrets: replacing "ab" everywhere would garble every text. */
const MIN_SECRET_LENGTH = 4;

const JSON_SHORT_ESCAPES: Record<string, string> = { '"': '\\\\"', '\\': '\\\\\\\\', '/': '\\\\/', '\b': '\\\\b', '\f': '\\\\f', '\n': '\\\\n', '\r': '\\\\r', '\t': '\\\\t' };

/** A hex digit in either case, for a regular expression (the rest of the secret keeps its case). */
const hexDigits = (value: number, width: number) =>
	[...value.toString(16).padStart(width, '0')].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');

/**
 * A pattern for one secret in any of its written forms, character by character: as it is, as a JSON `\uXXXX` escape
 * or a short escape (`\/`), or URL-encoded (`%XX` per UTF-8 byte, `+` for a space).
 */
function secretPattern(secret: string): string {
	let pattern = '';
	for (const character of secret) {
		const forms = [character.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')];
		forms.push([...Array(character.length).keys()].map((unit) => `\\\\u${hexDigits(character.charCodeAt(unit), 4)}`).join(''));
		if (JSON_SHORT_ESCAPES[character]) forms.push(JSON_SHORT_ESCAPES[character]);
		forms.push([...Buffer.from(character, 'utf8')].map((byte) => `%${hexDigits(byte, 2)}`).join(''));
		if (character === ' ') forms.push('\\+');
		pattern += `(?:${forms.join('|')})`;
	}
	return pattern;
}

/** The secrets of one run: the credential's, and every token it held (an error may quote an old one). */
export class SecretSet {
	private readonly values = new Set<string>();

	/** Longest first, so a secret that contains another is replaced whole. */
	private ordered: string[] = [];

	/** Every secret in every form, as one pattern (made again when a secret is added). */
	private anyForm?: RegExp;

	add(...values: Array<string | undefined>): void {
		let added = false;
		for (const value of values) {
			if (!value || value.length < MIN_SECRET_LENGTH || this.values.has(value)) continue;
			this.values.add(value);
			added = true;
		}
		if (!added) return;
		this.ordered = [...this.values].sort((a, b) => b.length - a.length);
		this.anyForm = new RegExp(this.ordered.map(secretPattern).join('|'), 'g');
	}

	list(): readonly string[] {
		return this.ordered;
	}

	/** Every secret, in any form, replaced in one text. */
	redactSecrets(text: string): string {
		if (!this.anyForm) return text;
		const literal = this.ordered.some((secret) => text.includes(secret));
		// Only a text with an escape or an encoded character can hold a secret in another form.
		if (!literal && !/[\\%+]/.test(text)) return text;
		return text.replace(this.anyForm, REDACTED);
	}

	/** Error texts: the secrets, and anything shaped like credentials (a bearer token, a URL's user:password@). */
	redactText(text: string): string {
		return this.redactSecrets(text).replace(USERINFO_IN_URL, `$1${REDACTED}@`).replace(BEARER_VALUE, `$1${REDACTED}`);
	}

	redactError<E>(error: E): E {
		return redactError(error, (text) => this.redactText(text));
	}

	/**
	 * A successful answer's data, redacted in place where it echoes a secret of the session (rule A6 for outputs).
	 * `rawText` is the answer as received: the parsed data is walked only when its text may hold a secret in some
	 * form, so the common answer costs one substring search per secret.
	 */
	redactAnswer<T>(data: T, rawText: string): T {
		if (this.redactSecrets(rawText) === rawText) return data;
		return redactDeep(data, (text) => this.redactSecrets(text));
	}
}

/** For texts written before a session exists (the credential's login): the given secrets and credential shapes. */
export function redactText(text: string, secrets: readonly string[]): string {
	const set = new SecretSet();
	set.add(...secrets);
	return set.redactText(text);
}

/**
 * Every string inside a value, redacted in place at any depth (walked with a stack, cycles tolerated): values, and
 * the keys of plain objects. Plain objects and arrays are walked; other objects (sockets, agents, buffers of an HTTP
 * library's error) are left alone.
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
			const redactedKey = Array.isArray(record) ? key : redact(key);
			if (redactedKey !== key) {
				assign(record, redactedKey, record[key]);
				delete record[key];
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

function assign(record: Record<string | number, unknown>, key: string, value: unknown): void {
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
