import { call, client, decodeJwt, expectJsendError, login, Sandbox, sleep, start } from './helpers';

describe('sandbox: HTTP control API (/__sandbox/)', () => {
	let sb: Sandbox;
	const ctl = (method: string, path: string, body?: unknown) =>
		call(sb, method, `/__sandbox/${path}`, { body });
	beforeAll(async () => {
		sb = await start({ reviewDelayMs: null });
	});
	afterAll(async () => {
		await sb.close();
	});

	it('GET state: counts, stats, events, logins; control calls are not in the request log', async () => {
		const api = client(sb, await login(sb));
		await api('POST', '/api/v1/order/', { order_id: 'S-1', status: 'paid' });
		const res = await ctl('GET', 'state');
		expect(res.status).toBe(200);
		expect(res.json.counts).toMatchObject({
			users: 3,
			contacts: 47,
			templates: 3,
			products: 25,
			orders: 6,
			orderEvents: 1,
			logins: 1,
		});
		expect(res.json.orderEvents).toEqual([
			{ userId: 1, body: { order_id: 'S-1', status: 'paid' }, at: expect.any(Number) },
		]);
		expect(res.json.loginCounts).toEqual({ 'demo@shop.test': 1 });
		expect(res.json.stats).toEqual({ earlyRetries: 0, rateLimited: 0 });
		expect(res.json.requestCount).toBe(2);
		expect(res.json.templates[0]).toMatchObject({
			name: 'order_confirmation',
			state: 'APPROVED',
			userId: 1,
		});
		const log = await ctl('GET', 'requests?since=1');
		expect(log.json).toEqual({
			total: 2,
			requests: [expect.objectContaining({ path: '/api/v1/order/', status: 201 })],
		});
	});

	it('POST/DELETE faults: path or pathRegex, times', async () => {
		const api = client(sb, await login(sb));
		const added = await ctl('POST', 'faults', { path: '/api/contacts/', kind: '503', times: 2 });
		expect(added.json).toMatchObject({
			ok: true,
			fault: { kind: '503', remaining: 2, path: '/api/contacts/' },
		});
		expect((await api('GET', '/api/contacts/')).status).toBe(503);
		await ctl('POST', 'faults', {
			pathRegex: '^/api/v1/order/',
			method: 'post',
			kind: '429',
			retryAfter: 1,
		});
		expect(
			(await api('POST', '/api/v1/order/', { order_id: 'S-2', status: 'paid' })).headers.get(
				'retry-after',
			),
		).toBe('1');
		expect((await ctl('GET', 'faults')).json.faults).toHaveLength(1);
		expect((await ctl('DELETE', 'faults')).json).toEqual({ ok: true });
		expect((await api('GET', '/api/contacts/')).status).toBe(200);
		const bad = await ctl('POST', 'faults', { path: '/x', kind: 'boom' });
		expect(bad.status).toBe(400);
		expect(bad.json.ok).toBe(false);
		expect(bad.json.error).toMatch(/unknown fault kind/);
		await ctl('POST', 'faults', { path: '/api/contacts/', kind: '500', times: 'Infinity' });
		for (let i = 0; i < 3; i++) expect((await api('GET', '/api/contacts/')).status).toBe(500);
		await ctl('DELETE', 'faults');
	});

	it('POST config: tokenTtlSeconds, rateLimit, reviewDelayMs; bad values are 400', async () => {
		const res = await ctl('POST', 'config', { tokenTtlSeconds: 120 });
		expect(res.json.config.tokenTtlSeconds).toBe(120);
		const claims = decodeJwt(await login(sb));
		expect(claims.exp - claims.iat).toBe(120);
		expect((await ctl('POST', 'config', { tokenTtlSeconds: -1 })).status).toBe(400);
		expect((await ctl('POST', 'config', { rateLimit: { requestsPerSecond: 0 } })).status).toBe(400);
		await ctl('POST', 'config', { tokenTtlSeconds: 3600 });
	});

	it('POST templates/:id/review and review-rules', async () => {
		const api = client(sb, await login(sb));
		const pending = [...sb.state.templates.values()].find((t) => t.state === 'PENDING')!;
		const rejected = await ctl('POST', `templates/${pending.id}/review`, {
			outcome: 'REJECTED',
			reason: 'Nope.',
		});
		expect(rejected.json.template).toMatchObject({ state: 'REJECTED', reason: 'Nope.' });
		const approved = await ctl('POST', `templates/${pending.id}/review`, { outcome: 'APPROVED' });
		expect(approved.json.template.state).toBe('APPROVED');
		expect((await ctl('POST', 'templates/99999/review', { outcome: 'APPROVED' })).status).toBe(400);
		expect((await ctl('POST', `templates/${pending.id}/review`, { outcome: 'MAYBE' })).status).toBe(
			400,
		);

		await ctl('POST', 'config', { reviewDelayMs: 30 });
		expect(
			(await ctl('POST', 'review-rules', { name: 'ctl_rule', reject: 'Ruled out.' })).json,
		).toEqual({ ok: true });
		const tpl = (await api('POST', '/api/v2/whatsapp/templates', { name: 'ctl_rule', body: 'x' }))
			.json.data;
		await api('POST', `/api/v2/whatsapp/templates/${tpl.id}/submit`);
		await sleep(100);
		expect((await api('GET', `/api/v2/whatsapp/templates/${tpl.id}`)).json.data).toMatchObject({
			state: 'REJECTED',
			reason: 'Ruled out.',
		});
		await ctl('POST', 'config', { reviewDelayMs: null });
	});

	it('POST users, token and expire-tokens', async () => {
		const added = await ctl('POST', 'users', {
			username: 'ctl@shop.test',
			password: 'pw',
			apiAccess: true,
			pluginKey: 'k',
		});
		expect(added.json).toEqual({
			ok: true,
			user: { id: expect.any(Number), username: 'ctl@shop.test', apiAccess: true },
		});
		const token = (await ctl('POST', 'token', { username: 'ctl@shop.test' })).json.token;
		expect((await call(sb, 'GET', '/api/contacts/', { token })).json.data.total).toBe(0);
		await ctl('POST', 'expire-tokens');
		expectJsendError(await call(sb, 'GET', '/api/contacts/', { token }), 401, 'JWT_EXPIRED');
	});

	it('POST reset: back to the seed (demo or empty); logs, stats and faults cleared', async () => {
		const api = client(sb, await login(sb));
		await api('POST', '/api/contacts/', { phone: '+33612345678' });
		await ctl('POST', 'faults', { path: '/nothing', kind: '500' });
		expect((await ctl('POST', 'reset')).json).toEqual({ ok: true });
		const state = (await ctl('GET', 'state')).json;
		expect(state.counts).toMatchObject({
			users: 3,
			contacts: 47,
			orderEvents: 0,
			logins: 0,
			requests: 0,
		});
		expect(state.faults).toEqual([]);
		await ctl('POST', 'reset', { seed: 'empty' });
		expect((await ctl('GET', 'state')).json.counts).toMatchObject({
			users: 3,
			contacts: 0,
			templates: 0,
			products: 0,
		});
		expect((await ctl('POST', 'reset', { seed: 'bogus' })).status).toBe(400);
		sb.reset();
		expect(sb.state.contacts).toHaveLength(47);
	});
});
