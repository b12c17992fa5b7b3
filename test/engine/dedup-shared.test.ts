/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { createHash } from 'crypto';
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDataObject,
	IDeduplicationOutput,
} from 'n8n-workflow';

import { forgetProcessState } from '../../nodes/CommerceMessaging/helpers/deduplication';
import { Engine } from '../../tools/harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * n8n's database-backed deduplication store as n8n 2.40.7 implements it (n8n/dist/deduplication/
 * deduplication-helper.js): one row per workflow and node holding hashed values; every call reads the row and
 * writes it back whole, with a database round trip between. `gapMs` widens that gap, so calls overlap as they do
 * across queue-mode workers.
 */
class RowStore implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();
	writes = 0;
	/** Every call, with when it started: `check` (checkProcessedAndRecord) or `remove`, and the values it carried. */
	readonly calls: Array<{ kind: 'check' | 'remove'; at: number; items: string[] }> = [];
	/** Set to make every call fail, as when n8n's database cannot be reached. */
	failing = false;

	constructor(private readonly gapMs = 0) {}

	private id(scope: DeduplicationScope, context: ICheckProcessedContextData): string {
		return `${context.workflow.id}|${scope === 'node' ? `n:${context.node?.id}` : ''}`;
	}

	private static hash(value: DeduplicationItemTypes): string {
		return createHash('md5').update(String(value)).digest('base64');
	}

	private async roundTrip(): Promise<void> {
		await new Promise((resolve) => setTimeout(resolve, this.gapMs));
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.calls.push({ kind: 'check', at: Date.now(), items: items.map(String) });
		if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
		const id = this.id(scope, context);
		const read = [...(this.rows.get(id) ?? [])];
		await this.roundTrip();
		const seen = new Set(read);
		const result: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const hash = RowStore.hash(item);
			if (seen.has(hash)) result.processed.push(item);
			else {
				result.new.push(item);
				read.push(hash);
			}
		}
		if (options.maxEntries) read.splice(0, read.length - options.maxEntries);
		this.rows.set(id, read);
		this.writes++;
		return result;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
	): Promise<void> {
		this.calls.push({ kind: 'remove', at: Date.now(), items: items.map(String) });
		if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
		const id = this.id(scope, context);
		const read = [...(this.rows.get(id) ?? [])];
		await this.roundTrip();
		for (const item of items) {
			const index = read.indexOf(RowStore.hash(item));
			if (index !== -1) read.splice(index, 1);
		}
		this.rows.set(id, read);
		this.writes++;
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
	): Promise<void> {
		this.rows.delete(this.id(scope, context));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
	): Promise<number> {
		return this.rows.get(this.id(scope, context))?.length ?? 0;
	}
}

const ORDER_PATH = '/api/v1/order/';
const pushOrder = {
	resource: 'order',
	operation: 'pushEvent',
	orderId: '={{ $json.orderId }}',
	status: '={{ $json.status }}',
	options: { deduplicateAcrossWorkers: true },
};
const orders = (...ids: string[]) => ids.map((orderId) => ({ json: { orderId, status: 'paid' } }));

/**
 * Deduplication across n8n processes (queue-mode workers), with Deduplicate Across Workers on: each Engine is one
 * process (its own static data) and forgetProcessState() forgets what the previous "process" held in memory, so
 * only n8n's shared store connects them.
 */
describe("Deduplication across processes through n8n's shared deduplication store", () => {
	let sandbox: Sandbox;
	const store = new RowStore(5);
	beforeAll(async () => {
		sandbox = await startSandbox();
		await DataDeduplicationService.init(store);
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => forgetProcessState());
	afterEach(() => sandbox.faults.clear());

	const sentTo = (prefix: string): string[] =>
		sandbox.state.orderEvents
			.map((e: { body: IDataObject }) => String(e.body.order_id))
			.filter((id: string) => id.startsWith(prefix));

	const rowOfNode = () =>
		[...store.rows.entries()].find(([id]) => id.endsWith('n:subject'))?.[1] ?? [];

	it('V4: with Deduplicate Across Workers off (the default), the shared store is never called', async () => {
		const writes = store.writes;
		const defaults = { ...pushOrder, options: {} };
		const run = await new Engine(credentialsFor(sandbox)).run({
			parameters: defaults,
			items: orders('LOCAL-1', 'LOCAL-2'),
		});
		expect(run.error).toBeUndefined();
		expect(sentTo('LOCAL-')).toEqual(['LOCAL-1', 'LOCAL-2']);
		expect(store.writes).toBe(writes);
	});

	it("V4: the node's row keeps one value per sent event (tokens and probes go at the end of the run), at most 3,600 (docs/deduplication.md)", async () => {
		const before = rowOfNode().length;
		const run = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('ROW-1', 'ROW-2', 'ROW-3'),
		});
		expect(run.error).toBeUndefined();
		expect(rowOfNode().length - before).toBe(3);

		// A full row: the oldest values make room for the new records.
		const [id] = [...store.rows.entries()].find(([key]) => key.endsWith('n:subject')) ?? [];
		store.rows.set(
			String(id),
			Array.from({ length: 3_600 }, (_, i) => `old-${i}`),
		);
		forgetProcessState();
		const full = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('ROW-4', 'ROW-5'),
		});
		expect(full.error).toBeUndefined();
		expect(rowOfNode().length).toBeLessThanOrEqual(3_600);
		expect(rowOfNode().filter((value) => !value.startsWith('old-'))).toHaveLength(2);
	});

	it("V4: an event another process already sent is skipped, though this process's static data never saw it", async () => {
		const first = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('SH-1', 'SH-2'),
		});
		expect(first.error).toBeUndefined();
		forgetProcessState();
		const second = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('SH-2', 'SH-3'),
		});
		expect(second.error).toBeUndefined();
		expect(sentTo('SH-').sort()).toEqual(['SH-1', 'SH-2', 'SH-3']);
		expect(second.items[0].json).toMatchObject({
			order_id: 'SH-2',
			skipped: true,
			reason: 'duplicate',
		});
		expect(second.items[1].json.skipped).toBeUndefined();
	});

	it('V4: a send the service refused releases its claim, so another process sends the event', async () => {
		sandbox.faults.inject({ method: 'POST', path: ORDER_PATH, kind: 'malformed-json', times: 1 });
		sandbox.faults.inject({ method: 'POST', path: ORDER_PATH, kind: '500', times: 10 });
		const failed = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('RF-1'),
		});
		expect(failed.error).toBeDefined();
		sandbox.faults.clear();
		forgetProcessState();
		const retried = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('RF-1'),
		});
		expect(retried.error).toBeUndefined();
		expect(sentTo('RF-')).toEqual(['RF-1']);
	});

	it("V4: a record an overlapping write dropped after its sender read it back is written again by that process's next store call", async () => {
		const sender = new Engine(credentialsFor(sandbox));
		const rowsBefore = new Map([...store.rows].map(([id, row]) => [id, [...row]]));
		expect(
			(await sender.run({ parameters: pushOrder, items: orders('LU-1') })).error,
		).toBeUndefined();
		// Another worker's call that read the row before LU-1's record and wrote it after the sender's read-back.
		for (const id of store.rows.keys()) store.rows.set(id, rowsBefore.get(id) ?? []);
		// The sending process goes on with other events: its calls write LU-1's record back.
		expect(
			(await sender.run({ parameters: pushOrder, items: orders('LU-2') })).error,
		).toBeUndefined();
		forgetProcessState();
		const repeat = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('LU-1'),
		});
		expect(repeat.error).toBeUndefined();
		expect(repeat.items[0].json).toMatchObject({
			order_id: 'LU-1',
			skipped: true,
			reason: 'duplicate',
		});
		expect(sentTo('LU-').sort()).toEqual(['LU-1', 'LU-2']);
	});

	it('V4: six runs at once with the same events, then a repeat from another process, send each event once', async () => {
		const ids = Array.from({ length: 12 }, (_, i) => `OV-${i + 1}`);
		// Six runs of one process (their own static data), every one given every event at the same moment.
		const runs = await Promise.all(
			Array.from(
				{ length: 6 },
				async (_, w) =>
					await new Engine(credentialsFor(sandbox)).run({
						parameters: pushOrder,
						items: orders(...ids.slice(w).concat(ids.slice(0, w))),
					}),
			),
		);
		for (const run of runs) expect(run.error).toBeUndefined();
		forgetProcessState();
		const repeat = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders(...ids),
		});
		expect(repeat.error).toBeUndefined();
		expect(repeat.items.every((item) => item.json.skipped === true)).toBe(true);
		expect(sentTo('OV-').sort()).toEqual([...ids].sort());
	});

	it('V4: a claim is written, paused on (at least 0.3 s, docs/deduplication.md) and read back before the event is sent', async () => {
		const from = store.calls.length;
		const started = Date.now();
		const run = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('PAUSE-1'),
		});
		expect(run.error).toBeUndefined();
		const sentAt = (
			sandbox.state.requests as Array<{ path: string; at: number; method: string }>
		).find((r) => r.method === 'POST' && r.path === ORDER_PATH && r.at >= started)?.at;
		const [claim, readBack] = store.calls.slice(from).filter((call) => call.kind === 'check');
		// The claim carries the event's record and the run's token; the read-back asks for that token again.
		const token = claim.items.find((value) => value.startsWith('#'));
		expect(token).toBeDefined();
		expect(readBack.items).toContain(token);
		expect(readBack.at - claim.at).toBeGreaterThanOrEqual(300);
		expect(sentAt).toBeGreaterThanOrEqual(readBack.at);
	});

	it("V4: a send that failed releases its claim in n8n's shared store at once, not at the end of the run", async () => {
		sandbox.faults.inject({ method: 'POST', path: ORDER_PATH, kind: '500', times: 1 });
		// The second event's answer comes late: the run is still under way when the first one's claim must be gone.
		sandbox.faults.inject({
			method: 'POST',
			path: ORDER_PATH,
			kind: 'slow',
			delayMs: 1_500,
			times: 1,
		});
		const from = store.calls.length;
		const run = await new Engine(credentialsFor(sandbox)).run({
			parameters: { ...pushOrder, requestOptions: { concurrency: 1 } },
			items: orders('REL-1', 'REL-2'),
			continueOnFail: true,
		});
		expect(run.items[0].json.error).toMatch(/HTTP 500/);
		expect(run.items[1].json.error).toBeUndefined();
		const lateAnswer = (
			sandbox.state.requests as Array<{ path: string; at: number; fault?: string }>
		)
			.filter((r) => r.fault === 'slow')
			.at(-1);
		const removals = store.calls.slice(from).filter((call) => call.kind === 'remove');
		// One item at a time: the failed send's claim is gone before the next event is even sent (its answer comes 1.5 s later).
		expect(removals[0].at).toBeLessThanOrEqual(lateAnswer?.at ?? 0);
	});

	it('V4: a failed send makes no duplicate of its event: the next item with it in the run sends it', async () => {
		sandbox.faults.inject({ method: 'POST', path: ORDER_PATH, kind: '503', times: 1 });
		const run = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('AGAIN-1', 'AGAIN-1'),
			continueOnFail: true,
		});
		expect(run.items[0].json.error).toMatch(/HTTP 503/);
		expect(run.items[1].json.skipped).toBeUndefined();
		expect(sentTo('AGAIN-1')).toEqual(['AGAIN-1']);
		// Sent once, and recorded: another process finds it and skips it.
		forgetProcessState();
		const again = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('AGAIN-1'),
		});
		expect(again.items[0].json).toMatchObject({ skipped: true });
	});

	it("V4: when n8n's shared store cannot be reached, the events still go out and each such item says the cross-worker check was skipped", async () => {
		store.failing = true;
		try {
			const run = await new Engine(credentialsFor(sandbox)).run({
				parameters: pushOrder,
				items: orders('OPEN-1', 'OPEN-2'),
			});
			expect(run.error).toBeUndefined();
			expect(sentTo('OPEN-')).toEqual(['OPEN-1', 'OPEN-2']);
			expect(run.items.map((item) => item.json.crossWorkerCheck)).toEqual(['skipped', 'skipped']);
			const hints =
				(
					run.run.data.resultData.runData['Commerce Messaging'][0] as {
						hints?: Array<{ message: string; type?: string }>;
					}
				).hints ?? [];
			expect(hints).toContainEqual({
				message:
					"Deduplicate Across Workers could not reach n8n's shared store: 2 event(s) went out with this worker's own check only (crossWorkerCheck: skipped on each).",
				type: 'warning',
				location: 'outputPane',
			});
		} finally {
			store.failing = false;
		}
		forgetProcessState();
		const reached = await new Engine(credentialsFor(sandbox)).run({
			parameters: pushOrder,
			items: orders('OPEN-3'),
		});
		expect(reached.items[0].json.crossWorkerCheck).toBeUndefined();
	});
});
