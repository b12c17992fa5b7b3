import { decideRetry, DEFAULT_RETRY } from '../../transport/retryPolicy';

describe('retry policy', () => {
	const settings = { ...DEFAULT_RETRY, maxAttempts: 5, maxTotalWaitMs: 60_000, baseDelayMs: 500, maxDelayMs: 30_000 };

	it('L1: backs off exponentially with full jitter', () => {
		const top = (attempt: number) => decideRetry(settings, attempt, 0, undefined, () => 0.999999);
		expect(top(1)).toEqual({ retry: true, delayMs: 499 });
		expect(top(2)).toEqual({ retry: true, delayMs: 999 });
		expect(top(3)).toEqual({ retry: true, delayMs: 1999 });
		expect(decideRetry(settings, 3, 0, undefined, () => 0)).toEqual({ retry: true, delayMs: 0 });
	});

	it('L1: honours a Retry-After longer than 5 s and never waits less than it', () => {
		for (const random of [0, 0.5, 0.99]) {
			const decision = decideRetry(settings, 1, 0, 30_000, () => random);
			expect(decision.retry).toBe(true);
			if (decision.retry) expect(decision.delayMs).toBeGreaterThanOrEqual(30_000);
		}
	});

	it('L1: a bounded number of attempts', () => {
		expect(decideRetry(settings, 5, 0, undefined)).toEqual({ retry: false, reason: 'gave up after 5 attempts' });
	});

	it('L1: a bounded total wait: a Retry-After beyond the budget fails at once, with the reason', () => {
		const decision = decideRetry(settings, 1, 50_000, 20_000);
		expect(decision).toEqual({
			retry: false,
			reason: 'the service asked to wait 20 s, more than the 10 s of retry wait left',
		});
		expect(decideRetry(settings, 2, 60_000, undefined).retry).toBe(false);
	});
});
