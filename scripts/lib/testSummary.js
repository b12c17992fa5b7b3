#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * The closing line of `npm test` over the jest runs of scripts/test.sh, from their `--json` result files, and the
 * verdict: `node scripts/lib/testSummary.js <unit.json> [<e2e.json>... | --e2e-not-run=<reason>]` (several e2e
 * files are the parts of one end-to-end run, counted as one).
 *
 * Prints `tests: N passed, N failed, N skipped` (skipped = pending + todo tests, over all runs) and exits non-zero
 * when any run failed, any result file is missing or unreadable, or the end-to-end run skipped anything, ran no
 * test at all, or did not run. The e2e suites skip themselves (describe.skip) when E2E_N8N_VERSIONS or
 * E2E_BROWSER leaves them out, so a narrowed run is reported, never taken for a passing one.
 */
const fs = require('node:fs');

/**
 * @typedef {{ numPassedTests?: number, numFailedTests?: number, numPendingTests?: number, numTodoTests?: number,
 *   numTotalTests?: number, numFailedTestSuites?: number, numRuntimeErrorTestSuites?: number,
 *   numPendingTestSuites?: number, success?: boolean }} JestResult
 */

/** @param {string} file @returns {JestResult | string} the result, or why it cannot be read */
function readResult(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch (error) {
		return `${file}: no readable jest result (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
	}
}

/**
 * @param {{ unit: JestResult | string, e2e: JestResult | string | undefined, e2eNotRun?: string }} runs
 * @returns {{ line: string, problems: string[] }}
 */
function summarize({ unit, e2e, e2eNotRun }) {
	const problems = [];
	let passed = 0;
	let failed = 0;
	let skipped = 0;
	/** @type {Array<[string, JestResult | string | undefined]>} */
	const named = [['unit + engine', unit], ['end-to-end', e2e]];
	for (const [name, result] of named) {
		if (result === undefined) continue;
		if (typeof result === 'string') {
			problems.push(`${name}: ${result}`);
			continue;
		}
		passed += result.numPassedTests ?? 0;
		failed += result.numFailedTests ?? 0;
		skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
		const brokenSuites = (result.numFailedTestSuites ?? 0) + (result.numRuntimeErrorTestSuites ?? 0);
		if ((result.numFailedTests ?? 0) > 0 || brokenSuites > 0 || result.success === false) {
			problems.push(`${name}: ${result.numFailedTests ?? 0} failed tests, ${brokenSuites} failed suites`);
		}
	}
	if (e2eNotRun !== undefined) {
		problems.push(`end-to-end: not run (${e2eNotRun})`);
	} else if (e2e !== undefined && typeof e2e !== 'string') {
		const pendingTests = (e2e.numPendingTests ?? 0) + (e2e.numTodoTests ?? 0);
		const pendingSuites = e2e.numPendingTestSuites ?? 0;
		if (pendingTests > 0 || pendingSuites > 0) {
			problems.push(
				`end-to-end: ${pendingTests} tests and ${pendingSuites} suites skipped (E2E_N8N_VERSIONS / E2E_BROWSER leave them out?); every e2e suite must run`,
			);
		}
		if ((e2e.numTotalTests ?? 0) === 0) problems.push('end-to-end: no test ran');
	} else if (e2e === undefined) {
		problems.push('end-to-end: no result');
	}
	return { line: `tests: ${passed} passed, ${failed} failed, ${skipped} skipped`, problems };
}

/**
 * The parts of one end-to-end run (jest runs one after the other) as one result; a part that cannot be read
 * makes the whole unreadable.
 * @param {Array<JestResult | string>} parts
 * @returns {JestResult | string}
 */
function combine(parts) {
	const unreadable = parts.filter((part) => typeof part === 'string');
	if (unreadable.length > 0) return unreadable.join('; ');
	/** @type {Array<keyof JestResult>} */
	const counts = ['numPassedTests', 'numFailedTests', 'numPendingTests', 'numTodoTests', 'numTotalTests',
		'numFailedTestSuites', 'numRuntimeErrorTestSuites', 'numPendingTestSuites'];
	/** @type {Record<string, number | boolean>} */
	const whole = { success: parts.every((part) => typeof part !== 'string' && part.success !== false) };
	for (const key of counts) {
		whole[key] = parts.reduce((sum, part) => sum + Number((/** @type {JestResult} */ (part))[key] ?? 0), 0);
	}
	return /** @type {JestResult} */ (whole);
}

function main() {
	const args = process.argv.slice(2);
	const notRun = args.find((arg) => arg.startsWith('--e2e-not-run='));
	const files = args.filter((arg) => !arg.startsWith('--'));
	if (files.length === 0) {
		process.stderr.write('usage: testSummary.js <unit.json> [<e2e.json>... | --e2e-not-run=<reason>]\n');
		process.exit(2);
	}
	const { line, problems } = summarize({
		unit: readResult(files[0]),
		e2e: files.length < 2 ? undefined : combine(files.slice(1).map(readResult)),
		e2eNotRun: notRun?.slice('--e2e-not-run='.length),
	});
	for (const problem of problems) process.stderr.write(`FAIL ${problem}\n`);
	process.stdout.write(`\n${line}\n`);
	process.exit(problems.length > 0 ? 1 : 0);
}

if (require.main === module) main();

module.exports = { summarize, readResult, combine };
