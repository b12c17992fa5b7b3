// n8n's own verification lint for community packages (@n8n/scan-community-package, the scanner n8n runs before
// it lists a package as verified), run offline on the sources and on the unpacked `npm pack` tarball.
// Usage: node scripts/verify-package.mjs <scanner dir> <package dir> [<unpacked tarball dir>]
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [scannerDir, sourceDir, packedDir] = process.argv.slice(2);
const scanner = await import(
	pathToFileURL(path.join(scannerDir, 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs')).href
);

let failed = false;
for (const [label, dir, patterns] of [
	['sources', sourceDir, scanner.SOURCE_FILE_PATTERNS],
	['packed tarball', packedDir, undefined],
]) {
	if (!dir) continue;
	const result = await scanner.analyzePackage(dir, patterns);
	const details = (result.details ?? '').trim();
	console.log(`n8n verification scan of the ${label}: ${result.passed ? 'passed' : 'FAILED'}${details ? `\n${details}` : ''}`);
	if (!result.passed) failed = true;
}
process.exit(failed ? 1 : 0);
