import { NodeOperationError, sleep, type INode } from 'n8n-workflow';

export interface PausableContext {
	getNode(): INode;
	getExecutionCancelSignal?: () => AbortSignal | undefined;
}

const SLICE_MS = 250;

/**
 * Waits `ms`, in short slices so a cancelled execution stops waiting within a quarter second instead of sleeping
 * out a Retry-After or a batch interval. The one pause of the package: retries, batching, Wait for Approval.
 */
export async function pause(ctx: PausableContext, ms: number): Promise<void> {
	const signal = typeof ctx.getExecutionCancelSignal === 'function' ? ctx.getExecutionCancelSignal() : undefined;
	const end = Date.now() + ms;
	for (let left = ms; left > 0; left = end - Date.now()) {
		if (signal?.aborted) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled while waiting');
		await sleep(Math.min(SLICE_MS, left));
	}
	if (signal?.aborted) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled while waiting');
}
