/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The closing line and the verdict of `npm test` (scripts/lib/testSummary.js, called by scripts/test.sh), run as
 * the script runs it, on hand-made jest `--json` result files.
 */
const SCRIPT = join(__dirname, '..', '..', 'scripts', 'lib', 'testSummary.js');

const result = (overrides: Record<string, unknown> = {}) => ({
	success: true,
	numTotalTests: 10,
	numPassedTests: 10,
	numFailedTests: 0,
	numPendingTests: 0,
	numTodoTests: 0,
	numTotalTestSuites: 2,
	numPassedTestSuites: 2,
	numFailedTestSuites: 0,
	numPendingTestSuites: 0,
	numRuntimeErrorTestSuites: 0,
	...overrides,
});

describe('npm test closing line and verdict (scripts/lib/testSummary.js)', () => {
	let dir: string;
	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), 'cm-test-summary-'));
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	const write = (name: string, content: unknown) => {
		const file = join(dir, name);
		writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
		return file;
	};
	const summary = (...args: string[]) => {
		const run = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
		return { line: run.stdout.trim(), status: run.status, stderr: run.stderr };
	};

	it('all passed in both runs: the sums, and success', () => {
		const unit = write(
			'unit-ok.json',
			result({ numTotalTests: 300, numPassedTests: 298, numPendingTests: 1, numTodoTests: 1 }),
		);
		const e2e = write('e2e-ok.json', result({ numTotalTests: 40, numPassedTests: 40 }));
		expect(summary(unit, e2e)).toEqual({
			line: 'tests: 338 passed, 0 failed, 2 skipped',
			status: 0,
			stderr: '',
		});
	});

	it('a failed test in either run fails, and is counted', () => {
		const unit = write(
			'unit-fail.json',
			result({ success: false, numPassedTests: 9, numFailedTests: 1, numFailedTestSuites: 1 }),
		);
		const e2e = write('e2e-ok2.json', result());
		const run = summary(unit, e2e);
		expect(run.line).toBe('tests: 19 passed, 1 failed, 0 skipped');
		expect(run.status).toBe(1);
		const e2eFail = write(
			'e2e-fail.json',
			result({ success: false, numPassedTests: 8, numFailedTests: 2 }),
		);
		expect(summary(write('unit-ok2.json', result()), e2eFail).status).toBe(1);
	});

	it('a suite that does not even load (0 tests, a runtime error) fails', () => {
		const unit = write(
			'unit-broken.json',
			result({ success: false, numRuntimeErrorTestSuites: 1 }),
		);
		expect(summary(unit, write('e2e-ok3.json', result())).status).toBe(1);
	});

	it('an e2e suite skipped (describe.skip: E2E_N8N_VERSIONS=2 leaves out n8n 1.x) fails, and the skips are counted', () => {
		const e2e = write(
			'e2e-skipped-suite.json',
			result({
				numTotalTests: 30,
				numPassedTests: 20,
				numPendingTests: 10,
				numPendingTestSuites: 1,
				numPassedTestSuites: 3,
			}),
		);
		const run = summary(write('unit-ok3.json', result()), e2e);
		expect(run.line).toBe('tests: 30 passed, 0 failed, 10 skipped');
		expect(run.status).toBe(1);
		expect(run.stderr).toMatch(/end-to-end: 10 tests and 1 suites skipped/);
	});

	it('a single skipped or todo e2e test fails too; skipped unit tests are only counted', () => {
		const unit = write('unit-skip.json', result({ numPassedTests: 9, numPendingTests: 1 }));
		expect(summary(unit, write('e2e-ok4.json', result())).status).toBe(0);
		expect(
			summary(unit, write('e2e-skip.json', result({ numPassedTests: 9, numPendingTests: 1 })))
				.status,
		).toBe(1);
		expect(
			summary(unit, write('e2e-todo.json', result({ numPassedTests: 9, numTodoTests: 1 }))).status,
		).toBe(1);
	});

	it('an e2e run with no test at all fails', () => {
		const e2e = write(
			'e2e-empty.json',
			result({ numTotalTests: 0, numPassedTests: 0, numTotalTestSuites: 0 }),
		);
		const run = summary(write('unit-ok4.json', result()), e2e);
		expect(run.status).toBe(1);
		expect(run.stderr).toMatch(/no test ran/);
	});

	it('a missing or unreadable result file fails (jest crashed, e.g. in globalSetup)', () => {
		expect(summary(write('unit-ok5.json', result()), join(dir, 'absent.json')).status).toBe(1);
		expect(
			summary(write('unit-garbled.json', '{"numPassedTests": 3,'), write('e2e-ok5.json', result()))
				.status,
		).toBe(1);
	});

	it('an e2e run in parts (the queue-mode file runs alone): counted as one; a failure, a skip or a missing part fails it', () => {
		const unit = write('unit-ok7.json', result());
		const part1 = write('e2e-part1.json', result({ numTotalTests: 50, numPassedTests: 50 }));
		const part2 = write('e2e-part2.json', result({ numTotalTests: 5, numPassedTests: 5 }));
		expect(summary(unit, part1, part2)).toEqual({
			line: 'tests: 65 passed, 0 failed, 0 skipped',
			status: 0,
			stderr: '',
		});
		const failing = write(
			'e2e-part2-fail.json',
			result({
				success: false,
				numTotalTests: 5,
				numPassedTests: 4,
				numFailedTests: 1,
				numFailedTestSuites: 1,
			}),
		);
		expect(summary(unit, part1, failing)).toMatchObject({
			line: 'tests: 64 passed, 1 failed, 0 skipped',
			status: 1,
		});
		const skipped = write(
			'e2e-part2-skip.json',
			result({ numTotalTests: 5, numPassedTests: 0, numPendingTests: 5, numPendingTestSuites: 1 }),
		);
		expect(summary(unit, part1, skipped)).toMatchObject({
			line: 'tests: 60 passed, 0 failed, 5 skipped',
			status: 1,
		});
		expect(summary(unit, part1, join(dir, 'absent-part.json')).status).toBe(1);
	});

	it('e2e not run (SKIP_E2E=1) prints the unit counts and fails', () => {
		const run = summary(write('unit-ok6.json', result()), '--e2e-not-run=SKIP_E2E=1');
		expect(run.line).toBe('tests: 10 passed, 0 failed, 0 skipped');
		expect(run.status).toBe(1);
		expect(run.stderr).toMatch(/end-to-end: not run \(SKIP_E2E=1\)/);
	});
});
