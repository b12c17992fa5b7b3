/**
 * Rule A6: text from the service (or from an HTTP library quoting the request) that goes into an error, an error
 * item, an output or a log has the session's secrets replaced, so a service echoing the request cannot leak them: in
 * values and object keys, at any depth, in every form a service may write them (JSON escapes such as PHP's `\/` or
 * `\u002f`, URL encoding), in any mix of forms.
 */
export const REDACTED = '[redacted]';

const USERINFO_IN_URL = /(\/\/)[^\s/@:]+:[^\s/@]*@/g;
const BEARER_VALUE = /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

const NAMED_REFERENCES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
};

/**
 * HTML's character references (`&amp;`, `&#39;`, `&#x27;`) as the characters they stand for, their `&` also as JSON
 * may escape it (`\u0026amp;`); unknown ones are kept.
 */
export const decodeCharacterReferences = (text: string) =>
	text.replace(/(?:&|\\u0026)(#x[\da-f]+|#\d+|[a-z]+);/gi, (reference, name: string) => {
		const code = name.startsWith('#') ? Number(name.slice(1).replace(/^x/i, '0x')) : NaN;
		return code <= 0x10ffff
			? String.fromCodePoint(code)
			: (NAMED_REFERENCES[name.toLowerCase()] ?? reference);
	});

/** Shorter values are not treated as secrets: replacing "ab" everywhere would garble every text. */
const MIN_SECRET_LENGTH = 4;

/** The work of every search so far (characters read, comparisons): tests bound it by the text's length. */
export const searchWork = { steps: 0 };

/*
 * How a secret is found in every form without a regular expression built from it (a long token overflows the regular
 * expression compiler's stack) and in time linear in the text, whatever the secret:
 * - Texts and secrets are compared as units. A "chunk", a JSON `\uXXXX` escape or a %-encoded UTF-8 character, is the
 *   character it encodes; a control character reads as the letter of its JSON escape (`\n`: a backslash and an n);
 *   `+` reads as a space. A backslash before a quote, a slash, a backslash or such a letter counts for nothing, since
 *   it may be their escape or the secret's own: `\"`, `\/`, `\\` and a backslash as it is then read alike. A few
 *   texts that no form spells are found too (`a+b` for `a b`, a stray backslash): harmless.
 * - Whether a chunk starts at a place depends on the next characters alone, and whether a backslash counts on what
 *   follows it, so the text is read from its end, once, each secret searched by KMP over its reversed units.
 * - A secret may start inside a chunk, in text that is no JSON (`\u00` before a token starting "41"): per KMP state,
 *   a table says in one step whether the secret without its first k units follows the chunk.
 * - A secret that ends with the start of a chunk (`50%`) or with a backslash is searched without that end, which is
 *   then compared in any form, or as written where what follows completes the chunk (`50%41`).
 * - A secret holding chunks of its own (`%41` in a password) is searched with each decoded, as written, or JSON-escaped.
 * - A secret of few units besides its backslashes is only taken where the text spells it with as many characters.
 */

const isHex = (code: number) =>
	(code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);

/** The value of the `digits` hex digits after the character `prefix` at `at` (`%41`, `u0041`), or -1. */
function hexAfter(text: string, at: number, prefix: number, digits: number) {
	if (text.charCodeAt(at) !== prefix) return -1;
	let value = 0;
	for (let i = at + 1; i <= at + digits; i++) {
		const code = text.charCodeAt(i);
		if (!isHex(code)) return -1;
		value = value * 16 + (code <= 57 ? code - 48 : (code | 32) - 87);
	}
	return value;
}

/** The chunk that starts at `at`, as its code point * 16 + its length (6, or 3 per byte), or -1. */
function chunkAt(text: string, at: number) {
	if (text.charCodeAt(at) === 92) {
		const unit = hexAfter(text, at + 1, 117, 4);
		return unit < 0 ? -1 : unit * 16 + 6;
	}
	const lead = hexAfter(text, at, 37, 2);
	if (lead < 0x80) return lead < 0 ? -1 : lead * 16 + 3;
	const bytes = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
	let codePoint = lead & (0x7f >> bytes);
	for (let i = 1; i < bytes; i++) {
		const byte = hexAfter(text, at + 3 * i, 37, 2);
		if (byte < 0x80 || byte > 0xbf) return -1;
		codePoint = codePoint * 64 + (byte & 0x3f);
	}
	return bytes > 0 && codePoint <= 0x10ffff ? codePoint * 16 + 3 * bytes : -1;
}

/** The chunk that ends at `end` (chunks never overlap, so there is at most one), or -1. */
function chunkEndingAt(text: string, end: number) {
	// A `\uXXXX` chunk is as long as a 2-byte %-chunk.
	for (let length = 3; length <= 12; length += 3) {
		const chunk = chunkAt(text, end - length);
		if (chunk % 16 === length) return chunk;
	}
	return -1;
}

/** The unit of each ASCII character: `+` is a space, a control character the letter of its JSON escape. */
const ASCII_UNITS = Uint16Array.from(
	{ length: 128 },
	(_, code) => ({ 43: 32, 8: 98, 9: 116, 10: 110, 12: 102, 13: 114 })[code] ?? code,
);

/** The unit a character is compared as. */
const unitOf = (code: number) => (code < 128 ? ASCII_UNITS[code] : code);

/**
 * A backslash before one of these units (`\ " / b f n r t`) counts for nothing: it may be their JSON escape (`\"`,
 * `\\`, `\n`) or be itself.
 */
const ESCAPABLE_UNITS = new Set([92, 34, 47, 98, 102, 110, 114, 116]);

/**
 * A text's units. `spelling` says how to read each of its chunks: 0 character by character (the default), 1 decoded,
 * 2 decoded after a backslash (a secret's own `\u0041` in JSON: `\\u0041`).
 */
function unitsOf(text: string, spelling: (index: number, isEscape: boolean) => number = () => 0) {
	const codePoints: number[] = [];
	for (let at = 0, index = 0; at < text.length; ) {
		const chunk = chunkAt(text, at);
		const how = chunk >= 0 ? spelling(index++, text[at] === '\\') : 0;
		if (how === 2) codePoints.push(92);
		codePoints.push(how ? chunk >> 4 : text.charCodeAt(at));
		at += how ? chunk % 16 : 1;
	}
	return codePoints
		.map((codePoint, i) =>
			codePoint === 92 && ESCAPABLE_UNITS.has(unitOf(codePoints[i + 1]))
				? ''
				: String.fromCodePoint(unitOf(codePoint)),
		)
		.join('');
}

/**
 * The ways a secret holding chunks of its own may be written: each chunk as it is, decoded or (`\uXXXX` ones) JSON-
 * escaped. Past 16 ways, the ways of encoders only: all `\uXXXX` chunks one way, and all %-chunks one way.
 */
function spellingsOf(secret: string): Array<(index: number, isEscape: boolean) => number> {
	// The number of ways to write the chunks before each chunk, then all of them.
	const counts = [1];
	unitsOf(secret, (_index, isEscape) => {
		counts.push(counts.at(-1)! * (isEscape ? 3 : 2));
		return 0;
	});
	const count = counts.at(-1)!;
	if (count > 16)
		return [0, 1, 2, 3, 4, 5].map(
			(n) => (_index, isEscape) => (isEscape ? n % 3 : Math.floor(n / 3)),
		);
	return [...Array(count).keys()].map(
		(n) => (index) => Math.floor((n % counts[index + 1]) / counts[index]),
	);
}

/**
 * A secret's end that what follows it may change: the start of a chunk (`\u0`, `%`, `%4`, `%c3%a`), which it may
 * complete, with a backslash before it (whether that counts depends on what follows it).
 */
const CHUNK_START_AT_END =
	/\\?(\\u[0-9a-fA-F]{0,3}|%[0-9a-fA-F]?|%[c-fC-F][0-9a-fA-F](%[89abAB][0-9a-fA-F]){0,2}(%[89abAB]?)?)$/;

/** The longest start inside a chunk the tables look for: the tail of a 4-byte %-chunk after its first `%`. */
const MAX_START_INSIDE = 11;

/** The patterns of a secret: one per spelling. */
function patternsOf(secret: string) {
	const whole = spellingsOf(secret).map((spelling) => unitsOf(secret, spelling));
	let tail = CHUNK_START_AT_END.exec(secret)?.[0] ?? '';
	let tailUnits = unitsOf(tail);
	// No tail when it is a whole %-chunk (`%c3%a9`; a `\u` tail holds no `%`) or has as many units as a spelling.
	if (
		chunkAt(tail, tail.indexOf('%')) >= 0 ||
		whole.some((units) => units.length <= tailUnits.length)
	)
		tail = tailUnits = '';
	// The units before the tail are read with it: whether a backslash counts depends on what follows it.
	const spellings = new Set(whole.map((units) => units.slice(0, units.length - tailUnits.length)));
	const tailSplits = [...tail]
		.map((_, at): [string, string] => [
			unitsOf(tail.slice(0, at)).replace(/\\$/, ''),
			tail.slice(at),
		])
		.filter(([, rest]) => /^[%\\]/.test(rest));
	const tailReach =
		6 * (tail.length + /\\*$/.exec(secret.slice(0, secret.length - tail.length))![0].length) + 1;
	const widenStart =
		2 * /^\\*/.exec(secret)![0].length + (/^\\*["/\b\f\n\r\t]/.test(secret) ? 1 : 0);
	const widenEnd = 2 * /\\*$/.exec(secret)![0].length;
	return [...spellings].map((spelling) => {
		const backslashAfter = !tail && spelling.length > 1 && spelling.endsWith('\\');
		const units = backslashAfter ? spelling.slice(0, -1) : spelling;
		const reversed = units.split('').reverse().join('');
		const length = reversed.length;
		const borders = new Int32Array(length);
		for (let i = 1, border = 0; i < length; i++) {
			while (border > 0 && reversed[i] !== reversed[border]) border = borders[border - 1];
			if (reversed[i] === reversed[border]) border++;
			borders[i] = border;
		}
		const restMatched = new Uint16Array(length + 1);
		for (let state = 1; state <= length; state++) {
			const skipped = length - state;
			restMatched[state] =
				restMatched[borders[state - 1]] | (skipped <= MAX_START_INSIDE ? 1 << skipped : 0);
		}
		return {
			units,
			reversed,
			/** KMP's failure function of `reversed`. */
			borders,
			/**
			 * For a state (units matched), bit k is set when the secret's units but the first k (up to MAX_START_INSIDE)
			 * are matched.
			 */
			restMatched,
			/** The secret's end searched as written (CHUNK_START_AT_END), and its units when it is written otherwise. */
			tail,
			tailUnits,
			/**
			 * Where a chunk may start in the tail: the tail's units before that place (a last backslash left out), and
			 * the rest.
			 */
			tailSplits,
			/**
			 * How far the tail's forms may reach, with those of the backslashes before it (a form is 6 characters at
			 * most).
			 */
			tailReach,
			/** Backslashes a match takes in beyond its units: escapes of the secret's backslashes, `\"` before a quote. */
			widenStart,
			widenEnd,
			/**
			 * A last backslash counts only before what follows it (not before a quote): a match needs one written
			 * after it.
			 */
			backslashAfter,
			/** A secret with few units besides its backslashes is only where the text spells it with as many characters. */
			minSpan: spelling.length + tailUnits.length < MIN_SECRET_LENGTH ? secret.length : 0,
		};
	});
}

/** One way to read a secret, searched from the text's end. */
type Pattern = ReturnType<typeof patternsOf>[number];

/** Where a match whose units end at `at` really ends: after its tail, in any form or as written; -1 if none follows. */
function tailEnd(text: string, at: number, pattern: Pattern) {
	const { tailUnits, tailSplits } = pattern;
	let longest = -1;
	let read = '';
	// A backslash read last counts or not depending on what follows it.
	let backslash = false;
	for (let end = at; end - at <= pattern.tailReach; ) {
		searchWork.steps++;
		if (!tailUnits.startsWith(read)) break;
		if (read + (backslash ? '\\' : '') === tailUnits) longest = end;
		const chunk = chunkAt(text, end);
		// What follows may complete a chunk the tail starts (`50%` before `41`): from there the tail is as written.
		for (const [before, rest] of tailSplits) {
			if (before === read && text.startsWith(rest, end) && chunk % 16 > rest.length)
				longest = Math.max(longest, end + rest.length);
		}
		if (end >= text.length) break;
		const codePoint = chunk >= 0 ? chunk >> 4 : text.charCodeAt(end);
		if (backslash && !ESCAPABLE_UNITS.has(unitOf(codePoint))) read += '\\';
		backslash = codePoint === 92;
		if (!backslash) read += String.fromCodePoint(unitOf(codePoint));
		end += chunk >= 0 ? chunk % 16 : 1;
	}
	return longest;
}

/**
 * The length of the backslash written at `at` as it is, or as the chunk `chunk` (`\u005c` or `%5C`: by default the
 * one starting at `at`), or 0.
 */
function backslashAt(text: string, at: number, chunk = chunkAt(text, at)) {
	return chunk >> 4 === 92 ? chunk % 16 : text.charCodeAt(at) === 92 ? 1 : 0;
}

/** Every place a secret is, in any form: [start, end] pairs, overlaps merged, rightmost first. */
function findSecrets(text: string, patterns: Pattern[]) {
	const spans: number[] = [];
	let steps = 0;
	let read = 0;
	// Where each of the last units read ends (a ring as long as the longest secret): where a match ends.
	const ringMask =
		2 ** Math.ceil(Math.log2(Math.max(...patterns.map((pattern) => pattern.units.length)) + 1)) - 1;
	const unitEnds = new Int32Array(ringMask + 1);
	// Per pattern, KMP's state: how many of its reversed units end the units read.
	const states = new Int32Array(patterns.length);
	const found = (pattern: Pattern, start: number, end: number) => {
		if (pattern.tail) end = tailEnd(text, end, pattern);
		const backslash = pattern.backslashAfter ? backslashAt(text, end) : 0;
		if (end < 0 || (pattern.backslashAfter && !backslash)) return;
		end += backslash;
		for (
			let n = pattern.widenStart, length;
			n > 0 && (length = backslashAt(text, start - 1, chunkEndingAt(text, start))) > 0;
			n--
		)
			start -= length;
		for (let n = pattern.widenEnd, length; n > 0 && (length = backslashAt(text, end)) > 0; n--)
			end += length;
		if (end - start < pattern.minSpan) return;
		while (spans.length > 0 && end > spans[spans.length - 2] && start < spans[spans.length - 1]) {
			end = Math.max(end, spans.pop()!);
			start = Math.min(start, spans.pop()!);
		}
		spans.push(start, end);
	};
	const readUnit = (unit: number, start: number, end: number) => {
		unitEnds[read & ringMask] = end;
		steps += patterns.length;
		for (let i = 0; i < patterns.length; i++) {
			const { reversed, borders } = patterns[i];
			let state = states[i];
			while (state > 0 && reversed.charCodeAt(state) !== unit) {
				state = borders[state - 1];
				steps++;
			}
			if (reversed.charCodeAt(state) === unit && ++state === reversed.length) {
				found(patterns[i], start, unitEnds[(read - state + 1) & ringMask]);
				state = borders[state - 1];
			}
			states[i] = state;
		}
		read++;
	};
	const startsInside = (chunkStart: number, end: number) => {
		for (const [i, pattern] of patterns.entries()) {
			const { units } = pattern;
			const length = units.length;
			const rest = pattern.restMatched[states[i]];
			for (let skipped = 1; skipped < end - chunkStart; skipped++) {
				const at = end - skipped;
				if (skipped < length && !(rest & (1 << skipped))) continue;
				let same = 0;
				while (
					same < Math.min(skipped, length) &&
					text.charCodeAt(at + same) === units.charCodeAt(same)
				)
					same++;
				steps += same;
				if (same === length) found(pattern, at, at + length);
				else if (same === skipped)
					found(pattern, at, unitEnds[(read - length + skipped) & ringMask]);
			}
		}
	};
	let next = -1;
	// A chunk starts with the last `%` or backslash before its end: where there is none near, none is looked for.
	let percent = text.lastIndexOf('%');
	let backslash = text.lastIndexOf('\\');
	for (let end = text.length; end > 0; ) {
		steps++;
		if (percent >= end) percent = text.lastIndexOf('%', end - 1);
		if (backslash >= end) backslash = text.lastIndexOf('\\', end - 1);
		let codePoint = text.charCodeAt(end - 1);
		let start = end - 1;
		const chunk =
			Math.max(percent, backslash) >= end - 12 && isHex(codePoint) ? chunkEndingAt(text, end) : -1;
		if (chunk >= 0) {
			start = end - (chunk % 16);
			codePoint = chunk >> 4;
			startsInside(start, end);
		}
		const unit = unitOf(codePoint);
		if (codePoint > 0xffff) {
			readUnit(0xdc00 + ((codePoint - 0x10000) & 0x3ff), start, end);
			readUnit(0xd800 + ((codePoint - 0x10000) >> 10), start, end);
		} else if (codePoint !== 92 || !ESCAPABLE_UNITS.has(next)) {
			readUnit(unit, start, end);
		}
		next = unit;
		end = start;
	}
	searchWork.steps += steps;
	return spans;
}

function withRedactions(text: string, spans: number[]) {
	let redacted = '';
	let at = 0;
	for (let i = spans.length - 2; i >= 0; i -= 2) {
		redacted += text.slice(at, spans[i]) + REDACTED;
		at = spans[i + 1];
	}
	return redacted + text.slice(at);
}

/** The secrets of one run: the credential's, and every token it held (an error may quote an old one). */
export class SecretSet {
	private readonly values = new Set<string>();
	/**
	 * Per secret without escapes of its own, the start of its longest run of letters and digits (empty for the others:
	 * every text holds it): a letter or a digit is written as itself unless it is escaped (`\u0041`, `%41`), so a text
	 * that escapes none holds the secret only if it holds that run. Short, since a native search for a long periodic
	 * string is slow.
	 */
	private anchors: string[] = [];
	/** Made when a text first needs them (a text rarely does). */
	private patterns?: Pattern[];
	/** Secrets all tail (`\u0e9`) or all backslashes: what follows changes their units, so they are also looked for as written. */
	private allTail: string[] = [];

	add(...values: Array<string | undefined>) {
		const known = this.values.size;
		// A value pasted with spaces around it is sent trimmed (the plugin headers), or quoted trimmed by a service.
		for (const value of values.flatMap((given) => [given, given?.trim()]))
			if (value && value.length >= MIN_SECRET_LENGTH) this.values.add(value);
		if (this.values.size === known) return;
		this.anchors = [...this.values].map((secret) =>
			((/[\\%]/.test(secret) ? null : secret.match(/[a-z\d]+/gi)) ?? [''])
				.sort((run, other) => other.length - run.length)[0]
				.slice(0, 12),
		);
		this.patterns = undefined;
		this.allTail = [...this.values].filter(
			(secret) => CHUNK_START_AT_END.exec(secret)?.[0] === secret || /^\\+$/.test(secret),
		);
	}

	/** Every secret, in any form, replaced in one text; where secrets overlap, all of them. */
	redactSecrets(text: string) {
		// A text written for a page (`&amp;`, `&#39;`) may hold a secret once its character references are read: then it
		// is given read, and redacted. One reading: a reference written for a page twice is left as it is.
		const redacted = this.withoutSecrets(text);
		// Read only where they could complete a secret: a named reference stands for `& < > " '` or a space, so a text
		// needs a secret's run of letters and digits already, or a numeric reference to a letter or a digit.
		const decoded =
			this.anchors.some((anchor) => text.includes(anchor)) ||
			/(&|\\u0026)#(0*(4[89]|5[0-7]|6[5-9]|[78]\d|9[0789]|1[01]\d|12[0-2])|x0*(3\d|[46][1-9a-f]|[57][\da]));/i.test(
				text,
			)
				? decodeCharacterReferences(redacted)
				: redacted;
		const again = decoded === redacted ? decoded : this.withoutSecrets(decoded);
		return again === decoded ? redacted : again;
	}

	/** Every secret, in any form but HTML's, replaced in one text. */
	private withoutSecrets(text: string) {
		if (
			this.values.size === 0 ||
			(!/\\u00[3-7][\da-f]|%[3-7][\da-f]/i.test(text) &&
				this.anchors.every((anchor) => !text.includes(anchor)))
		)
			return text;
		this.patterns ??= [...this.values].flatMap(patternsOf);
		return this.allTail.reduce(
			(partly, secret) => partly.replaceAll(secret, REDACTED),
			withRedactions(text, findSecrets(text, this.patterns)),
		);
	}

	/** Error texts: the secrets, and anything shaped like credentials (a bearer token, a URL's user:password@). */
	redactText(text: string) {
		return this.redactSecrets(text)
			.replace(USERINFO_IN_URL, `$1${REDACTED}@`)
			.replace(BEARER_VALUE, `$1${REDACTED}`);
	}

	/** An error's message, description, stack, context and response body, in place, along its cause chain. */
	redactError<E>(error: E) {
		const seen = new Set();
		for (
			let link: unknown = error;
			link && typeof link === 'object' && !seen.has(link);
			link = (link as { cause?: unknown }).cause
		) {
			seen.add(link);
			const target = link as Record<string, unknown>;
			for (const key of ['message', 'description', 'stack'])
				if (typeof target[key] === 'string') assign(target, key, this.redactText(target[key]));
			for (const key of ['context', 'errorResponse', 'messages'])
				if (target[key] !== undefined)
					target[key] = redactDeep(target[key], (text) => this.redactText(text));
		}
		return error;
	}

	/** An answer's data, redacted in place when its text as received holds a secret of the run in some form (outputs). */
	redactAnswer<T>(data: T, rawText: string) {
		return this.redactSecrets(rawText) === rawText
			? data
			: redactDeep(data, (text) => this.redactSecrets(text));
	}
}

/** For texts written before a session exists (the credential's login): the given secrets and credential shapes. */
export function redactText(text: string, secrets: readonly string[]) {
	const set = new SecretSet();
	set.add(...secrets);
	return set.redactText(text);
}

/**
 * Every string inside a value, keys of plain objects included, redacted in place at any depth (a stack, cycles
 * tolerated). Only plain objects and arrays are walked: an HTTP library's sockets and buffers are left alone.
 */
function redactDeep<T>(value: T, redact: (text: string) => string) {
	// A secret of digits may come back as a JSON number: it is then replaced by the redacted text.
	const redactLeaf = (leaf: string | number) => {
		const redacted = redact(String(leaf));
		return redacted === String(leaf) ? leaf : redacted;
	};
	if (typeof value === 'string' || typeof value === 'number') return redactLeaf(value) as T;
	const seen = new WeakSet();
	for (const stack: unknown[] = [value]; stack.length > 0; ) {
		const container = stack.pop();
		const walkable =
			!!container &&
			typeof container === 'object' &&
			(Array.isArray(container) ||
				[Object.prototype, null].includes(Object.getPrototypeOf(container)));
		if (!walkable || seen.has(container)) continue;
		seen.add(container);
		const record = container as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			const leaf = record[key];
			if (typeof leaf === 'string' || typeof leaf === 'number')
				assign(record, key, redactLeaf(leaf));
			else stack.push(leaf);
			const redactedKey = Array.isArray(record) ? key : redact(key);
			if (redactedKey === key) continue;
			assign(record, redactedKey, record[key]);
			delete record[key];
		}
	}
	return value;
}

function assign(record: Record<string, unknown>, key: string, value: unknown) {
	try {
		if (record[key] !== value) record[key] = value;
	} catch {
		// A read-only property keeps its value.
	}
}
