#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * What the published tarball must hold, derived from the sources, and the check of an `npm pack --json` report
 * against it: the compiled nodes, credential and transport (one .js per .ts), the icons, the codex files
 * (*.node.json), README.md, LICENSE and package.json. Nothing else: no source maps, no .ts or .d.ts, no tests.
 *   node scripts/lib/tarballContents.js <npm pack --json report>   (scripts/verify-package.sh runs it)
 * Prints the file count and the size, and exits non-zero listing what is missing or unexpected.
 */
const fs = require('node:fs');
const path = require('node:path');

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
/** The folders whose compiled code is shipped (tsconfig.build.json compiles exactly these). */
const CODE_DIRS = ['nodes', 'credentials', 'transport'];
/** The folders whose icons and codex files the build copies next to the compiled code (gulpfile.js). */
const ASSET_DIRS = ['nodes', 'credentials'];
const TOP_LEVEL = ['README.md', 'LICENSE', 'package.json'];

/** @param {string} dir @returns {string[]} the files below dir, relative to it, with / separators */
function walk(dir) {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return walk(full).map((f) => `${entry.name}/${f}`);
		return entry.isFile() ? [entry.name] : [];
	});
}

/**
 * The tarball's file list as the sources imply it.
 * @param {string} [root] the project folder
 * @returns {string[]} sorted paths inside the package
 */
function expectedFiles(root = PROJECT_ROOT) {
	const files = new Set(TOP_LEVEL);
	for (const dir of CODE_DIRS) {
		for (const f of walk(path.join(root, dir))) {
			if (f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.test.ts')) {
				files.add(`dist/${dir}/${f.replace(/\.ts$/, '.js')}`);
			}
		}
	}
	for (const dir of ASSET_DIRS) {
		for (const f of walk(path.join(root, dir))) {
			if (/\.(svg|png)$/.test(f) || f.endsWith('.node.json')) files.add(`dist/${dir}/${f}`);
		}
	}
	return [...files].sort();
}

/** @param {string} file @returns {string} why such a file does not belong in the tarball */
function whyUnexpected(file) {
	if (file.endsWith('.map')) return 'a source map';
	if (file.endsWith('.d.ts')) return 'a type declaration';
	if (file.endsWith('.ts')) return 'a TypeScript source';
	if (file.endsWith('.tsbuildinfo')) return 'a compiler cache';
	if (/(^|\/)(test|tests|__tests__)\/|\.test\.js$/.test(file)) return 'a test';
	return 'not built from nodes/, credentials/ or transport/';
}

/**
 * Compares the files of an `npm pack --json` report with the expected list.
 * @param {string[]} packed paths in the tarball
 * @param {string[]} expected
 * @returns {string[]} one line per problem (empty when the tarball is exactly as expected)
 */
function tarballProblems(packed, expected) {
	const have = new Set(packed);
	const want = new Set(expected);
	return [
		...expected.filter((f) => !have.has(f)).map((f) => `missing from the tarball: ${f}`),
		...packed.filter((f) => !want.has(f)).map((f) => `unexpected in the tarball: ${f} (${whyUnexpected(f)})`),
	];
}

/** @param {number} bytes */
function kB(bytes) {
	return `${(bytes / 1000).toFixed(1)} kB`;
}

/**
 * @param {{ filename: string, size: number, unpackedSize: number, files: Array<{ path: string }> }} report one entry of
 *   `npm pack --json`
 * @param {string} [root]
 * @returns {{ ok: boolean, lines: string[] }}
 */
function checkPackReport(report, root = PROJECT_ROOT) {
	const packed = report.files.map((f) => f.path).sort();
	const problems = tarballProblems(packed, expectedFiles(root));
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	for (const declared of [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])]) {
		if (!packed.includes(declared)) problems.push(`package.json's n8n section names ${declared}, which the tarball lacks`);
	}
	const summary =
		`tarball ${report.filename}: ${packed.length} files, ${kB(report.size)} packed, ${kB(report.unpackedSize)} unpacked ` +
		`(${packed.filter((f) => f.endsWith('.js')).length} compiled .js, ${packed.filter((f) => /\.(svg|png)$/.test(f)).length} icons, ` +
		`${packed.filter((f) => f.endsWith('.node.json')).length} codex files, README.md, LICENSE, package.json)`;
	return { ok: problems.length === 0, lines: problems.length ? [summary, ...problems] : [summary] };
}

if (require.main === module) {
	const [reportFile] = process.argv.slice(2);
	if (!reportFile) {
		process.stderr.write('usage: node scripts/lib/tarballContents.js <npm pack --json report>\n');
		process.exit(2);
	}
	const [report] = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
	const { ok, lines } = checkPackReport(report);
	process.stdout.write(`${lines.join('\n')}\n`);
	process.exit(ok ? 0 : 1);
}

module.exports = { expectedFiles, tarballProblems, checkPackReport };
