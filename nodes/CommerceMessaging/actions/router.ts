import { type IExecuteFunctions, NodeOperationError } from 'n8n-workflow';

import { settingsOf, startRun } from '../../../transport/request';
import { readRequestOptions, readText } from '../helpers/parameters';
import { errorJson, report, withItemIndex } from './report';
import { operations } from './resources';

/**
 * The one place that runs the input items: several in flight (Request Options > Concurrency), items sharing the
 * operation's ordering key one after the other. Every item is answered once, in input order: its results paired to
 * it, or with Continue On Fail an error item paired to it; otherwise the run stops (no further item starts) with the
 * first failed item's error. What the user is told beyond the records (an error item, hints): report.ts.
 */
export async function router(this: IExecuteFunctions) {
	const itemCount = this.getInputData().length;
	const resource = readText(this, 'resource', 0, { label: 'resource', required: true });
	const operationName = readText(this, 'operation', 0, { label: 'operation', required: true });
	// Both come from the workflow's JSON, which may name what this version does not have.
	const operation = operations[resource]?.[operationName];
	if (!operation)
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);

	let state: unknown;
	try {
		startRun(this, readRequestOptions(this));
		state = await operation.prepare?.call(this, itemCount);
	} catch (error) {
		// A run-wide setting (Request Options, Batching) fails every item: with Continue On Fail, each says so.
		if (!this.continueOnFail()) throw new NodeOperationError(this.getNode(), error as Error);
		return [
			Array.from({ length: itemCount }, (_, item) => ({
				json: errorJson(error),
				pairedItem: { item },
			})),
		];
	}
	const { orderingKey } = operation;
	// `finish` runs even when an item stops the run, so what the earlier items did (e.g. events sent) is kept.
	const results = await runConcurrently(itemCount, {
		concurrency: operation.oneItemAtATime ? 1 : settingsOf(this).concurrency,
		keyOf:
			orderingKey &&
			((itemIndex) => {
				try {
					return orderingKey.call(this, itemIndex, state);
				} catch {
					// A key that cannot be read (bad input) constrains nothing: that item fails on its own in execute.
					return undefined;
				}
			}),
		stopOnError: !this.continueOnFail(),
		run: (itemIndex, key) => operation.execute.call(this, itemIndex, state, key),
	}).finally(() => operation.finish?.call(this, state));

	// Without Continue On Fail, the first failed item stops the run. Each record becomes an item, each item stays as it
	// is, a failure becomes an error item; all paired to their input.
	const output = results.flatMap((result, itemIndex) => {
		if (result.status === 'failed' && !this.continueOnFail())
			throw withItemIndex(
				this.getNode(),
				result.error,
				itemIndex,
				results.flatMap((other, index) => (other.status === 'done' ? [index] : [])),
			);
		const items =
			result.status === 'failed'
				? [{ json: errorJson(result.error) }]
				: result.status === 'skipped'
					? []
					: Array.isArray(result.value)
						? result.value.map((json) => ({ json }))
						: result.value.items;
		return items.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
	});
	report(this, operation.hints?.call(this, state) ?? [], {
		operationName,
		itemCount,
		outputCount: output.length,
	});
	return [output];
}

/**
 * One task per item, at most `concurrency` at once, first come first served: across a real network the round trip,
 * not the work, is what costs. Items sharing a key (`keyOf`) never overlap and start in input order, so `paid` is
 * never overtaken by `shipped`. After a failure with `stopOnError`, no further item starts (those running finish).
 * Results come back in input order: each item's value, its error, or `skipped` when an earlier failure stopped the
 * run first.
 */
export async function runConcurrently<T>(
	itemCount: number,
	options: {
		concurrency: number;
		keyOf?: (itemIndex: number) => string | undefined;
		run: (itemIndex: number, key: string | undefined) => Promise<T>;
		stopOnError: boolean;
	},
) {
	// Items without a key are never stored here, so they wait for no one.
	const lastOfKey = new Map<string | undefined, Promise<unknown>>();
	// Waiters are served in the order they asked (a queue read by index: thousands wait).
	const waiting: Array<() => void> = [];
	let next = 0;
	let free = options.concurrency;
	let stopped = false;
	const runItem = async (itemIndex: number, key: string | undefined) => {
		// The previous item of its key, read before this one takes its place.
		await lastOfKey.get(key);
		if (free > 0) free--;
		else await new Promise<void>((resolve) => waiting.push(resolve));
		try {
			return stopped
				? { status: 'skipped' as const }
				: { status: 'done' as const, value: await options.run(itemIndex, key) };
		} catch (error) {
			stopped ||= options.stopOnError;
			return { status: 'failed' as const, error };
		} finally {
			if (next < waiting.length) waiting[next++]();
			else free++;
		}
	};
	return await Promise.all(
		Array.from({ length: itemCount }, (_, itemIndex) => {
			const key = options.keyOf?.(itemIndex);
			const task = runItem(itemIndex, key);
			if (key !== undefined) lastOfKey.set(key, task);
			return task;
		}),
	);
}
