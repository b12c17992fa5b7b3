import { NodeOperationError, sleep, type INode } from 'n8n-workflow';

/** What a wait needs of a context: its node (for errors) and the execution's cancel signal. */
export interface PausableContext {
	getNode(): INode;
	getExecutionCancelSignal?: () => AbortSignal | undefined;
}

const SLICE_MS = 250;

/**
 * Waits `ms`, in short slices so a cancelled execution stops waiting within a quarter second instead of sleeping
 * out a Retry-After or a batch interval. The one pause of the package: retries, pacing, batching, Wait for Approval.
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

/** Below this many accepted requests a rate says little: no pacing from it. */
const MIN_ACCEPTED_TO_PACE = 10;

/**
 * Rules E5 and L1 across the lanes of one run: after a Retry-After no lane sends anything until it has passed, and
 * from then on requests start no faster than the rate the service has sustained so far in this run (pauses
 * included), one start per interval in turn order, so when its bucket runs dry one request is refused, not every
 * lane's.
 */
export class RunPacer {
	private pausedUntil = 0;

	private paced = false;

	private nextStartAt = 0;

	/** What the service accepted in this run since its first request: the rate it sustains. */
	private accepted = 0;

	private firstStartAt = 0;

	/** `held.rateLimitHeldMs` adds up how long the run was held for Retry-After answers (wall time, each moment once). */
	constructor(private readonly held: { rateLimitHeldMs: number }) {}

	/** Waits until this lane may send; answers how long it waited for the service's rate limit (ms). */
	async waitTurn(ctx: PausableContext): Promise<number> {
		const started = Date.now();
		let spaced = false;
		for (;;) {
			const wait = this.pausedUntil - Date.now();
			if (wait > 0) {
				await pause(ctx, wait);
				continue;
			}
			if (!spaced && this.paced) {
				spaced = true;
				const startAt = Math.max(Date.now(), this.nextStartAt);
				this.nextStartAt = startAt + this.sustainedIntervalMs();
				if (startAt > Date.now()) await pause(ctx, startAt - Date.now());
				continue;
			}
			if (!this.firstStartAt) this.firstStartAt = Date.now();
			return Date.now() - started;
		}
	}

	/** The service asked every lane to hold back until `at` (a Retry-After). */
	holdAllUntil(at: number): void {
		const now = Date.now();
		if (at > Math.max(now, this.pausedUntil)) this.held.rateLimitHeldMs += at - Math.max(now, this.pausedUntil);
		this.pausedUntil = Math.max(this.pausedUntil, at);
		this.paced = true;
	}

	/** A request the service accepted. */
	countAccepted(): void {
		this.accepted++;
	}

	/** Milliseconds between request starts at the sustained rate; none until there is enough to measure. */
	private sustainedIntervalMs(): number {
		if (this.accepted < MIN_ACCEPTED_TO_PACE) return 0;
		return (Date.now() - this.firstStartAt) / this.accepted;
	}
}
