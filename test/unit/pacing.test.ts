import { sleep } from 'n8n-workflow';

import { pause, RunPacer } from '../../transport/request';

// n8n's sleep, watched: the delays pause asks for.
jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	return { ...actual, sleep: jest.fn(actual.sleep) };
});

/**
 * Rules E5 and L1 across the lanes of one run (transport/request.ts), on a fake clock: after a Retry-After every lane
 * waits it out, and from then on the lanes start no faster than the rate the service sustained in the run.
 */
describe('The run pacer', () => {
	const ctx = {
		getNode: () => ({
			id: '1',
			name: 'Commerce Messaging',
			type: 'x',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: {},
		}),
	};

	const T0 = 1_000_000;
	beforeEach(() => jest.useFakeTimers({ now: T0 }));
	afterEach(() => jest.useRealTimers());

	it('E5/L1: after a Retry-After has been waited out, lanes start one per interval of the sustained rate', async () => {
		const held = { rateLimitHeldMs: 0 };
		const pacer = new RunPacer(held);
		await pacer.waitToSend(ctx);
		// 20 requests accepted in the run's first 2 s; then the service asks every lane to wait until 2.5 s.
		for (let i = 0; i < 20; i++) pacer.countAccepted();
		jest.setSystemTime(T0 + 2_000);
		pacer.holdAllUntil(T0 + 2_500);
		const starts: number[] = [];
		const lanes = [0, 1, 2].map(async () => {
			await pacer.waitToSend(ctx);
			starts.push(Date.now() - T0);
		});
		await jest.advanceTimersByTimeAsync(2_000);
		await Promise.all(lanes);
		// 2,500 ms of run for 20 accepted requests: one start per 125 ms from the end of the wait on.
		expect(starts).toEqual([2_500, 2_625, 2_750]);
		expect(held.rateLimitHeldMs).toBe(500);
	});

	it('E5/L1: each request the service accepts after a Retry-After shortens the interval, until the next Retry-After', async () => {
		const pacer = new RunPacer({ rateLimitHeldMs: 0 });
		await pacer.waitToSend(ctx);
		for (let i = 0; i < 20; i++) pacer.countAccepted();
		jest.setSystemTime(T0 + 2_000);
		pacer.holdAllUntil(T0 + 2_500);
		const starts: number[] = [];
		/** One request after the other, each accepted at once. */
		const send = async () => {
			const sent = starts.length + 1;
			void pacer.waitToSend(ctx).then(() => {
				starts.push(Date.now() - T0);
				pacer.countAccepted();
			});
			while (starts.length < sent) await jest.advanceTimersByTimeAsync(1);
		};
		for (let i = 0; i < 4; i++) await send();
		const gaps = starts.slice(1).map((start, i) => start - starts[i]);
		// 125 ms measured (2,500 ms of run for 20 requests), then 3 % less for each request accepted since.
		expect(gaps[0]).toBe(125);
		expect(gaps[1]).toBeLessThan(125 * 0.95);
		expect(gaps[2]).toBeLessThan(gaps[1]);
		// A new Retry-After makes the measured interval whole again.
		pacer.holdAllUntil(Date.now() + 100);
		for (let i = 0; i < 2; i++) await send();
		expect(starts[5] - starts[4]).toBeGreaterThan(gaps[2]);
	});

	it('E5: without a Retry-After the lanes are not paced', async () => {
		const pacer = new RunPacer({ rateLimitHeldMs: 0 });
		for (let i = 0; i < 20; i++) pacer.countAccepted();
		const starts: number[] = [];
		await Promise.all([0, 1, 2].map(async () => starts.push(await pacer.waitToSend(ctx))));
		expect(starts).toEqual([0, 0, 0]);
	});
});

describe('pause', () => {
	it('never asks for a negative timeout (Node prints a warning into the n8n log for each one)', async () => {
		const sleeps = jest.mocked(sleep);
		sleeps.mockClear();
		// The clock passes the end between the loop's check and its next wait.
		const clock = jest
			.spyOn(Date, 'now')
			.mockReturnValueOnce(1_000)
			.mockReturnValueOnce(1_000)
			.mockReturnValue(1_020);
		try {
			await pause({ getNode: () => ({}) as never }, 10);
			expect(sleeps.mock.calls).toEqual([[0]]);
		} finally {
			clock.mockRestore();
		}
	});
});
