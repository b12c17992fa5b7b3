/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Rule ids (A6, E5, ...) are cited in code comments and test names; docs/service-contract.md is where each one is
 * defined. Files are read, nothing is run: every cited id must have an entry, every entry must be named by a test,
 * and the links of the README and docs/ must lead somewhere.
 */
const ROOT = resolve(__dirname, '..', '..');
const CONTRACT = join(ROOT, 'docs', 'service-contract.md');
/** Where ids are cited. bench/ is left out: there "V8" is the JavaScript engine. */
const CITING_FOLDERS = ['transport', 'nodes', 'credentials', 'sandbox', 'tools', 'test'];

const ID = '[AELTMVCX][1-9]';
const ANY_ID = new RegExp(ID);
/** An id on its own, or a range of one letter ("E1-E5"); never part of a word or of a data id like "V4-ORD-1". */
const ID_TOKEN = new RegExp(`(?<![\\w-])(${ID})(?:-(${ID}))?(?![\\w-])`, 'g');
/** How a plain string (not a comment, not a test name) cites rules: "rule A6", "(custom API call, X1)", "A1/E6: ...". */
const RULE_FORMS = [
	new RegExp(`\\brules?\\s+${ID}(?:\\s*(?:,|and|or|/|-)\\s*${ID})*`, 'gi'),
	new RegExp(`\\((?:[^()]*,\\s*)?${ID}(?:\\s*[,/-]\\s*${ID})*\\)`, 'g'),
	new RegExp(`^\\s*(?:\\w+/)?${ID}(?:[/-]${ID})*:`, 'g'),
];
/** Id-shaped words that are not rules, even in a comment. */
const NOT_RULES = /^\s+cache\b/i;

interface Token {
	kind: 'comment' | 'string';
	text: string;
	start: number;
	end: number;
}

/** The comments and string literals of a JS/TS source (regular expression literals skipped). */
function tokenize(source: string): Token[] {
	const tokens: Token[] = [];
	const templateDepth: number[] = [];
	const special = /[/'"`{}]/g;
	let codeFrom = 0;
	/** Whether a slash at `at` starts a regular expression: judged by what comes before it in the code. */
	const regexMayStart = (at: number) => {
		let k = at - 1;
		while (k >= codeFrom && /\s/.test(source[k])) k--;
		if (k < codeFrom) return tokens.at(-1)?.kind !== 'string';
		if (/[(,=:[!&|?{};+\-*%<>~^]/.test(source[k])) return true;
		const word = source.slice(Math.max(codeFrom, k - 10), k + 1).match(/\w+$/)?.[0];
		return word !== undefined && /^(return|typeof|case|in|of)$/.test(word);
	};
	const push = (kind: Token['kind'], text: string, start: number, end: number) => {
		tokens.push({ kind, text, start, end });
		codeFrom = end;
	};
	for (let i = 0; ; ) {
		special.lastIndex = i;
		const hit = special.exec(source);
		if (!hit) break;
		i = hit.index;
		const c = source[i];
		const next = source[i + 1];
		if (c === '/' && (next === '/' || next === '*')) {
			const close = next === '/' ? source.indexOf('\n', i) : source.indexOf('*/', i + 2);
			const end = close < 0 ? source.length : next === '/' ? close : close + 2;
			push('comment', source.slice(i + 2, next === '/' ? end : end - 2), i, end);
			i = end;
		} else if (c === '/' && regexMayStart(i)) {
			let j = i + 1;
			let inClass = false;
			while (j < source.length && source[j] !== '\n' && (inClass || source[j] !== '/')) {
				if (source[j] === '\\') j++;
				else if (source[j] === '[') inClass = true;
				else if (source[j] === ']') inClass = false;
				j++;
			}
			i = j + 1;
			codeFrom = i;
		} else if (c === "'" || c === '"') {
			let j = i + 1;
			while (j < source.length && source[j] !== c && source[j] !== '\n')
				j += source[j] === '\\' ? 2 : 1;
			push('string', source.slice(i + 1, j), i, j + 1);
			i = j + 1;
		} else if (c === '`' || (c === '}' && templateDepth.at(-1) === 0)) {
			if (c === '}') templateDepth.pop();
			let j = i + 1;
			while (
				j < source.length &&
				source[j] !== '`' &&
				!(source[j] === '$' && source[j + 1] === '{')
			) {
				j += source[j] === '\\' ? 2 : 1;
			}
			push('string', source.slice(i + 1, j), i, j + 1);
			if (source[j] === '$') {
				templateDepth.push(0);
				i = j + 2;
			} else {
				i = j + 1;
			}
			codeFrom = i;
		} else {
			if (templateDepth.length)
				templateDepth[templateDepth.length - 1] += c === '{' ? 1 : c === '}' ? -1 : 0;
			i++;
		}
	}
	return tokens;
}

/** The ids in a text, ranges spelled out ("E1-E5" is E1 to E5). */
function idsIn(text: string): string[] {
	const ids: string[] = [];
	for (const match of text.matchAll(ID_TOKEN)) {
		if (NOT_RULES.test(text.slice(match.index + match[0].length))) continue;
		const [, first, last] = match;
		if (!last || last[0] !== first[0]) {
			ids.push(first, ...(last ? [last] : []));
			continue;
		}
		for (let n = Number(first[1]); n <= Number(last[1]); n++) ids.push(`${first[0]}${n}`);
	}
	return ids;
}

/** Whether a string literal is the name given to it(), test() or describe(), also after .each(table). */
function isTestName(masked: string, token: Token): boolean {
	const before = masked.slice(0, token.start).trimEnd();
	if (!before.endsWith('(')) return false;
	const callee = before.slice(0, -1).trimEnd();
	if (!callee.endsWith(')'))
		return /\b(it|test|describe)(\.(only|skip|concurrent|failing))?$/.test(callee);
	let depth = 0;
	for (let k = callee.length - 1; k >= 0; k--) {
		if (callee[k] === ')') depth++;
		if (callee[k] === '(' && --depth === 0)
			return /\b(it|test|describe)(\.\w+)*\.each\s*$/.test(callee.slice(0, k));
	}
	return false;
}

interface Citation {
	id: string;
	file: string;
	line: number;
	inTestName: boolean;
}

/** Every rule id a source cites: anywhere in a comment or a test name, and in the rule forms in other strings. */
function citations(source: string, file: string): Citation[] {
	const tokens = tokenize(source);
	let masked: string | undefined;
	/** The source with every comment and string blanked, so brackets can be counted; made only when needed. */
	const code = () => {
		if (masked === undefined) {
			let from = 0;
			const parts: string[] = [];
			for (const token of tokens) {
				parts.push(
					source.slice(from, token.start),
					' '.repeat(Math.min(token.end, source.length) - token.start),
				);
				from = token.end;
			}
			masked = parts.join('') + source.slice(from);
		}
		return masked;
	};
	const lineStarts = [0, ...[...source.matchAll(/\n/g)].map((match) => match.index + 1)];
	const lineOf = (offset: number) => {
		let line = 0;
		while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
		return line + 1;
	};
	const found: Citation[] = [];
	for (const token of tokens) {
		if (!ANY_ID.test(token.text)) continue;
		const inTestName = token.kind === 'string' && isTestName(code(), token);
		const texts =
			token.kind === 'comment' || inTestName
				? [token.text]
				: RULE_FORMS.flatMap((form) => token.text.match(form) ?? []);
		const line = lineOf(token.start);
		for (const text of texts)
			for (const id of idsIn(text)) found.push({ id, file, line, inTestName });
	}
	return found;
}

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
		return /\.(ts|js)$/.test(entry.name) && path !== __filename ? [path] : [];
	});
}

let scanned: Citation[] | undefined;
/** Every citation in the citing folders, read once per run. */
const allCitations = (): Citation[] =>
	(scanned ??= CITING_FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).flatMap((path) =>
		citations(readFileSync(path, 'utf8'), relative(ROOT, path)),
	));

interface Entry {
	id: string;
	body: string;
}

/** The contract's entries: a "### A1 ..." heading and the text up to the next heading. */
function contractEntries(markdown: string): Entry[] {
	const parts = markdown.split(/^(?=#{2,3} )/m);
	return parts.flatMap((part) => {
		const heading = part.match(new RegExp(`^### (${ID})\\b`));
		return heading ? [{ id: heading[1], body: part }] : [];
	});
}

/** The local files a markdown line links to (targets relative to the markdown file's folder). */
const linkTargets = (line: string) =>
	[...line.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const counts = new Map<string, number>();
	const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
	for (const [, text] of withoutCode.matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
		const slug = text
			.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const seen = counts.get(slug) ?? 0;
		counts.set(slug, seen + 1);
		anchors.add(seen ? `${slug}-${seen}` : slug);
	}
	return anchors;
}

/** Every relative link and image of a markdown file that does not lead to an existing file or heading. */
function brokenLinks(path: string): string[] {
	const markdown = readFileSync(path, 'utf8')
		.replace(/^```[\s\S]*?^```/gm, '')
		.replace(/`[^`\n]*`/g, '');
	const targets = [
		...[...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]),
		...[...markdown.matchAll(/<img [^>]*src="([^"]+)"/g)].map((match) => match[1]),
	];
	return targets.flatMap((target) => {
		if (/^[a-z]+:/i.test(target)) return [];
		const [file, anchor] = target.split('#');
		const linked = file ? resolve(dirname(path), file) : path;
		if (!existsSync(linked)) return [`${relative(ROOT, path)}: ${target} (no such file)`];
		if (anchor === undefined) return [];
		if (statSync(linked).isDirectory() || !linked.endsWith('.md'))
			return [`${relative(ROOT, path)}: ${target} (anchor into a non-markdown file)`];
		return anchorsOf(readFileSync(linked, 'utf8')).has(anchor)
			? []
			: [`${relative(ROOT, path)}: ${target} (no such heading)`];
	});
}

describe('docs/service-contract.md: every rule id resolves inside the repository', () => {
	const entries = contractEntries(readFileSync(CONTRACT, 'utf8'));
	const defined = new Set(entries.map((entry) => entry.id));

	it('reads rule ids the ways code and tests write them, and nothing else', () => {
		const source = [
			'// Rule A6: no secret leaves. Rules A2 and A5 here (rule E5) and (rules E1-E3).',
			'/** The template state an E4 answer carries; Media v2 (M1-M2), (T1/T3). Not the L2 cache. */',
			"it('A1/E6: login works', () => {});",
			"it.each([[1, 'x']] as const)('T2/E4: sends %s', async () => {});",
			"describe('contacts (C1, C2)', () => {});",
			"const cases = [['JSON Body (custom API call, X1)', {}]];",
			"const data = { orderId: 'V4-ORD-1', name: 'E6 mug', message: 'V3' };",
			'const T4 = 1; const re = /"L1" (V5)/;',
			'const note = `rule ${"M3"} is (rule M4)`;',
		].join('\n');
		const found = citations(source, 'sample.ts');
		expect([...new Set(found.map((c) => c.id))].sort()).toEqual(
			[
				'A1',
				'A2',
				'A5',
				'A6',
				'C1',
				'C2',
				'E1',
				'E2',
				'E3',
				'E4',
				'E5',
				'E6',
				'M1',
				'M2',
				'M4',
				'T1',
				'T2',
				'T3',
				'X1',
			].sort(),
		);
		expect(found.filter((c) => c.inTestName).map((c) => c.id)).toEqual([
			'A1',
			'E6',
			'T2',
			'E4',
			'C1',
			'C2',
		]);
	});

	it('every rule id cited in code comments, strings and test names has an entry', () => {
		const cited = allCitations();
		expect(cited.length).toBeGreaterThan(300);
		const unknown = cited
			.filter((citation) => !defined.has(citation.id))
			.map((c) => `${c.id} at ${c.file}:${c.line}`);
		expect(unknown).toEqual([]);
	});

	it('every entry is named by at least one test name (a rule with no test is not done)', () => {
		const named = new Set(
			allCitations()
				.filter((c) => c.inTestName)
				.map((c) => c.id),
		);
		expect(entries.length).toBeGreaterThanOrEqual(32);
		expect(entries.map((entry) => entry.id).filter((id) => !named.has(id))).toEqual([]);
	});

	it('every entry says where the package carries it out and which test files prove it, and those files name it', () => {
		const wrong = entries.flatMap(({ id, body }) => {
			const where = body.match(/^\*\*In the package:\*\*.*$/m);
			const proven = body.match(/^\*\*Proven by:\*\*[\s\S]*?\.$/m);
			if (!where || !proven) return [`${id}: missing "In the package:" or "Proven by:"`];
			const files = linkTargets(proven[0]).map((target) =>
				relative(ROOT, resolve(dirname(CONTRACT), target)),
			);
			if (!files.length) return [`${id}: "Proven by:" names no test file`];
			return files
				.filter(
					(file) => !allCitations().some((c) => c.file === file && c.inTestName && c.id === id),
				)
				.map((file) => `${id}: ${file} has no test named ${id}`);
		});
		expect(wrong).toEqual([]);
	});

	it('each id has exactly one entry', () => {
		const ids = entries.map((entry) => entry.id);
		expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
	});
});

describe('README.md and docs/: every relative link leads to a file or heading that exists', () => {
	const files = [
		join(ROOT, 'README.md'),
		...readdirSync(join(ROOT, 'docs'))
			.filter((name) => name.endsWith('.md'))
			.map((name) => join(ROOT, 'docs', name)),
	];

	it('finds the headings GitHub makes anchors of', () => {
		expect([
			...anchorsOf(
				'# A\n## `npm run demo`\n### Scaling out (n8n queue mode)\n## A\n```\n# not a heading\n```\n',
			),
		]).toEqual(['a', 'npm-run-demo', 'scaling-out-n8n-queue-mode', 'a-1']);
	});

	it.each(files.map((path) => [relative(ROOT, path), path]))('%s', (_name, path) => {
		expect(brokenLinks(path)).toEqual([]);
	});
});
