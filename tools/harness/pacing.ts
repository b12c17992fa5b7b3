/**
 * Rule L2 (bulk sends in batches with a pause between them) checked in scheduled intervals instead of gaps between
 * requests, so a busy machine cannot fail it: load only ever delays a request, never brings one forward.
 *
 * Batch k of the run may start k intervals after the run began. `runStart` is a moment taken by the test before the
 * run, so it is no later than the node's own clock start: the k-th arrival at the emulator (in time order) must not
 * come before runStart + floor(k / size) * interval. A run that does not pause, or sends bigger batches, arrives too
 * early. That a batch's sends go out together (not one per interval) is what `batchSpans` shows.
 */
export interface Batching {
	size: number;
	intervalMs: number;
}

/** Timers may fire a millisecond before their time on the clock the emulator logs with. */
const TIMER_SLACK_MS = 2;

/** The arrivals that came before their batch's scheduled start, as "arrival k at +t ms, due at +d ms". */
export function earlyArrivals(arrivals: number[], runStart: number, batching: Batching): string[] {
	return [...arrivals]
		.sort((a, b) => a - b)
		.map((at, k) => ({
			k,
			at: at - runStart,
			due: Math.floor(k / batching.size) * batching.intervalMs,
		}))
		.filter(({ at, due }) => at < due - TIMER_SLACK_MS)
		.map(({ k, at, due }) => `arrival ${k} at +${at} ms, due at +${due} ms`);
}

/** How long each batch's sends took to arrive, first to last (arrivals in time order, `size` to a batch). */
export function batchSpans(arrivals: number[], size: number): number[] {
	const sorted = [...arrivals].sort((a, b) => a - b);
	const spans: number[] = [];
	for (let first = 0; first < sorted.length; first += size) {
		spans.push(sorted[Math.min(first + size, sorted.length) - 1] - sorted[first]);
	}
	return spans;
}
