/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import { GlobalConfig } from '@n8n/config';
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import { forgetProcessState } from '../../nodes/CommerceMessaging/helpers/deduplication';
import { Engine, type RunResult } from '../../tools/harness/engine';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * The node tells the user what it did on their behalf, where they look: a hint above the output for each thing
 * worth knowing (none on a plain success), and for operators one debug line per request in n8n's log (only at
 * debug level) and a warning for each unusual case. Never a secret in either.
 */

const NODE = 'Commerce Messaging';
const hintsOf = (result: RunResult) =>
	(
		(
			result.run.data.resultData.runData[NODE]?.[0] as {
				hints?: Array<{ message: string; type?: string }>;
			}
		)?.hints ?? []
	).map((hint) => hint.message);

const pushOrder = {
	resource: 'order',
	operation: 'pushEvent',
	orderId: '={{ $json.orderId }}',
	status: '={{ $json.status }}',
};
const orders = (...ids: string[]) => ids.map((orderId) => ({ json: { orderId, status: 'paid' } }));

/** n8n's logger at `level`, as the engine's contexts take it, with every line it would print kept. */
function loggerAt(level: 'info' | 'debug') {
	const config = Container.get(GlobalConfig);
	const logger = new Logger(
		{ ...config, logging: { ...config.logging, level, outputs: [], scopes: [] } } as GlobalConfig,
		{} as never,
	);
	const lines: Array<{ level: string; message: string; metadata: IDataObject }> = [];
	// What every level's method of n8n's Logger ends in (a level below the configured one is a no-op before it).
	const writable = logger as unknown as {
		log: (level: string, message: string, metadata: IDataObject) => void;
	};
	writable.log = (lineLevel, message, metadata) =>
		void lines.push({ level: lineLevel, message, metadata });
	const previous = Container.get(Logger);
	Container.set(Logger, logger);
	return { lines, restore: () => Container.set(Logger, previous) };
}

describe('What the node tells the user: execution hints and log lines', () => {
	let sandbox: Sandbox;
	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox.close());
	beforeEach(() => forgetProcessState());
	afterEach(() => {
		sandbox.faults.clear();
		sandbox.setConfig({ maxPageSize: 1000, paging: 'standard' });
	});

	it('no hint on a plain success', async () => {
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('PLAIN-1', 'PLAIN-2'),
		});
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([]);
	});

	it('V4: N of M items skipped as duplicates, and how to send them again', async () => {
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('DUP-1', 'DUP-1', 'DUP-2'),
		});
		expect(hintsOf(result)).toEqual([
			'1 of 3 items were skipped as duplicates: the same event was sent before, within the deduplication window (the items say when). To send them again, turn off Options > Deduplicate, or shorten the window.',
		]);
	});

	it('E5/L1: a rate limit without Retry-After is told too, with how often it was hit', async () => {
		sandbox.faults.inject({
			method: 'POST',
			path: '/api/v1/order/',
			kind: '429-no-retry-after',
			times: 2,
		});
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('RATE-NO-AFTER-1'),
		});
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			"The service's rate limit was hit 2 times (without a Retry-After): each time the request waited a growing backoff and was tried again.",
		]);
	});

	it("E5: the time waited for the service's rate limit", async () => {
		sandbox.faults.inject({
			method: 'POST',
			path: '/api/v1/order/',
			kind: '429',
			retryAfter: 1,
			times: 1,
		});
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('RATE-1'),
		});
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toContainEqual(
			expect.stringMatching(
				/^Waited 1(\.\d)? s in all for the service's rate limit \(it asked to wait with Retry-After\)\.$/,
			),
		);
	});

	it('L2: the time waited between batches', async () => {
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: {
				resource: 'message',
				operation: 'send',
				phone: '={{ $json.phone }}',
				message: 'Hi',
				options: { batching: { batch: { batchSize: 1, batchInterval: 1_000 } } },
			},
			items: ['+4915100000001', '+4915100000002', '+4915100000003'].map((phone) => ({
				json: { phone },
			})),
		});
		expect(result.error).toBeUndefined();
		// Batches 2 and 3 start 1 s and 2 s after the first: about 2 s held in all, less how late the lanes started.
		expect(hintsOf(result)).toEqual([
			expect.stringMatching(
				/^Waited (1\.[5-9]|2) s in all between batches \(Options > Batching: 1 items, then 1,000 ms\)\.$/,
			),
		]);
	});

	it('A3: a login again after the service refused the token, said once for the run', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		expect(
			(await engine.run({ parameters: pushOrder, items: orders('RELOGIN-0') })).error,
		).toBeUndefined();
		sandbox.revokeTokens();
		const result = await engine.run({
			parameters: { ...pushOrder, requestOptions: { concurrency: 4 } },
			items: orders('RELOGIN-1', 'RELOGIN-2', 'RELOGIN-3'),
		});
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			'Logged in again after the service refused the session token (once for the run).',
		]);
	});

	it('L1: requests retried after an error, with the kinds, and whether they went through', async () => {
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '503', times: 2 });
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 2 },
		});
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			'1 request was retried after an error (2 HTTP 5xx answers); all of them went through.',
		]);
	}, 15_000);

	it('L3: a list of many pages says how many it read', async () => {
		sandbox.setConfig({ maxPageSize: 5 });
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
		});
		expect(result.items).toHaveLength(45);
		expect(hintsOf(result)).toEqual([
			"Read 9 pages of the service's lists, at most 8 at a time (Request Options > Concurrency sets it, up to 8).",
		]);
		// Fewer side by side when the run's Concurrency is lower: the hint says what was done, not the ceiling.
		const fewer = await new Engine(credentialsFor(sandbox)).run({
			parameters: {
				resource: 'contact',
				operation: 'getAll',
				returnAll: true,
				requestOptions: { concurrency: 2 },
			},
		});
		expect(fewer.items).toHaveLength(45);
		expect(hintsOf(fewer)).toEqual([
			"Read 9 pages of the service's lists, at most 2 at a time (Request Options > Concurrency sets it, up to 8).",
		]);
	});

	it("L3: Limit reached, where n8n's editor cannot tell (a Limit from an expression); none where it does", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const byExpression = await engine.run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: '={{ 5 }}' },
		});
		expect(hintsOf(byExpression)).toEqual([
			'Limit reached: the list has more records than the Limit let through. Raise Limit, or turn on Return All, to get them all.',
		]);
		const typed = await engine.run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 5 },
		});
		expect(typed.items).toHaveLength(5);
		expect(hintsOf(typed)).toEqual([]);
		const wholeList = await engine.run({
			parameters: {
				resource: 'contact',
				operation: 'getAll',
				returnAll: false,
				limit: '={{ 500 }}',
			},
		});
		expect(hintsOf(wholeList)).toEqual([]);
		// Without a total, a list cut at the Limit may have ended there: the hint does not claim more.
		sandbox.setConfig({ paging: 'no-total' });
		const noTotal = await engine.run({
			parameters: {
				resource: 'contact',
				operation: 'getAll',
				returnAll: false,
				limit: '={{ 45 }}',
			},
		});
		expect(noTotal.items).toHaveLength(45);
		expect(hintsOf(noTotal)).toEqual([
			'Limit reached: the list may have more records than the Limit let through. Raise Limit, or turn on Return All, to get them all.',
		]);
	});

	it("L3: a list read once per input item points to Execute Once (n8n's editor says it for operations named getAll)", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const history = await engine.run({
			parameters: { resource: 'order', operation: 'getHistory', returnAll: true },
			items: [{ json: {} }, { json: {} }],
		});
		expect(hintsOf(history)).toEqual([
			"This node read the list 2 times, once for each input item. Use 'Execute Once' in the node settings to read it only once.",
		]);
		const once = await engine.run({
			parameters: { resource: 'order', operation: 'getHistory', returnAll: true },
		});
		expect(hintsOf(once)).toEqual([]);
	});

	describe("n8n's log", () => {
		it('one debug line per request (method, route, status, attempt, duration, item), printed only at debug level; no secret', async () => {
			const debug = loggerAt('debug');
			try {
				const result = await new Engine(credentialsFor(sandbox, DEMO)).run({
					parameters: pushOrder,
					items: orders('LOG-1', 'LOG-2'),
				});
				expect(result.error).toBeUndefined();
				const lines = debug.lines.filter((line) => line.message.startsWith('Commerce Messaging: '));
				expect(lines.map((line) => [line.level, line.message])).toEqual([
					['debug', 'Commerce Messaging: POST orderEvent -> 201'],
					['debug', 'Commerce Messaging: POST orderEvent -> 201'],
				]);
				expect(lines[0].metadata).toMatchObject({
					node: NODE,
					method: 'POST',
					route: 'orderEvent',
					status: 201,
					attempt: 1,
					itemIndex: expect.any(Number),
					durationMs: expect.any(Number),
				});
				const text = JSON.stringify(debug.lines);
				for (const secret of [DEMO.password, DEMO.pluginKey, 'Bearer '])
					expect(text).not.toContain(secret);
			} finally {
				debug.restore();
			}

			const info = loggerAt('info');
			try {
				const result = await new Engine(credentialsFor(sandbox, DEMO)).run({
					parameters: pushOrder,
					items: orders('LOG-3'),
				});
				expect(result.error).toBeUndefined();
				expect(info.lines.filter((line) => line.message.startsWith('Commerce Messaging'))).toEqual(
					[],
				);
			} finally {
				info.restore();
			}
		});

		it('a warning for each unusual case (here: the rate limit), at the level n8n prints by default', async () => {
			const info = loggerAt('info');
			try {
				sandbox.faults.inject({
					method: 'POST',
					path: '/api/v1/order/',
					kind: '429',
					retryAfter: 1,
					times: 1,
				});
				await new Engine(credentialsFor(sandbox, DEMO)).run({
					parameters: pushOrder,
					items: orders('WARN-1'),
				});
				const warnings = info.lines.filter(
					(line) => line.level === 'warn' && line.message.startsWith('Commerce Messaging'),
				);
				expect(warnings.map((line) => line.message)).toEqual([
					expect.stringMatching(
						/^Commerce Messaging: Waited 1(\.\d)? s in all for the service's rate limit/,
					),
				]);
			} finally {
				info.restore();
			}
		});
	});
});
