'use strict';
/**
 * Transpiles the node, the credential and the test harness (TypeScript) to CommonJS once per bench run, like
 * ts-jest does for the tests (no type check), into node_modules/.cache/cm-bench: inside the repo so that
 * `require('n8n-workflow')` resolves to the repo's dependencies, and outside every tsconfig/jest/eslint root.
 * The contender processes then load plain JavaScript and no TypeScript compiler, so their memory is their own.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const OUT = path.join(ROOT, 'node_modules', '.cache', 'cm-bench');
const SOURCES = ['nodes', 'credentials', 'transport', path.join('tools', 'harness')];

function walk(dir, files = []) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) walk(full, files);
		else files.push(full);
	}
	return files;
}

/** @returns {string} the folder that mirrors the repo (OUT/tools/harness/engine.js, OUT/nodes/...) */
function build() {
	const ts = require('typescript');
	fs.rmSync(OUT, { recursive: true, force: true });
	const compilerOptions = {
		module: ts.ModuleKind.CommonJS,
		target: ts.ScriptTarget.ES2022,
		esModuleInterop: true,
		isolatedModules: true,
		resolveJsonModule: true,
		sourceMap: false,
	};
	let count = 0;
	for (const source of SOURCES) {
		for (const file of walk(path.join(ROOT, source))) {
			const relative = path.relative(ROOT, file);
			const target = path.join(OUT, relative);
			fs.mkdirSync(path.dirname(target), { recursive: true });
			if (file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts')) {
				const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), { compilerOptions, fileName: file });
				fs.writeFileSync(target.replace(/\.ts$/, '.js'), outputText);
				count++;
			} else if (file.endsWith('.json') || file.endsWith('.js')) {
				fs.copyFileSync(file, target);
			}
		}
	}
	return { dir: OUT, files: count };
}

module.exports = { build, OUT, ROOT };
