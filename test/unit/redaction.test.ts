import { REDACTED, redactText, searchWork, SecretSet } from '../../transport/redact';

/**
 * Rule A6, transport/redact.ts: every secret found in every form a service may write it, in any mix of forms per
 * character, for secrets up to 16 KB and texts up to 16 MB, in work linear in the text (counted, not timed).
 */

/** The former implementation, one regular expression per secret: the reference for short secrets. */
const REFERENCE_SHORT_ESCAPES: Record<string, string> = {
	'"': '\\\\"',
	'\\': '\\\\\\\\',
	'/': '\\\\/',
	'\b': '\\\\b',
	'\f': '\\\\f',
	'\n': '\\\\n',
	'\r': '\\\\r',
	'\t': '\\\\t',
};
const referenceHex = (value: number, width: number) =>
	[...value.toString(16).padStart(width, '0')]
		.map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
		.join('');
function referencePattern(secret: string): string {
	let pattern = '';
	for (const character of secret) {
		const forms = [character.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')];
		forms.push(
			[...Array(character.length).keys()]
				.map((unit) => `\\\\u${referenceHex(character.charCodeAt(unit), 4)}`)
				.join(''),
		);
		if (REFERENCE_SHORT_ESCAPES[character]) forms.push(REFERENCE_SHORT_ESCAPES[character]);
		forms.push(
			[...Buffer.from(character, 'utf8')].map((byte) => `%${referenceHex(byte, 2)}`).join(''),
		);
		if (character === ' ') forms.push('\\+');
		pattern += `(?:${forms.join('|')})`;
	}
	return pattern;
}
const referenceRegex = (secrets: string[]) =>
	new RegExp(
		[...secrets]
			.sort((a, b) => b.length - a.length)
			.map(referencePattern)
			.join('|'),
		'g',
	);

/** Deterministic randomness (mulberry32). */
function randomFrom(seed: number) {
	let state = seed;
	const next = () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
	return { next, pick };
}

const SHORT_ESCAPES: Record<string, string> = {
	'"': '\\"',
	'\\': '\\\\',
	'/': '\\/',
	'\b': '\\b',
	'\f': '\\f',
	'\n': '\\n',
	'\r': '\\r',
	'\t': '\\t',
};
const anyCase = (hex: string, upper: boolean) => (upper ? hex.toUpperCase() : hex.toLowerCase());
/** Every form the service may write one character in: as it is, `\uXXXX` per UTF-16 unit, a short escape, %XX per UTF-8 byte, + for a space. */
function formsOf(character: string, upper = false): string[] {
	const forms = [
		character,
		[...Array(character.length).keys()]
			.map(
				(unit) => `\\u${anyCase(character.charCodeAt(unit).toString(16).padStart(4, '0'), upper)}`,
			)
			.join(''),
		[...Buffer.from(character, 'utf8')]
			.map((byte) => `%${anyCase(byte.toString(16).padStart(2, '0'), upper)}`)
			.join(''),
	];
	if (SHORT_ESCAPES[character]) forms.push(SHORT_ESCAPES[character]);
	if (character === ' ') forms.push('+');
	return forms;
}

const redacted = (secrets: string[], text: string) => {
	const set = new SecretSet();
	set.add(...secrets);
	return set.redactSecrets(text);
};

/** The pieces of a redacted text between its redactions: what is left of the text as it was. */
const piecesLeft = (text: string) => text.split(REDACTED);

const PASSWORD = 'pa/ss"wörd 1+2';
const TOKEN = 'tok/en+va"lue 42/x';

describe('A6: a secret in every form', () => {
	it('A6: each form of a secret with special characters is redacted whole: as it is, JSON (PHP and JavaScript), \\u escapes, URL-encoded', () => {
		for (const secret of [PASSWORD, TOKEN]) {
			const json = JSON.stringify(secret).slice(1, -1);
			const forms = [
				secret,
				json,
				json.replace(/\//g, '\\/'),
				[...secret].map((character) => formsOf(character)[1]).join(''),
				[...secret].map((character) => formsOf(character, true)[1]).join(''),
				encodeURIComponent(secret),
				encodeURIComponent(secret).toLowerCase(),
				new URLSearchParams({ s: secret }).toString().slice(2),
				[...secret].map((character) => formsOf(character)[2]).join(''),
			];
			for (const form of forms)
				expect(redacted([secret], `{"echo":"${form}","ok":1}`)).toBe(
					`{"echo":"${REDACTED}","ok":1}`,
				);
		}
	});

	it('A6: any mix of forms per character is redacted whole (2,000 mixes)', () => {
		const random = randomFrom(1);
		for (let i = 0; i < 2_000; i++) {
			const secret = random.pick([PASSWORD, TOKEN, 'plugin/key "7"+x']);
			const written = [...secret]
				.map((character) => random.pick(formsOf(character, random.next() < 0.5)))
				.join('');
			expect(redacted([secret], `<${written}>`)).toBe(`<${REDACTED}>`);
		}
	});

	it('A6: astral characters (\\u per UTF-16 unit, four %-bytes) and multi-byte UTF-8 in either hex case', () => {
		const secret = 'k€y😀ö-tøken';
		expect(redacted([secret], 'a \\ud83d\\ude00 b')).toBe('a \\ud83d\\ude00 b');
		for (let i = 0; i < 200; i++) {
			const random = randomFrom(100 + i);
			const written = [...secret]
				.map((character) => random.pick(formsOf(character, random.next() < 0.5)))
				.join('');
			expect(redacted([secret], `x ${written} y`)).toBe(`x ${REDACTED} y`);
		}
		expect(redacted([secret], 'k%E2%82%ACy%F0%9F%98%80%c3%b6-t%C3%B8ken')).toBe(REDACTED);
		expect(redacted([secret], 'k\\u20ACy\\uD83D\\uDE00\\u00f6-t\\u00F8ken')).toBe(REDACTED);
	});

	it('A6: ambiguous places: a backslash that is no escape, + as a plus, an escaped backslash before u0041, secrets holding \\ % + " /', () => {
		expect(redacted(['nabc'], 'C:\\nabc')).toBe(`C:\\${REDACTED}`);
		expect(redacted(['ABCD'], '"\\\\u0041BCD"')).toBe(`"\\${REDACTED}"`);
		expect(redacted(['u0041X'], '\\u0041\\u0058')).toBe(`\\${REDACTED}`);
		expect(redacted(['a+b+c'], 'x a+b+c x a%2Bb%2bc')).toBe(`x ${REDACTED} x ${REDACTED}`);
		expect(
			redacted(['C:\\Temp\\x'], 'path C:\\Temp\\x and "C:\\\\Temp\\\\x" and C%3A%5CTemp%5Cx'),
		).toBe(`path ${REDACTED} and "${REDACTED}" and ${REDACTED}`);
		expect(redacted(['50%41'], 'a 50%41 b 50%2541 c')).toBe(`a ${REDACTED} b ${REDACTED} c`);
		expect(redacted(['pass\\u0041'], 'raw pass\\u0041, JSON pass\\\\u0041, URL pass%5Cu0041')).toBe(
			`raw ${REDACTED}, JSON ${REDACTED}, URL ${REDACTED}`,
		);
		// What follows completes a chunk the secret's end starts.
		expect(redacted(['word50%'], 'word50%41')).toBe(`${REDACTED}41`);
		expect(redacted(['word\\u00'], 'word\\u0041 and "word\\\\u0041"')).toBe(
			`${REDACTED}41 and "${REDACTED}41"`,
		);
		expect(redacted(['end\\'], '"end\\\\" and end\\u0041')).toBe(
			`"${REDACTED}" and ${REDACTED}u0041`,
		);
		// The start of a chunk before the secret, in text that is no JSON.
		expect(redacted(['41beef'], 'x %41beef \\u0041beef')).toBe(`x %${REDACTED} \\u00${REDACTED}`);
	});

	it('A6: a secret that contains another is replaced whole, overlapping secrets all, a secret under 4 characters and a repeat are ignored', () => {
		expect(redacted(['secret', 'my-secret-value'], 'x my-secret-value y secret')).toBe(
			`x ${REDACTED} y ${REDACTED}`,
		);
		expect(redacted(['abcdef', 'defghi'], 'abcdefghi')).toBe(REDACTED);
		const set = new SecretSet();
		set.add('abc', undefined, '', 'abcd', 'abcd');
		expect(set.redactSecrets('abc abcd')).toBe(`abc ${REDACTED}`);
		expect(new SecretSet().redactSecrets('anything')).toBe('anything');
	});

	it('A6: redacts at least everything the former regular expressions found, over 6,000 random secrets and texts (seeded)', () => {
		const random = randomFrom(42);
		const secretCharacters = [...'abcdefuxyzABCF0123456789/"\\%+ \n\tö€😀-_.'];
		const noiseCharacters = [...'abcuxz0149AF\\%+ "/:{}[],ö😀\n'];
		const noiseFragments = [
			'\\u00',
			'\\u0',
			'\\u',
			'%4',
			'%C3',
			'%E2%82',
			'%',
			'\\',
			'\\\\',
			'%2',
			'u00',
			'41',
		];
		const noise = () =>
			Array.from({ length: Math.floor(random.next() * 6) }, () =>
				random.next() < 0.3 ? random.pick(noiseFragments) : random.pick(noiseCharacters),
			).join('');
		let same = 0;
		const cases = 6_000;
		for (let i = 0; i < cases; i++) {
			const secret = Array.from({ length: 4 + Math.floor(random.next() * 8) }, () =>
				random.pick(secretCharacters),
			).join('');
			let text = noise();
			for (let copy = 0; copy < 1 + Math.floor(random.next() * 2); copy++) {
				text +=
					[...secret]
						.map((character) =>
							random.pick([character, ...formsOf(character, random.next() < 0.5)]),
						)
						.join('') + noise();
			}
			const reference = referenceRegex([secret]);
			const mine = redacted([secret], text);
			// No place the former implementation would find a secret in is left.
			const left = piecesLeft(mine).find((piece) => piece.replace(reference, '') !== piece);
			expect({ secret, text, left }).toEqual({ secret, text, left: undefined });
			if (mine === text.replace(reference, REDACTED)) same++;
		}
		// Where the outputs differ, the former one left part of an encoded secret (`u005c` of a `\u005c`) or stopped
		// at the first of two overlapping occurrences.
		expect(same / cases).toBeGreaterThan(0.9);
	});
});

describe('A6: long secrets, and work linear in the text', () => {
	const randomToken = (length: number, seed: number) => {
		const random = randomFrom(seed);
		return Array.from({ length }, () =>
			random.pick([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./+=']),
		).join('');
	};

	it('A6: tokens of 4,000, 8,000 and 16,000 characters, random and periodic, are redacted in text with \\/ escapes and partial escapes, never throwing', () => {
		for (const length of [4_000, 8_000, 16_000]) {
			for (const token of [
				randomToken(length, length),
				'ab'.repeat(length / 2),
				'x'.repeat(length),
			]) {
				const php = JSON.stringify(token).replace(/\//g, '\\/');
				const text = `{"a":"\\u00zz %4 \\","echo":${php},"b":"${token.slice(0, -1)}\\u00","c":"%2${token}"}`;
				const set = new SecretSet();
				set.add(token);
				let result = '';
				expect(() => (result = set.redactText(text))).not.toThrow();
				expect(result).toBe(
					`{"a":"\\u00zz %4 \\","echo":"${REDACTED}","b":"${token.slice(0, -1)}\\u00","c":"%2${REDACTED}"}`,
				);
			}
		}
	});

	/** Text that almost holds the token everywhere: the token but its last character, then another, over and over. */
	const nearMatches = (token: string, size: number, written = (text: string) => text) =>
		written(token.slice(0, -1) + (token.endsWith('b') ? 'a' : 'b'))
			.repeat(Math.ceil(size / token.length))
			.slice(0, size);

	it('A6: 1 MB of near matches of a 16 KB periodic token costs at most 8 steps per character, in every form', () => {
		const MB = 1024 * 1024;
		for (const token of ['a'.repeat(16_384), 'ab'.repeat(8_192), 'aab'.repeat(5_461)]) {
			const set = new SecretSet();
			set.add(token);
			for (const written of [
				(text: string) => text,
				(text: string) => text.replace(/a/g, '\\u0061'),
				(text: string) => text.replace(/b/g, '%62'),
			]) {
				const text = nearMatches(token, MB, written);
				searchWork.steps = 0;
				// Compared as booleans: a failure should not print megabytes.
				expect(set.redactSecrets(text) === text).toBe(true);
				expect(searchWork.steps).toBeLessThanOrEqual(8 * text.length);
				expect(set.redactSecrets(`${text}|${written(token)}`) === `${text}|${REDACTED}`).toBe(true);
			}
		}
	});

	it('A6: the same bound fails a search that compares the token at every place (the test tells linear from quadratic)', () => {
		const token = 'a'.repeat(16_384);
		const text = nearMatches(token, 1024 * 1024);
		const bound = 8 * text.length;
		let steps = 0;
		for (let start = 0; start + token.length <= text.length && steps <= bound; start++) {
			for (let i = 0; i < token.length && text[start + i] === token[i]; i++) steps++;
		}
		expect(steps).toBeGreaterThan(bound);
	});
});

describe('A6: redacting answers, errors and texts', () => {
	const session = () => {
		const set = new SecretSet();
		set.add(PASSWORD, TOKEN);
		return set;
	};

	it('A6: redactAnswer redacts keys and values in place at any depth, cycles tolerated, read-only values kept', () => {
		const inner: Record<string, unknown> = {
			[PASSWORD]: 'key',
			list: [`Bearer ${TOKEN}`, 3, null],
		};
		inner.self = inner;
		const frozen = Object.freeze({ token: TOKEN });
		const data = { deep: { deeper: inner }, frozen, n: 1 };
		const raw = JSON.stringify({ echo: PASSWORD }).replace(/\//g, '\\/');
		expect(session().redactAnswer(data, raw)).toBe(data);
		expect(inner).toEqual({
			[REDACTED]: 'key',
			list: [`Bearer ${REDACTED}`, 3, null],
			self: inner,
		});
		expect(frozen.token).toBe(TOKEN);
		expect(data.n).toBe(1);
	});

	it('A6: a secret of digits that comes back as a JSON number is redacted too, in answers and errors', () => {
		const set = new SecretSet();
		set.add('20242024');
		const data = { pin: 20242024, list: [20242024, 7], other: 2024 };
		expect(set.redactAnswer(data, JSON.stringify(data))).toEqual({
			pin: REDACTED,
			list: [REDACTED, 7],
			other: 2024,
		});
		expect(set.redactAnswer(20242024, '20242024')).toBe(REDACTED);
		const error = { message: 'refused', errorResponse: { data: { key: 20242024 } } };
		expect(set.redactError(error).errorResponse.data.key).toBe(REDACTED);
	});

	it('A6: redactAnswer leaves the data untouched when the raw text holds no secret in any form', () => {
		const data = { echo: TOKEN };
		expect(session().redactAnswer(data, '{"echo":"something else \\/ %41"}')).toBe(data);
		expect(data).toEqual({ echo: TOKEN });
	});

	it("A6: an answer that escapes no letter or digit is searched only where it holds the start of a secret's longest run of them", () => {
		const set = session();
		// PHP's `\/` and `\"` escape no letter: a page of 1 MB without a secret costs no search.
		const page = JSON.stringify({
			data: Array.from({ length: 6_000 }, (_, id) => ({
				id,
				url: `https://shop.example.com/p/${id}`,
				note: 'say "hi"',
			})),
		}).replace(/\//g, '\\/');
		searchWork.steps = 0;
		expect(set.redactSecrets(page) === page).toBe(true);
		expect(searchWork.steps).toBe(0);
		// The same page holding the token, or a token with one letter escaped, is searched and redacted.
		for (const echoed of [
			JSON.stringify(TOKEN).replace(/\//g, '\\/'),
			`"\\u00${TOKEN.charCodeAt(0).toString(16)}${JSON.stringify(TOKEN).slice(2)}`,
		]) {
			expect(
				set.redactSecrets(`${page.slice(0, -1)},"echo":${echoed}}`) ===
					`${page.slice(0, -1)},"echo":"${REDACTED}"}`,
			).toBe(true);
		}
	});

	it('A6: redactError redacts message, description, stack, context, errorResponse and messages along the cause chain, cycles tolerated', () => {
		const cause = Object.assign(new Error(`inner ${encodeURIComponent(TOKEN)}`), {
			description: PASSWORD,
			context: { data: [TOKEN] },
		});
		const error = Object.assign(new Error(`outer ${PASSWORD}`, { cause }), {
			errorResponse: { [TOKEN]: PASSWORD },
			messages: [TOKEN],
		});
		(cause as Error & { cause?: unknown }).cause = error;
		expect(session().redactError(error)).toBe(error);
		expect(error.message).toBe(`outer ${REDACTED}`);
		expect(error.stack).not.toContain(PASSWORD);
		expect(error).toMatchObject({ errorResponse: { [REDACTED]: REDACTED }, messages: [REDACTED] });
		expect(cause).toMatchObject({
			message: `inner ${REDACTED}`,
			description: REDACTED,
			context: { data: [REDACTED] },
		});
	});

	it("A6: redactText also replaces a URL's user:password@ and a bearer token, before any session", () => {
		expect(
			redactText(
				`GET https://bob:hunter22@x.test/a failed for ${PASSWORD}; Authorization: Bearer abcdefgh12345`,
				[PASSWORD],
			),
		).toBe(
			`GET https://${REDACTED}@x.test/a failed for ${REDACTED}; Authorization: Bearer ${REDACTED}`,
		);
	});

	it('A6: a secret written in HTML character references inside an answer (a message escaped for a page) is redacted', () => {
		const secrets = new SecretSet();
		secrets.add('Tr0ub&dor<3>"x', "k3y-'quoted'");
		for (const written of [
			'Tr0ub&amp;dor&lt;3&gt;&quot;x',
			'Tr0ub&#38;dor&#x3C;3&#62;&#34;x',
			'&#84;r0ub&amp;dor&lt;3&gt;&quot;x',
			'k3y-&#39;quoted&apos;',
		])
			expect(secrets.redactSecrets(`Refused pw=${written}.`)).toBe(`Refused pw=${REDACTED}.`);
		const answer = { echo: 'pw=Tr0ub&amp;dor&lt;3&gt;&quot;x' };
		expect(secrets.redactAnswer(answer, JSON.stringify(answer))).toEqual({
			echo: `pw=${REDACTED}`,
		});
		// Text without a secret keeps its references as they are.
		expect(secrets.redactSecrets('Tr0ub &amp; co')).toBe('Tr0ub &amp; co');
		// JSON that escapes `&` (PHP's JSON_HEX_AMP, Symfony's default) writes the references `\u0026amp;`.
		const hexAmp = '{"note":"pw=Tr0ub\\u0026amp;dor\\u0026lt;3\\u0026gt;\\u0026quot;x"}';
		expect(secrets.redactAnswer(JSON.parse(hexAmp), hexAmp)).toEqual({ note: `pw=${REDACTED}` });
	});

	it("A6: a secret written in HTML's named references (PHP's htmlentities: letters beyond ASCII, HTML5's punctuation), also URL-encoded, is redacted", () => {
		const secrets = new SecretSet();
		secrets.add('Grüße-aus-Köln-2024', 'λογος€ΣÆ', 'p@ss.word!_x');
		for (const written of [
			'Gr&uuml;&szlig;e-aus-K&ouml;ln-2024',
			// Written for a page, then for a URL.
			'Gr%26uuml%3B%26szlig%3Be-aus-K%26ouml%3Bln-2024',
			// HTML5's names of punctuation.
			'p&commat;ss&period;word&excl;&lowbar;x',
			'Gr\\u0026uuml;&szlig;e-aus-K&ouml;ln-2024',
			'&lambda;&omicron;&gamma;&omicron;&sigmaf;&euro;&Sigma;&AElig;',
		])
			expect(secrets.redactSecrets(`<p>Wrong password ${written}</p>`)).toBe(
				`<p>Wrong password ${REDACTED}</p>`,
			);
		// Names are read as HTML writes them: `&AElig;` is not `&aelig;`.
		expect(
			secrets.redactSecrets('&lambda;&omicron;&gamma;&omicron;&sigmaf;&euro;&Sigma;&aelig;'),
		).toBe('&lambda;&omicron;&gamma;&omicron;&sigmaf;&euro;&Sigma;&aelig;');
	});

	it('A6: an answer whose references cannot complete a secret (named ones, `&#39;`) is not searched at all', () => {
		const secrets = new SecretSet();
		secrets.add('Tr0ub&dor<3>"x', 'eyJhbGciOiJIUzI1NiJ9.sig_abcdefghijklmnop');
		const page =
			'{"name":"Tom &amp; Jerry&#39;s &lt;b&gt;mug&lt;/b&gt;","hex":"A \\u0026amp; B \\u0026#39;"}';
		searchWork.steps = 0;
		expect(secrets.redactSecrets(page.repeat(1_000))).toBe(page.repeat(1_000));
		expect(searchWork.steps).toBe(0);
		// A numeric reference to a letter may complete one: that text is read.
		expect(secrets.redactSecrets('pw=&#84;r0ub&amp;dor&lt;3&gt;&quot;x')).toBe(`pw=${REDACTED}`);
	});

	it('A6: references written inside references are read once: work linear in the text, whatever their depth', () => {
		const secrets = new SecretSet();
		secrets.add('Tr0ub&dor<3>"x');
		const nested = `&#38;${'#38;'.repeat(50_000)}`;
		searchWork.steps = 0;
		expect(secrets.redactSecrets(nested) === nested).toBe(true);
		expect(searchWork.steps).toBeLessThanOrEqual(8 * 2 * nested.length);
	});
});
