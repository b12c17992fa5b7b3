import { decideRetry } from '../../transport/failures';
import { attemptTimeoutMs } from '../../transport/request';
import { DEFAULT_RETRY } from '../../transport/settings';

describe('retry policy', () => {
	const settings = {
		...DEFAULT_RETRY,
		maxAttempts: 5,
		maxTotalWaitMs: 60_000,
		baseDelayMs: 500,
		maxDelayMs: 30_000,
	};

	it('L1: backs off exponentially with equal jitter: half of each step fixed, half random', () => {
		const top = (attempt: number) => decideRetry(settings, attempt, 0, undefined, () => 0.999999);
		expect(top(1)).toEqual({ retry: true, delayMs: 500 });
		expect(top(2)).toEqual({ retry: true, delayMs: 1000 });
		expect(top(3)).toEqual({ retry: true, delayMs: 2000 });
		expect(decideRetry(settings, 3, 0, undefined, () => 0)).toEqual({ retry: true, delayMs: 1000 });
	});

	it('L1: a wait is never zero, even when the random part is: with the defaults at least 0.5, 1, 2, 4, 8, 15 and 15 s', () => {
		// The floors the README and DEFAULT_RETRY's comment promise, written out here rather than derived from the
		// settings under test, so a zero or shrunken base delay fails.
		const floors = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000];
		const waits = floors.map((_, index) =>
			decideRetry(DEFAULT_RETRY, index + 1, 0, undefined, () => 0),
		);
		expect(waits).toEqual(floors.map((delayMs) => ({ retry: true, delayMs })));
	});

	it('L1: with the defaults, a 20-second burst of 503s is outlasted inside the budget, whatever the jitter', () => {
		for (const random of [0, 0.5, 0.999999]) {
			let waited = 0;
			let attempt = 1;
			// Each attempt in the burst fails at once; count only the waits (the worst case for outlasting it).
			while (waited < 20_000) {
				const decision = decideRetry(DEFAULT_RETRY, attempt, waited, undefined, () => random);
				expect(decision.retry).toBe(true);
				if (!decision.retry) break;
				waited += decision.delayMs;
				attempt++;
			}
			// The documented defaults: 8 attempts, a Retry Budget of 120 s.
			expect(attempt).toBeLessThanOrEqual(8);
			expect(waited).toBeLessThan(120_000);
		}
	});

	it('L1: honours a Retry-After longer than 5 s and never waits less than it', () => {
		for (const random of [0, 0.5, 0.99]) {
			const decision = decideRetry(settings, 1, 0, 30_000, () => random);
			expect(decision.retry).toBe(true);
			if (decision.retry) expect(decision.delayMs).toBeGreaterThanOrEqual(30_000);
		}
	});

	it('L1: a bounded number of attempts', () => {
		expect(decideRetry(settings, 5, 0, undefined)).toEqual({
			retry: false,
			reason: 'gave up after 5 attempts',
		});
	});

	it('L1: a bounded total time: a Retry-After beyond the budget fails at once, with the reason', () => {
		const decision = decideRetry(settings, 1, 50_000, 20_000);
		expect(decision).toEqual({
			retry: false,
			reason: 'the service asked to wait 20 s, more than the 10 s of retry budget left',
		});
		expect(decideRetry(settings, 2, 60_000, undefined).retry).toBe(false);
		// A wait that would end past the budget is not started: the next attempt would have no time left.
		expect(decideRetry(settings, 4, 59_000, undefined, () => 0)).toMatchObject({ retry: false });
	});

	it('L1: an attempt may take its timeout, cut to what the budget has left', () => {
		expect(attemptTimeoutMs(DEFAULT_RETRY, 0)).toBe(30_000);
		expect(attemptTimeoutMs(DEFAULT_RETRY, 110_000)).toBe(10_000);
		expect(attemptTimeoutMs(DEFAULT_RETRY, 200_000)).toBe(1_000);
		// A Timeout under a second is kept as it is, never raised to the second the budget leaves at least.
		expect(attemptTimeoutMs({ ...DEFAULT_RETRY, timeoutMs: 200 }, 0)).toBe(200);
		expect(attemptTimeoutMs({ ...DEFAULT_RETRY, timeoutMs: 200 }, 200_000)).toBe(200);
	});
});
