import { client, expectJsendError, login, OTHER, Sandbox, sleep, start } from './helpers';

describe('sandbox: rate limiting', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start({ rateLimit: { requestsPerSecond: 2, burst: 3 } });
	});
	afterAll(async () => {
		await sb.close();
	});

	it('E5/L1: past the burst -> 429 RATE_LIMIT_EXCEEDED + integer Retry-After; early retries are counted; honouring it works', async () => {
		const api = client(sb, await login(sb));
		for (let i = 0; i < 3; i++) expect((await api('GET', '/api/contacts/')).status).toBe(200);
		const n = sb.state.orderEvents.length;
		const limited = await api('POST', '/api/v1/order/', { order_id: 'R-1', status: 'paid' });
		expectJsendError(limited, 429, 'RATE_LIMIT_EXCEEDED');
		const retryAfter = limited.headers.get('retry-after')!;
		expect(retryAfter).toMatch(/^\d+$/);
		expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
		expect(sb.state.orderEvents.length).toBe(n);
		expect(sb.state.stats).toEqual({ rateLimited: 1, earlyRetries: 0 });

		// Another user has a bucket of its own.
		const other = client(sb, await login(sb, OTHER));
		expect((await other('GET', '/api/contacts/')).status).toBe(200);

		// A retry before Retry-After elapsed (once the client had time to read the 429) is answered 429 again and counted.
		await sleep(40);
		const early = await api('POST', '/api/v1/order/', { order_id: 'R-1', status: 'paid' });
		expect(early.status).toBe(429);
		expect(Number(early.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(sb.state.stats).toEqual({ rateLimited: 2, earlyRetries: 1 });

		await sleep(Number(retryAfter) * 1000 + 50);
		expect((await api('POST', '/api/v1/order/', { order_id: 'R-1', status: 'paid' })).status).toBe(
			201,
		);
		expect(sb.state.orderEvents.length).toBe(n + 1);
		expect(sb.state.stats.earlyRetries).toBe(1);
	});

	it('E5/L1: rateLimit.reactionMs widens the window in which a refused request is taken as sent before the 429 was read', async () => {
		sb.setConfig({ rateLimit: { requestsPerSecond: 1, burst: 1, reactionMs: 300 } });
		const api = client(sb, await login(sb));
		const before = { ...sb.state.stats };
		expect((await api('GET', '/api/contacts/')).status).toBe(200);
		expect((await api('GET', '/api/contacts/')).status).toBe(429);
		await sleep(40);
		expect((await api('GET', '/api/contacts/')).status).toBe(429);
		expect(sb.state.stats.earlyRetries - before.earlyRetries).toBe(0);
		await sleep(300);
		expect((await api('GET', '/api/contacts/')).status).toBe(429);
		expect(sb.state.stats.earlyRetries - before.earlyRetries).toBe(1);
		expect(() =>
			sb.setConfig({ rateLimit: { requestsPerSecond: 1, burst: 1, reactionMs: -1 } }),
		).toThrow(/reactionMs/);
	});

	it('setConfig({rateLimit: null}) turns it off', async () => {
		sb.setConfig({ rateLimit: null });
		const api = client(sb, await login(sb));
		for (let i = 0; i < 10; i++)
			expect((await api('GET', '/api/contacts/?limit=1')).status).toBe(200);
	});
});
