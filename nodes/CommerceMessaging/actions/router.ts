import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { pause } from '../../../transport/pacing';
import { startRun } from '../../../transport/session';
import { readingParametersOnce, readText } from '../helpers/parameters';
import { readRunSettings } from '../helpers/requestSettings';
import { operations } from './operations';
import type { CommerceMessagingType } from './node.type';
import type { Operation, OperationResult } from './operation';
import { errorJson, report, withItemIndex } from './report';

/**
 * The one place that runs the input items: several in flight (Request Options > Concurrency, `runInLanes` below),
 * items sharing the operation's ordering key one after the other. Every item is answered exactly once, in input
 * order: its results paired to it, or with Continue On Fail an error item paired to it; otherwise the run stops (no
 * further item starts) with the first failed item's error. Operations get a context that evaluates each parameter
 * of each item once. What the user is told beyond the records (an error item, hints): report.ts.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const ctx = readingParametersOnce(this);
	const items = ctx.getInputData();
	const resource = readText(ctx, 'resource', 0, { label: 'resource', required: true }) as CommerceMessagingType['resource'];
	const operationName = readText(ctx, 'operation', 0, { label: 'operation', required: true }) as CommerceMessagingType['operation'];
	// Both come from the workflow's JSON, which may name what this version does not have.
	const operation = (operations[resource] as Record<string, Operation> | undefined)?.[operationName];
	if (!operation) throw new NodeOperationError(ctx.getNode(), `The operation "${operationName}" of "${resource}" is not supported`);

	const settings = readRunSettings(ctx);
	const activity = startRun(ctx, settings);
	const state = operation.prepare ? await operation.prepare.call(ctx, items.length) : undefined;
	const pauseHere = async (ms: number) => await pause(ctx, ms);
	const { orderingKey } = operation;
	let results;
	try {
		results = await runInLanes(items.length, {
			concurrency: operation.oneItemAtATime ? 1 : settings.concurrency,
			// A key that cannot be read (bad input) constrains nothing: that item fails on its own in execute.
			keyOf: orderingKey ? (itemIndex) => attempt(() => orderingKey.call(ctx, itemIndex)) : undefined,
			stopOnError: !ctx.continueOnFail(),
			run: async (itemIndex) => {
				if (operation.beforeItem) await operation.beforeItem.call(ctx, itemIndex, state, pauseHere);
				return await operation.execute.call(ctx, itemIndex, state);
			},
		});
	} finally {
		// Runs even when an item stops the run, so what the earlier items did (e.g. dedup keys) is kept.
		if (operation.finish) await operation.finish.call(ctx, state);
	}

	if (!ctx.continueOnFail()) {
		const failed = results.findIndex((result) => result.status === 'failed');
		const failure = results[failed];
		if (failure?.status === 'failed') throw withItemIndex(ctx.getNode(), failure.error, failed);
	}
	const output: INodeExecutionData[] = [];
	results.forEach((result, itemIndex) => {
		if (result.status === 'done') output.push(...pair(result.value, itemIndex));
		else if (result.status === 'failed') output.push({ json: errorJson(result.error), pairedItem: { item: itemIndex } });
	});
	const hints = operation.hints?.call(ctx, state, items.length) ?? [];
	if (hints.length > 0 || activity.noteworthy) report(ctx, activity, hints, { operationName, itemCount: items.length, outputCount: output.length, concurrency: settings.concurrency });
	return [output];
}

function attempt<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}

/** Each record becomes an item, each item stays as it is; either way paired to its input. */
function pair(result: OperationResult, itemIndex: number): INodeExecutionData[] {
	const items = 'items' in result ? result.items : result.records.map((json) => ({ json }));
	return items.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
}

// The lanes.

/**
 * Runs one task per input item with several in flight (Request Options > Concurrency): across a real network the
 * round trip, not the work, is what costs. At most `concurrency` run at once, first come, first served. Items that
 * share a key (an order's events, a product's writes, one recipient's messages) never overlap and start in input
 * order, so `paid` is never overtaken by `shipped`. Results come back in input order, one per item: its value, its
 * error, or `skipped` when an earlier failure stopped the run first (`stopOnError`). Concurrency 1 is a plain loop.
 */
export type LaneResult<T> = { status: 'done'; value: T } | { status: 'failed'; error: unknown } | { status: 'skipped' };

export interface LaneOptions<T> {
	concurrency: number;
	/** Items with the same key run one after the other, in input order; undefined = no constraint. */
	keyOf?: (itemIndex: number) => string | undefined;
	run: (itemIndex: number) => Promise<T>;
	/** After a failure, start no further item (those already running finish). */
	stopOnError: boolean;
}

export async function runInLanes<T>(itemCount: number, options: LaneOptions<T>): Promise<Array<LaneResult<T>>> {
	// The run's Concurrency is checked where it is read (helpers/requestSettings.ts).
	const slots = new Slots(Math.max(1, options.concurrency));
	const results: Array<LaneResult<T>> = new Array(itemCount);
	const lastOfKey = new Map<string, Promise<void>>();
	let stopped = false;

	const runItem = async (itemIndex: number, previousOfKey: Promise<void> | undefined) => {
		if (previousOfKey) await previousOfKey;
		await slots.acquire();
		try {
			results[itemIndex] = stopped ? { status: 'skipped' } : { status: 'done', value: await options.run(itemIndex) };
		} catch (error) {
			results[itemIndex] = { status: 'failed', error };
			if (options.stopOnError) stopped = true;
		} finally {
			slots.release();
		}
	};

	const tasks: Array<Promise<void>> = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const key = options.keyOf?.(itemIndex);
		const task = runItem(itemIndex, key === undefined ? undefined : lastOfKey.get(key));
		if (key !== undefined) lastOfKey.set(key, task);
		tasks.push(task);
	}
	await Promise.all(tasks);
	return results;
}

/** A counting semaphore whose waiters are served in the order they asked (a queue read by index: thousands wait). */
class Slots {
	private readonly waiting: Array<() => void> = [];
	private next = 0;

	constructor(private free: number) {}

	async acquire(): Promise<void> {
		if (this.free > 0) {
			this.free--;
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	release(): void {
		if (this.next < this.waiting.length) this.waiting[this.next++]();
		else this.free++;
	}
}
