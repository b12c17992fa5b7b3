/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { client, login, Sandbox, start } from './helpers';

describe('sandbox: a network round trip (benchmarks) and rate limits under concurrency', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start();
	});
	afterAll(async () => {
		await sb.close();
	});
	afterEach(() => sb.setConfig({ latencyMs: 0, latencyJitterMs: 0, rateLimit: null }));

	it('latencyMs delays every /api request, login and faulted answers included; control calls are not delayed', async () => {
		sb.setConfig({ latencyMs: 150 });
		let t = Date.now();
		const token = await login(sb);
		expect(Date.now() - t).toBeGreaterThanOrEqual(145);
		const api = client(sb, token);
		t = Date.now();
		expect((await api('GET', '/api/contacts/')).status).toBe(200);
		expect(Date.now() - t).toBeGreaterThanOrEqual(145);
		sb.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '503' });
		t = Date.now();
		expect((await api('GET', '/api/contacts/')).status).toBe(503);
		expect(Date.now() - t).toBeGreaterThanOrEqual(145);
		t = Date.now();
		await fetch(`${sb.url}/__sandbox/state`);
		expect(Date.now() - t).toBeLessThan(145);
		expect(() => sb.setConfig({ latencyMs: -1 })).toThrow(/latencyMs/);
	});

	it('E5/L1: requests already in flight when the 429 was answered are refused but not counted as early retries', async () => {
		sb.setConfig({ latencyMs: 100, rateLimit: { requestsPerSecond: 1, burst: 1 } });
		const api = client(sb, await login(sb));
		const before = { ...sb.state.stats };
		// Four at once: one passes, three are refused; none of them could have known about the 429.
		const statuses = (await Promise.all([1, 2, 3, 4].map(() => api('GET', '/api/contacts/')))).map(
			(r) => r.status,
		);
		expect(statuses.filter((s) => s === 200)).toHaveLength(1);
		expect(statuses.filter((s) => s === 429)).toHaveLength(3);
		expect(sb.state.stats.earlyRetries - before.earlyRetries).toBe(0);
		// Sent after a 429 arrived (and the client's time to read it), before Retry-After: that one is early.
		await new Promise((resolve) => setTimeout(resolve, 40));
		expect((await api('GET', '/api/contacts/')).status).toBe(429);
		expect(sb.state.stats.earlyRetries - before.earlyRetries).toBe(1);
	});
});
