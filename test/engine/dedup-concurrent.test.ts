/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import {
	encodeEvents,
	forgetProcessState,
	orderEvent,
} from '../../nodes/CommerceMessaging/helpers/deduplication';
import { Engine, pairedInputs, type RunResult } from '../../tools/harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';
import { hashOf, NODE_STATE, savedHashes } from './lib/savedEvents';

const ORDER_PATH = '/api/v1/order/';
const CART_PATH = '/api/v1/cart/';
const NODE_NAME = 'Commerce Messaging';

/**
 * Deduplication (V4) beyond one execution at a time: executions of one workflow running together in one n8n
 * process, n8n's Retry On Fail, and the size cap. Every Engine here runs the workflow with the same id and node
 * name, as one saved workflow would.
 */
describe("Deduplication under concurrency and retries, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	const orderEvents = (prefix: string): string[] =>
		sandbox.state.orderEvents
			.map((e: { body: IDataObject }) => `${String(e.body.order_id)}:${String(e.body.status)}`)
			.filter((key: string) => key.startsWith(prefix))
			.sort();
	const cartEvents = (prefix: string): string[] =>
		sandbox.state.cartEvents
			.map((e: { body: IDataObject }) => `${String(e.body.cart_id)}:${String(e.body.total)}`)
			.filter((key: string) => key.startsWith(prefix))
			.sort();
	const pushOrder = {
		resource: 'order',
		operation: 'pushEvent',
		orderId: '={{ $json.orderId }}',
		status: '={{ $json.status }}',
	};
	const pushCart = {
		resource: 'cart',
		operation: 'pushAbandoned',
		cartId: '={{ $json.cartId }}',
		total: '={{ $json.total }}',
	};
	const orders = (...ids: string[]) =>
		ids.map((orderId) => ({ json: { orderId, status: 'paid' } }));
	/** Holds every POST back a moment, so executions started together really overlap at the service. */
	const slowPosts = (path: string, count: number) => {
		for (let i = 0; i < count; i++)
			sandbox.faults.inject({ method: 'POST', path, kind: 'slow', delayMs: 20 });
	};
	const sentCount = (result: RunResult) =>
		result.items.filter((item) => item.json.skipped !== true).length;

	it('V4: two executions started together with overlapping order events send each event exactly once', async () => {
		// One engine: the same workflow and the same static data object, as n8n holds them in one process.
		const engine = new Engine(credentialsFor(sandbox));
		slowPosts(ORDER_PATH, 8);
		const [first, second] = await Promise.all([
			engine.run({ parameters: pushOrder, items: orders('CC-1', 'CC-2', 'CC-3', 'CC-4') }),
			engine.run({ parameters: pushOrder, items: orders('CC-3', 'CC-2', 'CC-5', 'CC-1') }),
		]);
		expect(first.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		expect(orderEvents('CC-')).toEqual([
			'CC-1:paid',
			'CC-2:paid',
			'CC-3:paid',
			'CC-4:paid',
			'CC-5:paid',
		]);
		// Every item is answered: sent by one execution, output as a skipped duplicate by the other.
		expect(pairedInputs(first)).toEqual([0, 1, 2, 3]);
		expect(pairedInputs(second)).toEqual([0, 1, 2, 3]);
		expect(sentCount(first) + sentCount(second)).toBe(5);
		const skipped = [...first.items, ...second.items].filter((item) => item.json.skipped === true);
		expect(skipped.map((item) => item.json.reason)).toEqual([
			'duplicate',
			'duplicate',
			'duplicate',
		]);
		const hashes = ['CC-1', 'CC-2', 'CC-3', 'CC-4', 'CC-5'].map((id) =>
			hashOf(credentialsFor(sandbox), orderEvent(id, 'paid')),
		);
		expect(savedHashes(engine.staticData)).toEqual(expect.arrayContaining(hashes));
	});

	it('V4: an execution finding the event in flight waits for that send, then skips it once it was accepted', async () => {
		sandbox.faults.inject({
			method: 'POST',
			path: ORDER_PATH,
			kind: 'slow',
			delayMs: 400,
			times: 1,
		});
		const first = new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('WAIT-1'),
		});
		await new Promise((resolve) => setTimeout(resolve, 150));
		const second = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('WAIT-1'),
		});
		expect((await first).items[0].json.skipped).toBeUndefined();
		expect(second.items[0].json).toMatchObject({
			order_id: 'WAIT-1',
			skipped: true,
			reason: 'duplicate',
		});
		expect(orderEvents('WAIT-')).toEqual(['WAIT-1:paid']);
	});

	it('V4: when the send in flight fails, the execution that waited for it sends the event itself', async () => {
		// The first execution's POST: a 429 (retried after a second), then a 500; it fails after about a second.
		sandbox.faults.inject({
			method: 'POST',
			path: ORDER_PATH,
			kind: '429',
			retryAfter: 1,
			times: 1,
		});
		sandbox.faults.inject({ method: 'POST', path: ORDER_PATH, kind: '500', times: 1 });
		const first = new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('WAITFAIL-1'),
		});
		await new Promise((resolve) => setTimeout(resolve, 300));
		const second = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('WAITFAIL-1'),
		});
		expect((await first).error?.message).toMatch(/INTERNAL_ERROR/);
		expect(second.error).toBeUndefined();
		expect(second.items[0].json.skipped).toBeUndefined();
		expect(orderEvents('WAITFAIL-')).toEqual(['WAITFAIL-1:paid']);
	});

	it('V4: the same holds when each execution has its own copy of the static data (n8n loads one per execution)', async () => {
		const engines = [
			new Engine(credentialsFor(sandbox)),
			new Engine(credentialsFor(sandbox)),
			new Engine(credentialsFor(sandbox)),
		];
		slowPosts(CART_PATH, 6);
		const items = (...carts: Array<[string, number]>) =>
			carts.map(([cartId, total]) => ({ json: { cartId, total } }));
		const results = await Promise.all([
			engines[0].run({ parameters: pushCart, items: items(['CCART-1', 10], ['CCART-2', 20]) }),
			engines[1].run({
				parameters: pushCart,
				items: items(['CCART-2', 20], ['CCART-1', 10], ['CCART-1', 11]),
			}),
			engines[2].run({ parameters: pushCart, items: items(['CCART-1', 11], ['CCART-2', 20.0]) }),
		]);
		for (const result of results) expect(result.error).toBeUndefined();
		expect(cartEvents('CCART-')).toEqual(['CCART-1:10', 'CCART-1:11', 'CCART-2:20']);
		// The execution that ends last saves everything the process knows by then: every event.
		const hashes = (['10', '11'].map((t) => ['CCART-1', t]) as Array<[string, string]>)
			.concat([['CCART-2', '20']])
			.map(([cartId, total]) =>
				hashOf(credentialsFor(sandbox), { kind: 'cart', parts: [cartId, total] }),
			);
		const copies = engines
			.map((engine) => savedHashes(engine.staticData))
			.sort((a, b) => b.length - a.length);
		expect(copies[0]).toEqual(expect.arrayContaining(hashes));
	});

	it('V4: Retry On Fail re-runs the node with every item, and only the events that did not get through are sent', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		// The first try: RETRY-1 is accepted, RETRY-2 fails (a POST is never repeated by the transport), the node throws.
		sandbox.faults.inject({ method: 'POST', path: ORDER_PATH, kind: 'slow', delayMs: 1, times: 1 });
		sandbox.faults.inject({ method: 'POST', path: ORDER_PATH, kind: '500', times: 1 });
		const before = sandbox.state.requests.filter(
			(r: { method: string; path: string }) => r.method === 'POST' && r.path === ORDER_PATH,
		).length;
		const result = await engine.run({
			// One at a time: the first try stops at RETRY-2 before RETRY-3 is sent.
			parameters: { ...pushOrder, requestOptions: { concurrency: 1 } },
			items: orders('RETRY-1', 'RETRY-2', 'RETRY-3'),
			nodeSettings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
		});
		expect(result.error).toBeUndefined();
		const posts = sandbox.state.requests.filter(
			(r: { method: string; path: string }) => r.method === 'POST' && r.path === ORDER_PATH,
		).length;
		// Two on the first try, two on the second: RETRY-1 is not posted again.
		expect(posts - before).toBe(4);
		expect(orderEvents('RETRY-')).toEqual(['RETRY-1:paid', 'RETRY-2:paid', 'RETRY-3:paid']);
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
		expect(result.items[0].json).toMatchObject({
			order_id: 'RETRY-1',
			skipped: true,
			reason: 'duplicate',
		});
		expect(result.items[1].json.skipped).toBeUndefined();
		expect(result.items[2].json.skipped).toBeUndefined();
	});

	it('V4: a key the size cap drops while still inside its window is reported in the output hints and the log', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const now = Math.floor(Date.now() / 1000);
		const entries = Array.from({ length: 10_000 }, (_, i): [string, number] => [
			hashOf(credentialsFor(sandbox), orderEvent(`FULL-${i}`, 'paid')),
			now - 3600 + (i % 3000),
		]);
		// A restarted process reading a full copy back.
		engine.staticData[NODE_STATE] = {
			deduplication: {
				process: 'before',
				copy: 'before',
				at: now - 3600,
				events: encodeEvents(entries),
			},
		};
		forgetProcessState();
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		try {
			const result = await engine.run({ parameters: pushOrder, items: orders('CAP-1', 'CAP-2') });
			expect(result.error).toBeUndefined();
			expect(orderEvents('CAP-')).toEqual(['CAP-1:paid', 'CAP-2:paid']);
			const hints =
				(
					result.run.data.resultData.runData[NODE_NAME][0] as {
						hints?: Array<{ message: string; type?: string }>;
					}
				).hints ?? [];
			expect(hints).toHaveLength(1);
			expect(hints[0].type).toBe('warning');
			expect(hints[0].message).toMatch(
				/kept only the newest 10,000 sent events: 2 older ones still inside the deduplication window were forgotten/,
			);
			expect(
				warn.mock.calls.some(([message]) =>
					/2 older ones still inside the deduplication window/.test(String(message)),
				),
			).toBe(true);
			expect(savedHashes(engine.staticData)).toHaveLength(10_000);

			// A run that drops nothing inside its window says nothing (another workflow: its own memory and state).
			forgetProcessState();
			const quiet = new Engine(credentialsFor(sandbox));
			const calm = await quiet.run({ parameters: pushOrder, items: orders('CAP-3') });
			expect(
				(calm.run.data.resultData.runData[NODE_NAME][0] as { hints?: unknown[] }).hints ?? [],
			).toEqual([]);
		} finally {
			warn.mockRestore();
		}
	});
});
