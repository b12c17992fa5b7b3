import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject, NodeExecutionHint } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorContext, formatSeconds } from '../../../transport/errors';
import { pause } from '../../../transport/pacing';
import { startRun, type RetryKind, type RunActivity } from '../../../transport/session';
import { MAX_CONCURRENCY } from '../../../transport/settings';
import { readingParametersOnce, readText } from '../helpers/parameters';
import { readRunSettings } from '../helpers/requestSettings';
import { operations } from './operations';
import type { CommerceMessagingType } from './node.type';
import type { Operation, OperationResult } from './operation';

/**
 * The one place that runs the input items: several in flight (Request Options > Concurrency, `runInLanes` below),
 * items sharing the operation's ordering key one after the other. Every item is answered exactly once, in input
 * order: its results paired to it, or with Continue On Fail an error item paired to it; otherwise the run stops (no
 * further item starts) with the first failed item's error. Operations get a context that evaluates each parameter
 * of each item once. After the items, the run tells the user what it did on their behalf (`report`).
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
		if (failure?.status === 'failed') throw withItemIndex(ctx, failure.error, failed);
	}
	const output: INodeExecutionData[] = [];
	results.forEach((result, itemIndex) => {
		if (result.status === 'done') output.push(...pair(result.value, itemIndex));
		else if (result.status === 'failed') output.push({ json: errorJson(result.error), pairedItem: { item: itemIndex } });
	});
	report(ctx, activity, [...(operation.hints?.call(ctx, state, items.length) ?? []), ...listHints(ctx, activity, operationName, output.length)]);
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

/** The error item of Continue On Fail: the message, and the service's code and HTTP status when there is one. */
function errorJson(error: unknown): IDataObject {
	const failure = error as Partial<NodeApiError>;
	const context = errorContext(error);
	const json: IDataObject = { error: failure.message ?? String(error) };
	if (failure.description) json.description = failure.description;
	if (context.serviceCode !== undefined) json.code = context.serviceCode;
	if (context.serviceMessage !== undefined) json.serviceMessage = context.serviceMessage;
	if (failure.httpCode) json.httpCode = failure.httpCode;
	if (context.fields) json.fields = context.fields;
	if (context.state) json.state = context.state;
	return json;
}

function withItemIndex(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) {
		return new NodeOperationError(ctx.getNode(), error as JsonObject as unknown as Error, { itemIndex });
	}
	if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
	return error;
}

// What the run tells the user.

/** How a hint names the retries of each kind (one, several). */
const RETRY_KINDS: Record<Exclude<RetryKind, 'rate limit'>, [string, string]> = {
	timeout: ['timeout', 'timeouts'],
	connection: ['broken connection', 'broken connections'],
	'service error': ['HTTP 5xx answer', 'HTTP 5xx answers'],
};

const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** A list read more pages than this is worth a word. */
const PAGES_WORTH_TELLING = 5;

/**
 * The run's hints: only what is worth knowing (nothing on a plain success), counted per run, never a secret or a
 * record's contents. The operation's own (duplicates skipped, waits between batches) come first.
 */
function report(ctx: IExecuteFunctions, activity: RunActivity, hints: NodeExecutionHint[]): void {
	if (activity.rateLimitHeldMs > 0) {
		hints.push({ message: `Waited ${formatSeconds(activity.rateLimitHeldMs)} in all for the service's rate limit (it asked to wait with Retry-After).`, type: 'warning' });
	}
	if (activity.reLogins > 0) {
		hints.push({ message: 'Logged in again after the service refused the session token (once for the run), then went on.', type: 'warning' });
	}
	if (activity.retriedRequests > 0) {
		const kinds = [...activity.retries].flatMap(([kind, count]) => (kind === 'rate limit' ? [] : [`${count} ${RETRY_KINDS[kind][count > 1 ? 1 : 0]}`]));
		const through = activity.retriedThenDone === activity.retriedRequests ? 'all of them went through' : `${activity.retriedThenDone} of them went through`;
		hints.push({ message: `${plural(activity.retriedRequests, 'request was', 'requests were')} retried after an error (${kinds.join(', ')}); ${through}.`, type: 'warning' });
	}
	for (const hint of hints) {
		ctx.addExecutionHints?.({ message: hint.message, type: hint.type ?? 'info', location: 'outputPane' });
		if (hint.type === 'warning') ctx.logger?.warn(`Commerce Messaging: ${hint.message}`, { node: ctx.getNode().name, workflowId: ctx.getWorkflow().id });
	}
}

/**
 * The hints of n8n's own list nodes, where n8n's editor does not give them itself: it says "Limit reached" when the
 * output count equals a typed Limit, and "runs once for each input item" for operations named getAll.
 */
function listHints(ctx: IExecuteFunctions, activity: RunActivity, operationName: string, outputCount: number): NodeExecutionHint[] {
	const hints: NodeExecutionHint[] = [];
	const itemCount = ctx.getInputData().length;
	const limit = ctx.getNode().parameters.limit;
	const editorTellsLimit = itemCount === 1 && typeof limit === 'number' && outputCount === limit;
	if (activity.listsCutAtLimit > 0 && !editorTellsLimit) {
		hints.push({ message: 'Limit reached: the list has more records than the Limit let through. Raise Limit, or turn on Return All, to get them all.' });
	}
	if (activity.pagesRead > 0 && itemCount > 1 && operationName !== 'getAll' && !ctx.getNode().executeOnce) {
		hints.push({ message: `This node read the list ${itemCount} times, once for each input item. Use 'Execute Once' in the node settings to read it only once.` });
	}
	if (activity.pagesRead > PAGES_WORTH_TELLING) {
		hints.push({ message: `Read ${activity.pagesRead} pages of the service's lists (up to 8 at a time, Request Options > Concurrency).` });
	}
	return hints;
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
	const slots = new Slots(Math.max(1, Math.min(MAX_CONCURRENCY, Math.floor(options.concurrency) || 1)));
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

/** A counting semaphore whose waiters are served in the order they asked. */
class Slots {
	private readonly waiting: Array<() => void> = [];

	constructor(private free: number) {}

	async acquire(): Promise<void> {
		if (this.free > 0) {
			this.free--;
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	release(): void {
		const next = this.waiting.shift();
		if (next) next();
		else this.free++;
	}
}
