import {
	type IExecuteFunctions,
	type INode,
	NodeApiError,
	type NodeExecutionHint,
	NodeOperationError,
} from 'n8n-workflow';

import { formatDuration, formatFirstTen } from '../../../transport/format';
import type { RetryKind } from '../../../transport/failures';
import { activityOf, settingsOf } from '../../../transport/request';
import { MAX_PAGES_SIDE_BY_SIDE } from '../../../transport/settings';

/**
 * What the node tells the user beyond the records, where they look: a failed item's error (with Continue On Fail, an
 * error item), and a hint above the output for each thing worth knowing about a run, counted per run and never with a
 * secret or a record's contents; the unusual ones also as a warning in n8n's log, which reaches the runs nobody opens.
 */

/** The error item of Continue On Fail: the message, and the service's code, message, HTTP status, fields and state. */
export function errorJson(error: unknown) {
	const failure = error as Partial<NodeApiError>;
	const context = failure.context ?? {};
	const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
	// Only what the error has.
	return Object.fromEntries(
		Object.entries({
			error: failure.message ?? String(error),
			description: failure.description || undefined,
			code: text(context.serviceCode),
			serviceMessage: text(context.serviceMessage),
			httpCode: failure.httpCode || undefined,
			fields: Array.isArray(context.fields)
				? context.fields.filter((field) => typeof field === 'string')
				: undefined,
			state: text(context.state) || undefined,
		}).filter(([, value]) => value !== undefined),
	);
}

/**
 * The error that stops the run, naming its item, and the items that went through meanwhile (items run side by side,
 * so some after it may have): the run outputs none of them, and running it again repeats them.
 */
export function withItemIndex(node: INode, error: unknown, itemIndex: number, done: number[]) {
	const stopping =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(node, error as Error);
	stopping.context.itemIndex ??= itemIndex;
	if (done.length)
		stopping.description = `${stopping.description ? `${stopping.description} ` : ''}${done.length === 1 ? 'Item' : 'Items'} ${formatFirstTen(done)} went through before the run stopped; the run outputs none of them.`;
	return stopping;
}

/** How a hint names one retry of each kind; several take an s. */
const RETRY_KINDS: Record<Exclude<RetryKind, 'rate limit'>, string> = {
	timeout: 'timeout',
	connection: 'broken connection',
	'service error': 'HTTP 5xx answer',
};

/** The operation's own hints (duplicates skipped, waits between batches) first, then the run's. */
export function report(
	ctx: IExecuteFunctions,
	hints: NodeExecutionHint[],
	run: { operationName: string; itemCount: number; outputCount: number },
) {
	const activity = activityOf(ctx);
	const { retriedRequests: retried, retriedThenDone: retriedDone } = activity;
	const retryKinds = Object.entries(RETRY_KINDS).flatMap(([kind, name]) => {
		const count = activity.retries[kind as RetryKind] ?? 0;
		return count ? [`${count} ${name}${count > 1 ? 's' : ''}`] : [];
	});
	// n8n's editor says "Limit reached" itself when the output count equals a typed Limit, and "runs once for each input
	// item" for operations named getAll: those are not repeated.
	const rateLimited = activity.retries['rate limit'] ?? 0;
	const runHints: Array<NodeExecutionHint | false> = [
		activity.rateLimitHeldMs > 0
			? {
					message: `Waited ${formatDuration(activity.rateLimitHeldMs)} in all for the service's rate limit (it asked to wait with Retry-After).`,
					type: 'warning',
				}
			: rateLimited > 0 && {
					message: `The service's rate limit was hit ${rateLimited === 1 ? 'once' : `${rateLimited} times`} (without a Retry-After): each time the request waited a growing backoff and was tried again.`,
					type: 'warning',
				},
		activity.reLogins > 0 && {
			message: 'Logged in again after the service refused the session token (once for the run).',
			type: 'warning',
		},
		retried > 0 && {
			message: `${retried === 1 ? '1 request was' : `${retried} requests were`} retried after an error (${retryKinds.join(', ')}); ${retriedDone === retried ? 'all' : retriedDone} of them went through.`,
			type: 'warning',
		},
		activity.listsCutAtLimit + activity.listsStoppedAtLimit > 0 &&
			!(run.itemCount === 1 && run.outputCount === ctx.getNode().parameters.limit) && {
				message: `Limit reached: the list ${activity.listsCutAtLimit ? 'has' : 'may have'} more records than the Limit let through. Raise Limit, or turn on Return All, to get them all.`,
			},
		// With Execute Once set, n8n hands the node its first item only.
		activity.pagesRead > 0 &&
			run.itemCount > 1 &&
			run.operationName !== 'getAll' && {
				message: `This node read the list ${run.itemCount} times, once for each input item. Use 'Execute Once' in the node settings to read it only once.`,
			},
		// A list read over a few pages is worth a word; without a total, its pages go one by one (hence "at most").
		activity.pagesRead > 5 && {
			message: `Read ${activity.pagesRead} pages of the service's lists, at most ${Math.min(settingsOf(ctx).concurrency, MAX_PAGES_SIDE_BY_SIDE)} at a time (Request Options > Concurrency sets it, up to ${MAX_PAGES_SIDE_BY_SIDE}).`,
		},
	];
	for (const hint of [...hints, ...runHints.filter((runHint) => runHint !== false)]) {
		ctx.addExecutionHints?.({ ...hint, type: hint.type ?? 'info', location: 'outputPane' });
		if (hint.type === 'warning')
			ctx.logger?.warn(`Commerce Messaging: ${hint.message}`, {
				node: ctx.getNode().name,
				workflowId: ctx.getWorkflow().id,
			});
	}
}
