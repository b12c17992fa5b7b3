/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { forgetProcessState } from '../../nodes/CommerceMessaging/helpers/deduplication';
import { Engine } from '../../tools/harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * The trip of one order event: every shipped file (transport/, nodes/, credentials/) in which a function ran while
 * n8n's engine pushed one order with the defaults, first run with its login, and the lines of those files. It is
 * what a newcomer follows to understand a request, so it has a budget (docs/development.md). `npm run trip` prints it.
 */

const ROOT = resolve(__dirname, '../..');
const SHIPPED = /^(transport|nodes|credentials)\//;
/** The budget of the trip: files, and lines as Prettier writes them (docs/development.md, "How a request flows"). */
const MAX_FILES = 15;
const MAX_LINES = 3_500;

interface FunctionCoverage {
	functionName: string;
	ranges: Array<{ startOffset: number; count: number }>;
}

async function filesRunDuring(work: () => Promise<void>): Promise<string[]> {
	const session = new Session();
	session.connect();
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
		// Taking coverage resets the counts: what comes next is the work alone, not the loading of the modules.
		await session.post('Profiler.takePreciseCoverage');
		await work();
		const { result } = (await session.post('Profiler.takePreciseCoverage')) as unknown as {
			result: Array<{ url: string; functions: FunctionCoverage[] }>;
		};
		await session.post('Profiler.stopPreciseCoverage');
		const files = new Set<string>();
		for (const script of result) {
			const path = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
			const file = relative(ROOT, path);
			if (!SHIPPED.test(file) || !file.endsWith('.ts')) continue;
			// A module's own body (the function at offset 0) ran when it was loaded, before the trip.
			const ran = script.functions.some(
				(fn) => fn.ranges[0].startOffset > 0 && fn.ranges[0].count > 0,
			);
			if (ran) files.add(file);
		}
		return [...files].sort();
	} finally {
		session.disconnect();
	}
}

const linesOf = (file: string) => readFileSync(resolve(ROOT, file), 'utf8').split('\n').length - 1;

describe('The trip of one order event', () => {
	let sandbox: Sandbox;
	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox.close());

	it(`stays within ${MAX_FILES} shipped files and ${MAX_LINES.toLocaleString('en-US')} lines`, async () => {
		forgetProcessState();
		const engine = new Engine(credentialsFor(sandbox));
		let error: unknown;
		const files = await filesRunDuring(async () => {
			const result = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'pushEvent',
					orderId: 'TRIP-1',
					status: 'paid',
				},
			});
			error = result.error;
		});
		expect(error).toBeUndefined();
		expect(engine.logins).toBe(1);
		const rows = files.map((file) => ({ file, lines: linesOf(file) }));
		const lines = rows.reduce((sum, row) => sum + row.lines, 0);
		const width = Math.max(...rows.map((row) => row.file.length));
		// eslint-disable-next-line no-console -- the trip is this test's report
		console.log(
			[
				'One order event (Order > Push Event, defaults, first run with its login) runs functions in:',
				...rows.map((row) => `  ${row.file.padEnd(width)}  ${String(row.lines).padStart(5)}`),
				`  ${'files: ' + rows.length}${' '.repeat(Math.max(1, width - 8 - String(rows.length).length))}lines: ${lines}`,
			].join('\n'),
		);
		// The probe sees the trip at all: an empty list would pass the bounds below.
		expect(rows.map((row) => row.file)).toEqual(
			expect.arrayContaining([
				'nodes/CommerceMessaging/actions/order/pushEvent.operation.ts',
				'transport/request.ts',
			]),
		);
		expect(rows.length).toBeLessThanOrEqual(MAX_FILES);
		expect(lines).toBeLessThanOrEqual(MAX_LINES);
	});
});
