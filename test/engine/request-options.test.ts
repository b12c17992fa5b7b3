/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Engine } from '../../tools/harness/engine';
import { isLoginRequest, withHostile, type HostileServer } from '../../tools/harness/hostile';
import { PollHarness } from '../../tools/harness/poll';

/**
 * Every value the Request Options panel (and Batching) accepts works: fractions are rounded, times beyond what a
 * timer allows are capped at about 24.8 days (2^31 - 1 ms), Concurrency at 64; a value that cannot work (negative,
 * zero where zero means nothing, not a number, an expression that fails) fails the run naming the field before any
 * request, and never falls back to a default in silence.
 */

const credentials = (server: HostileServer) => ({
	baseUrl: server.url,
	username: 'ada@shop.test',
	password: 'options-password',
});
const listContacts = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 };
const sendMessage = {
	resource: 'message',
	operation: 'send',
	phone: '+4915123456789',
	message: 'Hi',
};

function answerAfter(delayMs: number, status = 200) {
	let inFlight = 0;
	const handler = (request: IncomingMessage, response: ServerResponse) => {
		if (isLoginRequest(request)) return false;
		request.resume();
		inFlight++;
		handler.mostInFlight = Math.max(handler.mostInFlight, inFlight);
		setTimeout(() => {
			inFlight--;
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(
				status === 200
					? '{"status":"success","data":[{"id":1}]}'
					: '{"status":"error","message":"Unavailable"}',
			);
		}, delayMs);
		return true;
	};
	handler.mostInFlight = 0;
	return handler;
}

describe('Request Options: every value the panel accepts works, a value that cannot work fails naming the field', () => {
	it.each([
		['concurrency', 0, 'Request Options > Concurrency must be 1 or more (got 0)'],
		['concurrency', -3, 'Request Options > Concurrency must be 1 or more (got -3)'],
		['maxAttempts', 0, 'Request Options > Max Attempts must be 1 or more (got 0)'],
		['maxRecords', 0, 'Request Options > Max Records must be 1 or more (got 0)'],
		[
			'maxListMegabytes',
			0,
			'Request Options > Max List Size (MB) must be above 0 (at least 0.001) (got 0)',
		],
		[
			'maxRetryWaitSeconds',
			-1,
			'Request Options > Retry Budget (Seconds) must be 0 or more (0: no retries) (got -1)',
		],
		[
			'timeoutSeconds',
			0,
			'Request Options > Timeout (Seconds) must be above 0 (at least 0.001) (got 0)',
		],
		[
			'timeoutSeconds',
			-2,
			'Request Options > Timeout (Seconds) must be above 0 (at least 0.001) (got -2)',
		],
		[
			'timeoutSeconds',
			'={{ "soon" }}',
			'Request Options > Timeout (Seconds) must be a number, not text ("soon")',
		],
	])('%s = %s fails the run before any request', async (field, value, message) => {
		await withHostile(answerAfter(0), async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: { ...listContacts, requestOptions: { [field]: value } },
			});
			expect(result.error?.message).toBe(message);
			expect(server.requests).toHaveLength(0);
		});
	});

	it('an expression that fails in one option fails the run naming that option; it does not reset the others', async () => {
		await withHostile(answerAfter(0), async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: {
					...listContacts,
					requestOptions: {
						maxRecords: 10,
						timeoutSeconds: "={{ $('No Such Node').item.json.seconds }}",
					},
				},
			});
			expect(result.error?.message).toBe(
				"Request Options > Timeout (Seconds): Referenced node doesn't exist",
			);
			expect(server.requests).toHaveLength(0);
		});
	});

	it('fractions are rounded: a Timeout of 1.5 s ends an attempt after 1.5 s, and says so', async () => {
		await withHostile(answerAfter(5_000), async (server) => {
			const started = Date.now();
			const result = await new Engine(credentials(server)).run({
				parameters: { ...listContacts, requestOptions: { timeoutSeconds: 1.5, maxAttempts: 1 } },
			});
			// 1.5 s, or a tenth more on a loaded machine: not the 2 s a rounding to whole seconds would give.
			expect(result.error?.message).toMatch(/timed out after 1\.[5-9] s/);
			expect(Date.now() - started).toBeLessThan(4_500);
		});
	}, 30_000);

	it('fractions are rounded: Concurrency 2.6 runs 3 items at a time, Max Attempts 2.4 makes 2 attempts', async () => {
		// Each answer held long enough that the items a lane lets through are all in flight together, even on a busy machine.
		const slow = answerAfter(1_000);
		await withHostile(slow, async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: {
					...sendMessage,
					phone: '={{ $json.phone }}',
					requestOptions: { concurrency: 2.6 },
				},
				items: Array.from({ length: 6 }, (_, i) => ({ json: { phone: `+491512345670${i}` } })),
			});
			expect(result.error).toBeUndefined();
			expect(slow.mostInFlight).toBe(3);
		});
		await withHostile(answerAfter(0, 503), async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: { ...listContacts, requestOptions: { maxAttempts: 2.4 } },
			});
			expect(result.error?.message).toMatch(/HTTP 503/);
			expect(server.calls()).toHaveLength(2);
		});
	}, 30_000);

	it('values beyond what a timer allows are capped, not a RangeError: a Timeout and a Retry Budget of 10^9 s, Concurrency 1,000', async () => {
		await withHostile(answerAfter(10), async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: {
					...listContacts,
					requestOptions: { timeoutSeconds: 1e9, maxRetryWaitSeconds: 1e9, concurrency: 1_000 },
				},
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
		});
		// Concurrency is capped at its documented maximum, 64: 70 items, never more than 64 in flight.
		const slow = answerAfter(1_000);
		await withHostile(slow, async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: {
					resource: 'order',
					operation: 'pushEvent',
					orderId: '={{ $json.orderId }}',
					status: 'paid',
					requestOptions: { concurrency: 1_000 },
				},
				items: Array.from({ length: 70 }, (_, i) => ({ json: { orderId: `CAP-${i}` } })),
			});
			expect(result.error).toBeUndefined();
			expect(slow.mostInFlight).toBe(64);
		});
	}, 30_000);

	it('a Retry Budget of 0 means no retries, and the one attempt keeps its whole Timeout', async () => {
		await withHostile(answerAfter(0, 503), async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: { ...listContacts, requestOptions: { maxRetryWaitSeconds: 0 } },
			});
			expect(result.error?.message).toMatch(/HTTP 503/);
			expect(server.calls()).toHaveLength(1);
		});
		await withHostile(answerAfter(1_500), async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: {
					...listContacts,
					requestOptions: { maxRetryWaitSeconds: 0, timeoutSeconds: 5 },
				},
			});
			expect(result.error).toBeUndefined();
		});
	}, 30_000);

	it.each([
		['batchSize', 0, 'Options > Batching > Items per Batch must be 1 or more (got 0)'],
		['batchInterval', -1, 'Options > Batching > Batch Interval (Ms) must be 0 or more (got -1)'],
		[
			'batchSize',
			'={{ { n: 1 } }}',
			'Options > Batching > Items per Batch must be a number, not an object ({"n":1})',
		],
	])('Batching: %s = %s fails the run before any request', async (field, value, message) => {
		await withHostile(answerAfter(0), async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: { ...sendMessage, options: { batching: { batch: { [field]: value } } } },
			});
			expect(result.error?.message).toBe(message);
			expect(server.requests).toHaveLength(0);
		});
	});

	it('the trigger: a value that cannot work fails the poll naming the field, before any request', async () => {
		await withHostile(answerAfter(0), async (server) => {
			const harness = new PollHarness(credentials(server), {
				event: 'newContact',
				requestOptions: { maxRecords: -5 },
			});
			const activation = await harness.activate();
			expect(activation.error?.message).toBe(
				'Request Options > Max Records must be 1 or more (got -5)',
			);
			expect(server.requests).toHaveLength(0);
		});
	});

	it('Concurrency: by default (documented: 32) 32 items are in flight at once', async () => {
		// Each answer held long enough that the items a lane lets through are all in flight together, even on a busy machine.
		const slow = answerAfter(1_000);
		await withHostile(slow, async (server) => {
			const result = await new Engine(credentials(server)).run({
				parameters: {
					resource: 'order',
					operation: 'pushEvent',
					orderId: '={{ $json.orderId }}',
					status: 'paid',
				},
				items: Array.from({ length: 40 }, (_, i) => ({ json: { orderId: `LANES-${i}` } })),
			});
			expect(result.error).toBeUndefined();
			expect(slow.mostInFlight).toBe(32);
		});
	}, 30_000);
});
