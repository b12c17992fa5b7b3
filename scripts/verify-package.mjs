// n8n's own verification lint for community packages (@n8n/scan-community-package, the scanner n8n runs before
// it lists a package as verified), run offline on the sources and on the unpacked `npm pack` tarball.
// Usage: node scripts/verify-package.mjs <scanner dir> <package dir> [<unpacked tarball dir>]
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Findings we keep on purpose, each with its reason. The scanner ignores inline eslint-disable comments, so they
 * are listed here instead.
 */
/** @type {Array<{ file: string, rule: string, why: string }>} */
const ACCEPTED = [];

const [scannerDir, sourceDir, packedDir] = process.argv.slice(2);
const scanner = await import(
	pathToFileURL(path.join(scannerDir, 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs')).href
);

/** The error lines of ESLint's stylish output that are not accepted above. */
function unexpectedErrors(details) {
	const errors = [];
	let file = '';
	for (const line of details.split('\n')) {
		if (/^\S/.test(line)) file = line.trim();
		const match = /^\s+\d+:\d+\s+error\s+.*\s(\S+)$/.exec(line);
		if (!match) continue;
		const accepted = ACCEPTED.some((a) => file.endsWith(a.file) && a.rule === match[1]);
		if (!accepted) errors.push(`${file}: ${line.trim()}`);
	}
	return errors;
}

let failed = false;
for (const [label, dir, patterns] of [
	['sources', sourceDir, scanner.SOURCE_FILE_PATTERNS],
	['packed tarball', packedDir, undefined],
]) {
	if (!dir) continue;
	const result = await scanner.analyzePackage(dir, patterns);
	const details = (result.details ?? '').trim();
	const errors = result.passed ? [] : unexpectedErrors(details);
	const verdict = result.passed ? 'passed' : errors.length ? 'FAILED' : 'passed (accepted findings only)';
	console.log(`n8n verification scan of the ${label}: ${verdict}${details ? `\n${details}` : ''}`);
	if (!result.passed && !errors.length) {
		for (const a of ACCEPTED) console.log(`accepted: ${a.rule} in ${a.file}: ${a.why}`);
	}
	if (errors.length) failed = true;
}
process.exit(failed ? 1 : 0);
