/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import { getEventListeners } from 'node:events';
import { Readable } from 'node:stream';

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
			const result = await exchange(
				async (options) => {
					sentSignal = options.abortSignal as AbortSignal;
					return answer('{"status":"success","data":[]}');
				},
				{ method: 'GET', url: 'http://127.0.0.1:9/api/contacts/' },
				{ timeoutMs: 30_000, maxAnswerBytes: 1024, cancel: withCancel ? cancel.signal : undefined },
			);
			expect(result).toMatchObject({ kind: 'answer', status: 200 });
			expect(getEventListeners(sentSignal!, 'abort')).toEqual([]);
		},
	);

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
});
