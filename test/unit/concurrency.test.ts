/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { runConcurrently } from '../../nodes/CommerceMessaging/actions/router';

/** A task that takes a (deterministic, varied) while, recording when it ran. */
function recorder(durations: number[]) {
	const log: Array<{ item: number; event: 'start' | 'end' }> = [];
	let inFlight = 0;
	let peak = 0;
	const run = async (item: number) => {
		log.push({ item, event: 'start' });
		peak = Math.max(peak, ++inFlight);
		await new Promise((resolve) => setTimeout(resolve, durations[item % durations.length]));
		inFlight--;
		log.push({ item, event: 'end' });
		return item * 10;
	};
	return { log, run, peak: () => peak };
}

describe('lanes: many items in flight, in order where it matters', () => {
	it('Throughput: results come back in input order, with at most `concurrency` in flight', async () => {
		const r = recorder([30, 5, 20, 1, 12]);
		const results = await runConcurrently(40, { concurrency: 8, run: r.run, stopOnError: true });
		expect(results.map((x) => (x.status === 'done' ? x.value : -1))).toEqual(
			Array.from({ length: 40 }, (_, i) => i * 10),
		);
		expect(r.peak()).toBe(8);
	});

	it('Throughput: concurrency 1 is a plain loop over the items', async () => {
		const r = recorder([5, 1, 3]);
		await runConcurrently(6, { concurrency: 1, run: r.run, stopOnError: true });
		expect(r.log.map((e) => `${e.event}${e.item}`)).toEqual([
			'start0',
			'end0',
			'start1',
			'end1',
			'start2',
			'end2',
			'start3',
			'end3',
			'start4',
			'end4',
			'start5',
			'end5',
		]);
	});

	it('V1: items sharing a key never overlap and start in input order; other keys run beside them', async () => {
		const keys = ['A', 'B', 'A', 'C', 'A', 'B', 'C', 'A'];
		const r = recorder([25, 3, 9, 14]);
		await runConcurrently(keys.length, {
			concurrency: 8,
			keyOf: (i) => keys[i],
			run: r.run,
			stopOnError: true,
		});
		for (const key of ['A', 'B', 'C']) {
			const items = keys.flatMap((k, i) => (k === key ? [i] : []));
			const events = r.log.filter((e) => keys[e.item] === key).map((e) => `${e.event}${e.item}`);
			expect(events).toEqual(items.flatMap((i) => [`start${i}`, `end${i}`]));
		}
		expect(r.peak()).toBeGreaterThan(1);
	});

	it('Throughput: after a failure with stopOnError, no further item starts; running ones finish; each item answered once', async () => {
		let started = 0;
		const results = await runConcurrently(20, {
			concurrency: 4,
			stopOnError: true,
			run: async (i) => {
				started++;
				await new Promise((resolve) => setTimeout(resolve, 5));
				if (i === 2) throw new Error('boom');
				return i;
			},
		});
		expect(results).toHaveLength(20);
		expect(results[2]).toEqual({ status: 'failed', error: new Error('boom') });
		expect(results.filter((x) => x.status === 'skipped').length).toBe(20 - started);
		expect(started).toBeLessThan(20);
	});

	it('Throughput: without stopOnError (Continue On Fail), every item runs and failures stay paired to their item', async () => {
		const results = await runConcurrently(10, {
			concurrency: 3,
			stopOnError: false,
			run: async (i) => {
				if (i % 3 === 0) throw new Error(`bad ${i}`);
				return i;
			},
		});
		expect(results.map((x) => x.status)).toEqual([
			'failed',
			'done',
			'done',
			'failed',
			'done',
			'done',
			'failed',
			'done',
			'done',
			'failed',
		]);
		expect(results[3]).toEqual({ status: 'failed', error: new Error('bad 3') });
	});
});
