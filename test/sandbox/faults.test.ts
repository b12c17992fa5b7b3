/* eslint-disable @typescript-eslint/no-explicit-any -- reads the emulator's JSON answers untyped */
import { call, client, expectJsendError, login, Sandbox, start } from './helpers';

describe('sandbox: fault injection', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	const order = () => api('POST', '/api/v1/order/', { order_id: 'F-1', status: 'paid' });
	beforeAll(async () => {
		sb = await start();
		api = client(sb, await login(sb));
	});
	afterAll(async () => {
		await sb.close();
	});
	afterEach(() => sb.faults.clear());

	it('E5: 429 with Retry-After seconds; the faulted event is NOT recorded; the fault is used once', async () => {
		const n = sb.state.orderEvents.length;
		sb.faults.inject({ path: '/api/v1/order/', kind: '429', retryAfter: 2 });
		const res = await order();
		expectJsendError(res, 429, 'RATE_LIMIT_EXCEEDED');
		expect(res.headers.get('retry-after')).toBe('2');
		expect(sb.state.orderEvents.length).toBe(n);
		expect((await order()).status).toBe(201);
		expect(sb.state.orderEvents.length).toBe(n + 1);
	});

	it('E5: 429 with Retry-After as an HTTP date', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: '429', retryAfter: 3, retryAfterDate: true });
		const res = await api('GET', '/api/contacts/');
		expect(res.status).toBe(429);
		const at = Date.parse(res.headers.get('retry-after')!);
		expect(at - Date.now()).toBeGreaterThan(1000);
		expect(at - Date.now()).toBeLessThanOrEqual(3000);
	});

	it('E5: 429-no-retry-after has no Retry-After header', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: '429-no-retry-after', retryAfter: 5 });
		const res = await api('GET', '/api/contacts/');
		expectJsendError(res, 429, 'RATE_LIMIT_EXCEEDED');
		expect(res.headers.get('retry-after')).toBeNull();
	});

	it.each([
		['500', 'INTERNAL_ERROR'],
		['502', 'BAD_GATEWAY'],
		['503', 'SERVICE_UNAVAILABLE'],
		['504', 'GATEWAY_TIMEOUT'],
	] as const)('%s answers that status with a JSend error (%s)', async (kind, code) => {
		sb.faults.inject({ path: '/api/contacts/', kind });
		expectJsendError(await api('GET', '/api/contacts/'), Number(kind), code);
	});

	it('reset destroys the socket without an answer, and changes nothing', async () => {
		const n = sb.state.orderEvents.length;
		sb.faults.inject({ method: 'POST', path: '/api/v1/order/', kind: 'reset' });
		await expect(order()).rejects.toThrow();
		expect(sb.state.orderEvents.length).toBe(n);
		expect(sb.state.requests.at(-1)).toMatchObject({
			path: '/api/v1/order/',
			status: 0,
			fault: 'reset',
		});
		expect((await order()).status).toBe(201);
	});

	it('slow delays, then answers normally', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: 'slow', delayMs: 250 });
		const t0 = Date.now();
		const res = await api('GET', '/api/contacts/');
		expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
		expect(res.status).toBe(200);
		expect(res.json.status).toBe('success');
	});

	it('malformed-json is a 200 application/json with a truncated body', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: 'malformed-json' });
		const res = await api('GET', '/api/contacts/');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(() => JSON.parse(res.text)).toThrow();
	});

	it('html is a 502 text/html error page', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: 'html' });
		const res = await api('GET', '/api/contacts/');
		expect(res.status).toBe(502);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(res.text).toContain('<h1>502 Bad Gateway</h1>');
	});

	it('E1: jsend-error-200 is HTTP 200 with status error and code INTERNAL_ERROR', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: 'jsend-error-200' });
		expectJsendError(await api('GET', '/api/contacts/'), 200, 'INTERNAL_ERROR');
	});

	it('E5: rate-limit-200 is HTTP 200 with code RATE_LIMIT_EXCEEDED', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: 'rate-limit-200' });
		expectJsendError(await api('GET', '/api/contacts/'), 200, 'RATE_LIMIT_EXCEEDED');
	});

	it.each([
		['expired-token-200', 200],
		['expired-token-401', 401],
	] as const)(
		'A3: %s answers JWT_EXPIRED "Expired JWT Token" (HTTP %i), logged as tokenExpired',
		async (kind, status) => {
			sb.faults.inject({ path: '/api/contacts/', kind });
			const res = await api('GET', '/api/contacts/');
			expectJsendError(res, status, 'JWT_EXPIRED');
			expect(res.json.message).toBe('Expired JWT Token');
			expect(sb.state.requests.at(-1)).toMatchObject({ tokenExpired: true, fault: kind });
		},
	);

	it('times, method and RegExp paths; login can be faulted too; clear() removes pending faults', async () => {
		sb.faults.inject({
			method: 'GET',
			path: /^\/api\/v2\/whatsapp\/templates\/\d+$/,
			kind: '503',
			times: 2,
		});
		const tpl = [...sb.state.templates.values()][0];
		expect((await api('GET', `/api/v2/whatsapp/templates/${tpl.id}`)).status).toBe(503);
		expect((await api('DELETE', '/api/v2/whatsapp/templates/999999')).status).toBe(404);
		expect((await api('GET', `/api/v2/whatsapp/templates/${tpl.id}`)).status).toBe(503);
		expect((await api('GET', `/api/v2/whatsapp/templates/${tpl.id}`)).status).toBe(200);

		const logins = sb.loginCount();
		sb.faults.inject({ path: '/api/login_check', kind: '500' });
		expect(
			(
				await call(sb, 'POST', '/api/login_check', {
					body: { username: 'demo@shop.test', password: 'demo-password' },
				})
			).status,
		).toBe(500);
		expect(sb.loginCount()).toBe(logins);

		sb.faults.inject({ path: '/api/contacts/', kind: '500', times: Infinity });
		expect((await api('GET', '/api/contacts/')).status).toBe(500);
		expect(sb.faults.list()).toHaveLength(1);
		sb.faults.clear();
		expect((await api('GET', '/api/contacts/')).status).toBe(200);
		expect(() => sb.faults.inject({ path: '/x', kind: 'nope' as any })).toThrow(
			/unknown fault kind/,
		);
	});
});
