/**
 * Rule A6: text from the service (or from an HTTP library quoting the request) that goes into an error, an error
 * item, an output or a log has the session's secrets replaced, so a service echoing the request cannot leak them: in
 * values and object keys, at any depth, in every form a service may write them (JSON escapes such as PHP's `\/` or
 * `\u002f`, URL encoding), in any mix of forms.
 */
export const REDACTED = '[redacted]';

const USERINFO_IN_URL = /(\/\/)[^\s/@:]+:[^\s/@]*@/g;
const BEARER_VALUE = /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

/**
 * HTML 4's named character references (those PHP's `htmlentities` writes), as runs: a code point, then the names of it
 * and the code points after it. `&nbsp;` reads as the space a page writes it for.
 */
const NAMED_REFERENCES: Record<string, string> = Object.fromEntries(
	(
		'32 nbsp|34 quot|38 amp|39 apos|60 lt|62 gt|' +
		// HTML5's names of ASCII punctuation (PHP's `htmlentities` with ENT_HTML5 writes them).
		'9 Tab|10 NewLine|33 excl|35 num dollar percnt|40 lpar rpar ast plus comma|46 period sol|58 colon semi|' +
		'61 equals|63 quest commat|91 lsqb bsol rsqb Hat lowbar grave|123 lcub verbar rcub|' +
		'161 iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml|' +
		'338 OElig oelig|352 Scaron scaron|376 Yuml|402 fnof|710 circ|732 tilde|' +
		'913 Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho|' +
		'931 Sigma Tau Upsilon Phi Chi Psi Omega|' +
		'945 alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega|' +
		'977 thetasym upsih|982 piv|8194 ensp emsp|8201 thinsp|8204 zwnj zwj lrm rlm|8211 ndash mdash|' +
		'8216 lsquo rsquo sbquo|8220 ldquo rdquo bdquo|8224 dagger Dagger bull|8230 hellip|8240 permil|' +
		'8242 prime Prime|8249 lsaquo rsaquo|8254 oline|8260 frasl|8364 euro|8465 image|8472 weierp|' +
		'8476 real|8482 trade|8501 alefsym|8592 larr uarr rarr darr harr|8629 crarr|' +
		'8656 lArr uArr rArr dArr hArr|8704 forall|8706 part exist|8709 empty|8711 nabla isin notin|8715 ni|' +
		'8719 prod|8721 sum minus|8727 lowast|8730 radic|8733 prop infin|8736 ang|8743 and or cap cup int|' +
		'8756 there4|8764 sim|8773 cong|8776 asymp|8800 ne equiv|8804 le ge|8834 sub sup nsub|8838 sube supe|' +
		'8853 oplus|8855 otimes|8869 perp|8901 sdot|8968 lceil rceil lfloor rfloor|9001 lang rang|9674 loz|' +
		'9824 spades|9827 clubs|9829 hearts diams'
	)
		.split('|')
		.flatMap((run) => {
			const [first, ...names] = run.split(' ');
			return names.map((name, i) => [name, String.fromCodePoint(Number(first) + i)]);
		}),
);

/**
 * HTML's character references (`&amp;`, `&#39;`, `&#x27;`) as the characters they stand for, their `&` also as JSON
 * may escape it (`\u0026amp;`), and `&` and `;` as a URL encodes them (`%26amp%3B`); unknown ones are kept.
 */
export const decodeCharacterReferences = (text: string) =>
	text.replace(
		/(?:&|\\u0026|%26)(#x[\da-f]+|#\d+|[a-z][a-z\d]*)(?:;|%3b)/gi,
		(reference, name: string) => {
			const code = name.startsWith('#') ? Number(name.slice(1).replace(/^x/i, '0x')) : NaN;
			return code <= 0x10ffff
				? String.fromCodePoint(code)
				: (NAMED_REFERENCES[name] ?? NAMED_REFERENCES[name.toLowerCase()] ?? reference);
		},
	);

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
	(code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 102);

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

/** The bytes of a UTF-8 character by the high hex digit of its first byte, past ASCII: none (a continuation), 2, 3 or 4. */
const UTF8_LENGTHS = [0, 0, 0, 0, 2, 2, 3, 4];

/** The chunk that starts at `at`, as its code point * 16 + its length (6, or 3 per byte), or -1. */
function chunkAt(text: string, at: number) {
	if (text.charCodeAt(at) === 92) return Math.max(-1, hexAfter(text, at + 1, 117, 4) * 16 + 6);
	let codePoint = hexAfter(text, at, 37, 2);
	const bytes = codePoint < 0x80 ? 1 : UTF8_LENGTHS[(codePoint >> 4) - 8];
	if (bytes > 1) codePoint &= 0x7f >> bytes;
	for (let i = 1; i < bytes; i++) {
		const byte = hexAfter(text, at + 3 * i, 37, 2);
		// A continuation byte is 0x80 to 0xbf; anything else spoils the chunk.
		codePoint = byte >> 6 === 2 ? codePoint * 64 + (byte & 0x3f) : NaN;
	}
	return codePoint >= 0 && codePoint <= 0x10ffff && bytes ? codePoint * 16 + 3 * bytes : -1;
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
	let units = '';
	for (let at = 0, index = 0; at < text.length; ) {
		const chunk = chunkAt(text, at);
		const how = chunk >= 0 ? spelling(index++, text[at] === '\\') : 0;
		units +=
			(how === 2 ? '\\' : '') +
			String.fromCodePoint(unitOf(how ? chunk >> 4 : text.charCodeAt(at)));
		at += how ? chunk % 16 : 1;
	}
	// A backslash before an escapable unit (ESCAPABLE_UNITS) counts for nothing.
	return units.replace(/\\(?=[\\"/bfnrt])/g, '');
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
	// The ways a secret holding chunks of its own may be written: each chunk as it is, decoded or (`\uXXXX` ones) JSON-
	// escaped. Past 16 ways, the ways of encoders only: all `\uXXXX` chunks one way, and all %-chunks one way.
	// The number of ways to write the chunks before each chunk, then all of them:
	const counts = [1];
	unitsOf(secret, (_index, isEscape) => {
		counts.push(counts.at(-1)! * (isEscape ? 3 : 2));
		return 0;
	});
	const whole = (
		counts.at(-1)! > 16
			? [0, 1, 2, 3, 4, 5].map(
					(n) => (_index: number, isEscape: boolean) => (isEscape ? n % 3 : Math.floor(n / 3)),
				)
			: [...Array(counts.at(-1)!).keys()].map(
					(n) => (index: number) => Math.floor((n % counts[index + 1]) / counts[index]),
				)
	).map((spelling) => unitsOf(secret, spelling));
	let tail = CHUNK_START_AT_END.exec(secret)?.[0] ?? '';
	let tailUnits = unitsOf(tail);
	// No tail when it is a whole %-chunk (`%c3%a9`; a `\u` tail holds no `%`) or has as many units as a spelling.
	if (
		chunkAt(tail, tail.indexOf('%')) >= 0 ||
		whole.some((units) => units.length <= tailUnits.length)
	)
		tail = tailUnits = '';
	const backslashes = (pattern: RegExp) =>
		pattern.exec(secret.slice(0, secret.length - tail.length))![0].length;
	const shared = {
		/** The units of the secret's end searched apart (CHUNK_START_AT_END): what follows may change them. */
		tailUnits,
		/** Where a chunk may start in the tail: the tail's units before that place (a last backslash left out), and the rest. */
		tailSplits: [...tail]
			.map((_, at) => [unitsOf(tail.slice(0, at)).replace(/\\$/, ''), tail.slice(at)])
			.filter(([, rest]) => /^[%\\]/.test(rest)),
		/** How far the tail's forms may reach, with those of the backslashes before it (a form is 6 characters at most). */
		tailReach: 6 * (tail.length + backslashes(/\\*$/)) + 1,
		/** Backslashes a match takes in before its units: escapes of the secret's backslashes, `\"` before a quote. */
		widenStart: 2 * backslashes(/^\\*/) + (/^\\*["/\b\f\n\r\t]/.test(secret) ? 1 : 0),
	};
	// The units before the tail are read with it: whether a backslash counts depends on what follows it.
	return [...new Set(whole.map((units) => units.slice(0, units.length - tailUnits.length)))].map(
		(spelling) => {
			// A last backslash counts only before what follows it (not before a quote): a match needs one written after it.
			const backslashAfter = +(!tail && spelling.length > 1 && spelling.endsWith('\\'));
			const reversed = spelling
				.slice(0, spelling.length - backslashAfter)
				.split('')
				.reverse()
				.join('');
			/** KMP's failure function of `reversed`. */
			const borders = new Int32Array(reversed.length);
			/** Per state (units matched), bit k is set when the units but the first k (up to MAX_START_INSIDE) are matched. */
			const restMatched = new Uint16Array(reversed.length + 1);
			for (let i = 0, border = 0; i < reversed.length; i++) {
				while (border > 0 && reversed[i] !== reversed[border]) border = borders[border - 1];
				if (i > 0 && reversed[i] === reversed[border]) border++;
				borders[i] = border;
				restMatched[i + 1] =
					restMatched[border] |
					(reversed.length - i - 1 <= MAX_START_INSIDE ? 1 << (reversed.length - i - 1) : 0);
			}
			return {
				...shared,
				reversed,
				borders,
				restMatched,
				backslashAfter,
				/** Backslashes a match takes in after its units: the one it needs, escapes of the secret's last backslashes. */
				widenEnd: backslashAfter + 2 * /\\*$/.exec(secret)![0].length,
				/** A secret with few units besides its backslashes is only where the text spells it with as many characters. */
				minSpan: spelling.length + tailUnits.length < MIN_SECRET_LENGTH ? secret.length : 0,
			};
		},
	);
}

/** One way to read a secret, searched from the text's end. */
type Pattern = ReturnType<typeof patternsOf>[number];

/**
 * Where a match whose units end at `at` really ends: after its tail (most secrets have none: then at `at`), in any form
 * or as written; -1 if none follows.
 */
function tailEnd(text: string, at: number, { tailUnits, tailSplits, tailReach }: Pattern) {
	let longest = -1;
	for (let end = at, chunk; end - at <= tailReach; end += Math.max(1, chunk % 16)) {
		searchWork.steps++;
		// The units read so far; a backslash read last counts or not depending on what follows it.
		const read = unitsOf(text.slice(at, end), () => 1);
		if (!tailUnits.startsWith(read.replace(/\\$/, ''))) break;
		if (read === tailUnits) longest = end;
		chunk = chunkAt(text, end);
		// What follows may complete a chunk the tail starts (`50%` before `41`): from there the tail is as written.
		for (const [before, rest] of tailSplits)
			if (
				before === read.replace(/\\$/, '') &&
				text.startsWith(rest, end) &&
				chunk % 16 > rest.length
			)
				longest = Math.max(longest, end + rest.length);
		if (end >= text.length) break;
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

/** The text with every place a secret is, in any form, replaced. */
function withoutPatterns(text: string, patterns: Pattern[]) {
	// [start, end] pairs, overlaps merged, rightmost first.
	const spans: number[] = [];
	let steps = 0;
	let read = 0;
	// Where each of the last units read ends (a ring as long as the longest secret): where a match ends.
	const ringMask =
		2 ** Math.ceil(Math.log2(Math.max(...patterns.map(({ reversed }) => reversed.length)) + 1)) - 1;
	const unitEnds = new Int32Array(ringMask + 1);
	// Per pattern, KMP's state: how many of its reversed units end the units read.
	const states = new Int32Array(patterns.length);
	const found = (pattern: Pattern, start: number, end: number) => {
		end = tailEnd(text, end, pattern);
		let taken = 0;
		for (let length; taken < pattern.widenEnd && (length = backslashAt(text, end)) > 0; taken++)
			end += length;
		for (
			let n = pattern.widenStart, length;
			n > 0 && (length = backslashAt(text, start - 1, chunkEndingAt(text, start))) > 0;
			n--
		)
			start -= length;
		if (end < 0 || taken < pattern.backslashAfter || end - start < pattern.minSpan) return;
		while (spans.length > 0 && end > spans.at(-2)! && start < spans.at(-1)!) {
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
			for (; state > 0 && reversed.charCodeAt(state) !== unit; steps++) state = borders[state - 1];
			if (reversed.charCodeAt(state) === unit && ++state === reversed.length) {
				found(patterns[i], start, unitEnds[(read - state + 1) & ringMask]);
				state = borders[state - 1];
			}
			states[i] = state;
		}
		read++;
	};
	// A secret may start inside the chunk that ends at `end`, in text that is no JSON: its first units written there.
	const startsInside = (chunkStart: number, end: number) => {
		for (let i = 0; i < patterns.length; i++) {
			const { reversed, restMatched } = patterns[i];
			const length = reversed.length;
			const rest = restMatched[states[i]];
			for (let skipped = 1; skipped < end - chunkStart; skipped++) {
				const at = end - skipped;
				if (skipped < length && !(rest & (1 << skipped))) continue;
				let same = 0;
				while (
					same < Math.min(skipped, length) &&
					text.charCodeAt(at + same) === reversed.charCodeAt(length - 1 - same)
				)
					same++;
				steps += same;
				if (same === Math.min(skipped, length))
					found(
						patterns[i],
						at,
						same === length ? at + length : unitEnds[(read - length + skipped) & ringMask],
					);
			}
		}
	};
	let next = -1;
	// A chunk starts with the last `%` or backslash before its end: where there is none near, none is looked for.
	let percent = text.lastIndexOf('%');
	let backslash = text.lastIndexOf('\\');
	for (let end = text.length, start; end > 0; end = start) {
		steps++;
		if (percent >= end) percent = text.lastIndexOf('%', end - 1);
		if (backslash >= end) backslash = text.lastIndexOf('\\', end - 1);
		let codePoint = text.charCodeAt(end - 1);
		const chunk =
			Math.max(percent, backslash) >= end - 12 && isHex(codePoint) ? chunkEndingAt(text, end) : -1;
		start = end - Math.max(1, chunk % 16);
		if (chunk >= 0) {
			codePoint = chunk >> 4;
			startsInside(start, end);
		}
		if (codePoint > 0xffff) {
			readUnit(0xdc00 + (codePoint & 0x3ff), start, end);
			codePoint = 0xd7c0 + (codePoint >> 10);
		}
		if (codePoint !== 92 || !ESCAPABLE_UNITS.has(next)) readUnit(unitOf(codePoint), start, end);
		next = unitOf(codePoint);
	}
	searchWork.steps += steps;
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

	add(...values: Array<string | undefined>) {
		const known = this.values.size;
		// A value pasted with spaces around it is sent trimmed (the plugin headers), or quoted trimmed by a service.
		for (const value of values.flatMap((given) => [given, given?.trim()]))
			if (value && value.length >= MIN_SECRET_LENGTH) this.values.add(value);
		if (this.values.size === known) return;
		this.anchors = [...this.values].map((secret) =>
			(/[\\%]/.test(secret) ? [] : (secret.match(/[a-z\d]+/gi) ?? []))
				.reduce((longest, run) => (run.length > longest.length ? run : longest), '')
				.slice(0, 12),
		);
		this.patterns = undefined;
	}

	/** Every secret, in any form, replaced in one text; where secrets overlap, all of them. */
	redactSecrets(text: string) {
		// A text written for a page (`&amp;`, `&#39;`) may hold a secret once its character references are read: then it
		// is given read, and redacted. One reading: a reference written for a page twice is left as it is.
		const redacted = this.withoutSecrets(text);
		// Read only where they could complete a secret: no named reference stands for an ASCII letter or digit, so a text
		// needs a secret's run of them already, or a numeric reference to one.
		const decoded =
			this.anchors.some((anchor) => text.includes(anchor)) ||
			/(&|\\u0026|%26)#(0*(4[89]|5[0-7]|6[5-9]|[78]\d|9[0789]|1[01]\d|12[0-2])|x0*(3\d|[46][1-9a-f]|[57][\da]))(;|%3b)/i.test(
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
		// Secrets all tail (`\u0e9`) or all backslashes: what follows changes their units, so they are also looked for as
		// written.
		return [...this.values]
			.filter((secret) => CHUNK_START_AT_END.exec(secret)?.[0] === secret || /^\\+$/.test(secret))
			.reduce(
				(partly, secret) => partly.replaceAll(secret, REDACTED),
				withoutPatterns(text, this.patterns),
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
			let link = error as Record<string, unknown> | undefined;
			link && typeof link === 'object' && !seen.has(link);
			link = link.cause as Record<string, unknown> | undefined
		) {
			seen.add(link);
			for (const key of ['message', 'description', 'stack', 'context', 'errorResponse', 'messages'])
				assign(
					link,
					key,
					redactDeep(link[key], (text) => this.redactText(text)),
				);
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
	// The value is held in a list (whose keys are not redacted), so that a string or a number is replaced too.
	const root = [value];
	const seen = new WeakSet();
	for (const stack: unknown[] = [root]; stack.length > 0; ) {
		const container = stack.pop() as Record<string, unknown> | undefined;
		if (
			!container ||
			typeof container !== 'object' ||
			!(
				Array.isArray(container) ||
				[Object.prototype, null].includes(Object.getPrototypeOf(container))
			) ||
			seen.has(container)
		)
			continue;
		seen.add(container);
		for (const key of Object.keys(container)) {
			const leaf = container[key];
			if (typeof leaf === 'string' || typeof leaf === 'number') {
				// A secret of digits may come back as a JSON number: it is then replaced by the redacted text.
				const redacted = redact(String(leaf));
				assign(container, key, redacted === String(leaf) ? leaf : redacted);
			} else stack.push(leaf);
			const redactedKey = Array.isArray(container) ? key : redact(key);
			if (redactedKey === key) continue;
			assign(container, redactedKey, container[key]);
			delete container[key];
		}
	}
	return root[0];
}

function assign(record: Record<string, unknown>, key: string, value: unknown) {
	try {
		if (record[key] !== value) record[key] = value;
	} catch {
		// A read-only property keeps its value.
	}
}
