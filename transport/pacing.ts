import { NodeOperationError, sleep, type INode } from 'n8n-workflow';

/** What a wait needs of a context: its node (for errors) and the execution's cancel signal. */
export interface PausableContext {
	getNode(): INode;
	getExecutionCancelSignal?: () => AbortSignal | undefined;
}

/**
 * The one pause of the package (retries, pacing, and every wait of the nodes): in quarter-second slices, so a
 * cancelled execution stops waiting at once instead of sleeping out a Retry-After.
 */
export async function pause(ctx: PausableContext, ms: number): Promise<void> {
	const signal = typeof ctx.getExecutionCancelSignal === 'function' ? ctx.getExecutionCancelSignal() : undefined;
	const end = Date.now() + ms;
	for (let left = ms; ; left = end - Date.now()) {
		if (signal?.aborted) throw new NodeOperationError(ctx.getNode(), 'The execution was cancelled while waiting');
		if (left <= 0) return;
		await sleep(Math.min(250, left));
	}
}

/** Below this many accepted requests a rate says little: no pacing from it. */
const MIN_ACCEPTED_TO_PACE = 10;

/**
 * Rules E5 and L1 across the lanes of one run: after a Retry-After no lane sends until it has passed, and from then
 * on requests start no faster than the rate the service sustained so far (`accepted` since the first start), one per
 * interval in turn order, so when its bucket runs dry one request is refused, not every lane's. `held` adds up the
 * wall time the run was held for a Retry-After.
 */
export class RunPacer {
	private pausedUntil = 0;
	private paced = false;
	private nextStartAt = 0;
	private accepted = 0;
	private firstStartAt = 0;

	constructor(private readonly held: { rateLimitHeldMs: number }) {}

	/** Waits until this lane may send; answers how long it waited for the service's rate limit (ms). */
	async waitTurn(ctx: PausableContext): Promise<number> {
		const started = Date.now();
		for (let spaced = false; ; ) {
			const wait = this.pausedUntil - Date.now();
			if (wait > 0) {
				await pause(ctx, wait);
			} else if (!spaced && this.paced) {
				spaced = true;
				const startAt = Math.max(Date.now(), this.nextStartAt);
				this.nextStartAt = startAt + (this.accepted < MIN_ACCEPTED_TO_PACE ? 0 : (Date.now() - this.firstStartAt) / this.accepted);
				if (startAt > Date.now()) await pause(ctx, startAt - Date.now());
			} else {
				this.firstStartAt ||= Date.now();
				return Date.now() - started;
			}
		}
	}

	/** The service asked every lane to hold back until `at` (a Retry-After). */
	holdAllUntil(at: number): void {
		const from = Math.max(Date.now(), this.pausedUntil);
		if (at > from) this.held.rateLimitHeldMs += at - from;
		this.pausedUntil = Math.max(this.pausedUntil, at);
		this.paced = true;
	}

	/** A request the service accepted. */
	countAccepted(): void {
		this.accepted++;
	}
}
