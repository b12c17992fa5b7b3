'use strict';
/**
 * `npm run bench:redaction`: what redacting the session's secrets (transport/redact.ts, rule A6) costs on the largest
 * answer, 16 MB, against the longest token, 16 KB, beside a plain pass over the same text. The worst texts are near
 * matches: the token but its last character, over and over. Medians of REDACTION_REPS (5) runs after a warm-up;
 * REDACTION_MB (16) sets the size. `--before <commit>` also times that commit's redact.ts on a case it can finish
 * (1 MB against a 2,000-character token, one run each). See docs/performance.md ("Redaction").
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { median } = require('./lib/stats');

const ROOT = path.resolve(__dirname, '..');
const MB = 1024 * 1024;
const SIZE = Number(process.env.REDACTION_MB ?? 16) * MB;
const REPS = Number(process.env.REDACTION_REPS ?? 5);

/** transport/redact.ts (or that of a commit) as plain JavaScript, like ts-jest runs it: no type check. */
function load(commit) {
	const ts = require('typescript');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-redaction-'));
	// An older redact.ts may import its text walker from a file of its own.
	const exists = (file) => !commit || !!execFileSync('git', ['ls-tree', '--name-only', commit, `transport/${file}`], { cwd: ROOT, encoding: 'utf8' }).trim();
	const files = ['redact.ts', 'walkTexts.ts'].filter((file) => (commit ? exists(file) : file === 'redact.ts'));
	for (const file of files) {
		const source = commit
			? execFileSync('git', ['show', `${commit}:transport/${file}`], { cwd: ROOT, encoding: 'utf8' })
			: fs.readFileSync(path.join(ROOT, 'transport', file), 'utf8');
		const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
		fs.writeFileSync(path.join(dir, file.replace(/\.ts$/, '.js')), outputText);
	}
	const module = require(path.join(dir, 'redact.js'));
	fs.rmSync(dir, { recursive: true, force: true });
	return module;
}

/** Near matches of a token: all of it but its last character, then `\~` (an escape: no quick path), over and over. */
const nearMatches = (token, size) => `${token.slice(0, -1)}\\~`.repeat(Math.ceil(size / token.length)).slice(0, size);

function randomToken(length) {
	let seed = 1;
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
	let token = '';
	for (let i = 0; i < length; i++) {
		seed = (seed * 16807) % 2147483647;
		token += alphabet[seed % alphabet.length];
	}
	return token;
}

function medianMs(work, reps = REPS) {
	work();
	const times = [];
	for (let i = 0; i < reps; i++) {
		const start = process.hrtime.bigint();
		work();
		times.push(Number(process.hrtime.bigint() - start) / 1e6);
	}
	return median(times);
}

function main() {
	const redact = load();
	const periodic = 'a'.repeat(16_384);
	const random = randomToken(16_384);
	const cases = [
		{ label: '16 KB periodic token (one letter), near matches', token: periodic, text: nearMatches(periodic, SIZE) },
		{ label: '16 KB periodic token, near matches as JSON \\u escapes', token: periodic, text: nearMatches('\\u0061'.repeat(16_384), SIZE) },
		{ label: '16 KB random token, near matches', token: random, text: nearMatches(random, SIZE) },
		// The usual answer: no secret, and escapes of no letter or digit (PHP writes `\/` in every URL).
		{ label: '16 KB random token, a list as PHP writes it, no token in it', token: random, text: '{"id":1,"url":"https:\\/\\/shop.example.com\\/p\\/1","note":"say \\"hi\\""},'.repeat(SIZE / 64).slice(0, SIZE) },
	];
	const plain = cases[0].text;
	let checksum = 0;
	const passMs = medianMs(() => {
		let sum = 0;
		for (let i = 0; i < plain.length; i++) sum += plain.charCodeAt(i);
		checksum += sum;
	});
	const indexOfMs = medianMs(() => plain.indexOf('#absent'));
	const rows = [
		['one pass over the characters (charCodeAt)', passMs, '', ''],
		['indexOf of an absent string', indexOfMs, '', ''],
	];
	for (const { label, token, text } of cases) {
		const secrets = new redact.SecretSet();
		secrets.add(token);
		let same = false;
		redact.searchWork.steps = 0;
		const ms = medianMs(() => (same = secrets.redactSecrets(text) === text));
		if (!same) throw new Error(`${label}: the text holds no token, yet it was changed`);
		rows.push([`redactSecrets, ${label}`, ms, (ms / passMs).toFixed(1), (redact.searchWork.steps / (REPS + 1) / text.length).toFixed(2)]);
	}
	const lines = [
		`Redaction of ${SIZE / MB} MB, Node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'CPU'}, medians of ${REPS}:`,
		'',
		'| Work | ms | x one pass | steps per character |',
		'|---|--:|--:|--:|',
		...rows.map(([label, ms, ratio, steps]) => `| ${label} | ${ms.toFixed(1)} | ${ratio} | ${steps} |`),
	];
	const before = process.argv.indexOf('--before');
	if (before > 0) {
		const commit = process.argv[before + 1];
		const former = load(commit);
		const token = 'a'.repeat(2_000);
		lines.push('', `1 MB of near matches of a 2,000-character periodic token, one run each (${commit} / this checkout):`);
		for (const [label, letter] of [['as it is', 'a'], ['URL-encoded', '%61']]) {
			const text = nearMatches(letter.repeat(token.length), MB);
			const [then, now] = [former, redact].map((version) => {
				const secrets = new version.SecretSet();
				secrets.add(token);
				// Whatever a version prepares for the first text that needs it stays outside the timing.
				secrets.redactSecrets(`\\${token}`);
				const start = process.hrtime.bigint();
				secrets.redactSecrets(text);
				return Number(process.hrtime.bigint() - start) / 1e6;
			});
			lines.push(`- ${label}: ${then.toFixed(0)} ms / ${now.toFixed(1)} ms`);
		}
	}
	process.stdout.write(`${lines.join('\n')}\n`);
	return checksum;
}

main();
