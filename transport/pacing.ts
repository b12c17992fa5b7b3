import { pause, type PausableContext } from './pause';

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

	/** Waits until this lane may send. */
	async waitTurn(ctx: PausableContext): Promise<void> {
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
			return;
		}
	}

	/** The service asked every lane to hold back until `at` (a Retry-After). */
	holdAllUntil(at: number): void {
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
