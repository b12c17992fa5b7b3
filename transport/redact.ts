import { redactDeep, redactError } from './walkTexts';

/**
 * Rule A6: text from the service (or from an HTTP library quoting the request) that goes into an error, an error
 * item, an output or a log has the session's secrets replaced, so a service echoing the request cannot leak them: in
 * values and object keys, at any depth, in every form a service may write them (JSON escapes such as PHP's `\/` or
 * `\u002f`, URL encoding).
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
	/** The secrets with a space, as URL encoding writes them (`+`): the only other form with no escape in it. */
	private plusForms: string[] = [];
	/** Every secret in every form, as one pattern: made when a text first needs it (a text rarely does). */
	private anyForm?: RegExp;

	add(...values: Array<string | undefined>): void {
		const fresh = values.filter((value): value is string => !!value && value.length >= MIN_SECRET_LENGTH && !this.values.has(value));
		if (fresh.length === 0) return;
		for (const value of fresh) this.values.add(value);
		this.ordered = [...this.values].sort((a, b) => b.length - a.length);
		this.plusForms = this.ordered.filter((secret) => secret.includes(' ')).map((secret) => secret.replace(/ /g, '+'));
		this.anyForm = undefined;
	}

	/** Every secret, in any form, replaced in one text. */
	redactSecrets(text: string): string {
		// A secret in another form than its own needs an escape or an encoded character (or a space written as +).
		if (this.ordered.length === 0) return text;
		const mayHold = /[\\%]/.test(text) || this.ordered.some((secret) => text.includes(secret)) || this.plusForms.some((form) => text.includes(form));
		if (!mayHold) return text;
		this.anyForm ??= new RegExp(this.ordered.map(secretPattern).join('|'), 'g');
		return text.replace(this.anyForm, REDACTED);
	}

	/** Error texts: the secrets, and anything shaped like credentials (a bearer token, a URL's user:password@). */
	redactText(text: string): string {
		return this.redactSecrets(text).replace(USERINFO_IN_URL, `$1${REDACTED}@`).replace(BEARER_VALUE, `$1${REDACTED}`);
	}

	redactError<E>(error: E): E {
		return redactError(error, (text) => this.redactText(text));
	}

	/** An answer's data, redacted in place when its text as received holds a secret of the run in some form (outputs). */
	redactAnswer<T>(data: T, rawText: string): T {
		return this.redactSecrets(rawText) === rawText ? data : redactDeep(data, (text) => this.redactSecrets(text));
	}
}

/** For texts written before a session exists (the credential's login): the given secrets and credential shapes. */
export function redactText(text: string, secrets: readonly string[]): string {
	const set = new SecretSet();
	set.add(...secrets);
	return set.redactText(text);
}
