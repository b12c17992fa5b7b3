/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { Agent } from 'undici';
import { login, Sandbox, start } from './helpers';

describe('sandbox: throughput', () => {
	let sb: Sandbox;
	const agent = new Agent({ connections: 16, pipelining: 1 });
	beforeAll(async () => {
		sb = await start({ recordRequests: false });
	});
	afterAll(async () => {
		await agent.close();
		await sb.close();
	});

	it('1500 order events and 500 paginated lists over 16 keep-alive connections stay fast', async () => {
		const token = await login(sb);
		const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
		const t0 = Date.now();
		let next = 0;
		const worker = async () => {
			while (next < 2000) {
				const i = next++;
				const res =
					i % 4 === 3
						? await fetch(`${sb.url}/api/contacts/?limit=100&page=${(i % 3) + 1}`, {
								headers,
								dispatcher: agent,
							} as RequestInit)
						: await fetch(`${sb.url}/api/v1/order/`, {
								method: 'POST',
								headers,
								body: JSON.stringify({ order_id: `P-${i % 500}`, status: 'paid' }),
								dispatcher: agent,
							} as RequestInit);
				if (!res.ok) throw new Error(`HTTP ${res.status}`);
				await res.arrayBuffer();
			}
		};
		await Promise.all(Array.from({ length: 16 }, worker));
		const ms = Date.now() - t0;
		expect(sb.state.orderEvents).toHaveLength(1500);
		expect(sb.state.orders.get(1)!.list).toHaveLength(5 + 375); // ids P-n with n % 4 === 3 are never posted
		expect(sb.state.requests).toHaveLength(0);
		expect(ms).toBeLessThan(15000); // a smoke bound: about 1 s on a 2-CPU machine
		process.stdout.write(`sandbox throughput: 2000 requests in ${ms} ms\n`);
	});
});
