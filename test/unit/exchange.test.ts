/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import { getEventListeners } from 'node:events';
import { Readable } from 'node:stream';

import { sleep } from 'n8n-workflow';

import { exchange } from '../../transport/http';

/**
 * One exchange (transport/http.ts) leaves nothing behind: a signal still listened to keeps what its listeners hold
 * alive until it aborts, so the answer's stream of every request of a run would stay in memory for its Timeout.
 */
describe('L1: one exchange, bounded, leaves no listener behind', () => {
	const answer = (text: string) => ({
		statusCode: 200,
		headers: { 'content-type': 'application/json' },
		body: Readable.from([Buffer.from(text)]),
	});

	it.each([
		['with the execution signal', true],
		['without one (a picker)', false],
	])(
		'L1: an answered exchange %s removes every abort listener it added',
		async (_label, withCancel) => {
			const cancel = new AbortController();
			let sentSignal: AbortSignal | undefined;
			// The Timeout's own timer signals: a listener left on one holds the exchange until it fires.
			const timers: AbortSignal[] = [];
			const timeout = AbortSignal.timeout.bind(AbortSignal);
			const spy = jest.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
				timers.push(timeout(ms));
				return timers[timers.length - 1];
			});
			const result = await exchange(
				async (options) => {
					sentSignal = options.abortSignal as AbortSignal;
					return answer('{"status":"success","data":[]}');
				},
				{ method: 'GET', url: 'http://127.0.0.1:9/api/contacts/' },
				{ timeoutMs: 30_000, maxAnswerBytes: 1024, cancel: withCancel ? cancel.signal : undefined },
			);
			spy.mockRestore();
			expect(result).toMatchObject({ kind: 'answer', status: 200 });
			expect(getEventListeners(sentSignal!, 'abort')).toEqual([]);
			expect(timers.length).toBeGreaterThan(0);
			for (const timer of timers) expect(getEventListeners(timer, 'abort')).toEqual([]);
		},
	);

	it('L1: an exchange cancelled in flight removes them too, and says it was cancelled', async () => {
		const cancel = new AbortController();
		let sentSignal: AbortSignal | undefined;
		const result = await exchange(
			async (options) => {
				sentSignal = options.abortSignal as AbortSignal;
				cancel.abort();
				return await new Promise<never>(() => {});
			},
			{ method: 'GET', url: 'http://127.0.0.1:9/api/contacts/' },
			{ timeoutMs: 30_000, maxAnswerBytes: 1024, cancel: cancel.signal },
		);
		expect(result).toEqual({ kind: 'cancelled' });
		expect(getEventListeners(sentSignal!, 'abort')).toEqual([]);
		expect(getEventListeners(cancel.signal, 'abort')).toEqual([]);
	});

	it('L1: a failed exchange removes them too, and still reports the failure', async () => {
		let sentSignal: AbortSignal | undefined;
		const result = await exchange(
			async (options) => {
				sentSignal = options.abortSignal as AbortSignal;
				throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
			},
			{ method: 'GET', url: 'http://127.0.0.1:9/api/contacts/' },
			{ timeoutMs: 30_000, maxAnswerBytes: 1024 },
		);
		expect(result).toMatchObject({ kind: 'network', code: 'ECONNREFUSED', notSent: true });
		expect(getEventListeners(sentSignal!, 'abort')).toEqual([]);
	});

	it('L1: an answer that arrives after the Timeout won (a library that ignores the signal) has its stream closed', async () => {
		// An answer still streaming: it holds its socket until someone destroys it.
		const late = new Readable({ read() {} });
		let answered = false;
		const result = await exchange(
			async () => {
				await sleep(300);
				answered = true;
				return { statusCode: 200, headers: {}, body: late };
			},
			{ method: 'GET', url: 'http://127.0.0.1:9/api/contacts/' },
			{ timeoutMs: 100, maxAnswerBytes: 1024 },
		);
		expect(result).toMatchObject({ kind: 'network', timedOut: true });
		for (let waited = 0; !answered && waited < 5_000; waited += 50) await sleep(50);
		await sleep(1_000);
		expect(answered).toBe(true);
		expect(late.destroyed).toBe(true);
	});
});
