/* eslint-disable @typescript-eslint/no-explicit-any -- reads the emulator's JSON answers untyped */
/**
 * The emulator's fault and variant modes: servers built differently from ours (where the API document leaves a
 * choice open) or that behave badly. Real HTTP over loopback.
 */
import { startTrap } from '../../sandbox';
import {
	call,
	client,
	DEMO,
	decodeJwt,
	expectJsendError,
	login,
	NOACCESS,
	PLUGIN,
	Res,
	Sandbox,
	sleep,
	start,
} from './helpers';

/** One call that does NOT follow redirects (the helper's fetch follows them by default). */
const raw = (
	sb: Sandbox,
	method: string,
	path: string,
	init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Res> =>
	call(sb, method, path, { headers: init.headers, raw: init.body, redirect: 'manual' });

describe('sandbox variants: new fault kinds', () => {
	let sb: Sandbox;
	let token: string;
	let api: ReturnType<typeof client>;
	beforeAll(async () => {
		sb = await start();
		token = await login(sb);
		api = client(sb, token);
	});
	afterAll(async () => {
		await sb.close();
	});
	afterEach(() => sb.faults.clear());

	it('A6: redirect (default 307) sends Location verbatim, an absolute URL to another host; logged like any request', async () => {
		const n = sb.state.orderEvents.length;
		sb.faults.inject({
			path: '/api/v1/order/',
			kind: 'redirect',
			location: 'http://127.0.0.1:9/steal?x=1',
		});
		const res = await raw(sb, 'POST', '/api/v1/order/', {
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: '{"order_id":"R-1","status":"paid"}',
		});
		expect(res.status).toBe(307);
		expect(res.headers.get('location')).toBe('http://127.0.0.1:9/steal?x=1');
		expect(sb.state.orderEvents.length).toBe(n);
		expect(sb.state.requests.at(-1)).toMatchObject({
			method: 'POST',
			path: '/api/v1/order/',
			status: 307,
			fault: 'redirect',
		});
	});

	it.each([301, 302, 303, 308] as const)(
		'A6: redirect with status %i and a path Location',
		async (status) => {
			sb.faults.inject({
				path: '/api/contacts/',
				kind: 'redirect',
				status,
				location: '/elsewhere/',
			});
			const res = await raw(sb, 'GET', '/api/contacts/', {
				headers: { authorization: `Bearer ${token}` },
			});
			expect(res.status).toBe(status);
			expect(res.headers.get('location')).toBe('/elsewhere/');
		},
	);

	it('redirect needs a location and a redirect status', () => {
		expect(() => sb.faults.inject({ path: '/x', kind: 'redirect' } as any)).toThrow(/location/);
		expect(() =>
			sb.faults.inject({ path: '/x', kind: 'redirect', status: 200, location: '/y' }),
		).toThrow(/status/);
	});

	it('A3: 401-empty is a 401 with an empty body', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: '401-empty' });
		const res = await api('GET', '/api/contacts/');
		expect(res.status).toBe(401);
		expect(res.text).toBe('');
	});

	it.each([
		['jwt-invalid', 401, { status: 'error', code: 'JWT_INVALID', message: 'Invalid JWT Token' }],
		['jwt-not-found', 401, { code: 401, message: 'JWT Token not found' }],
		['api-access-401', 401, { status: 'error', message: 'API access is disabled for this user' }],
		[
			'forbidden-403',
			403,
			{ status: 'error', code: 'FORBIDDEN', message: 'Access denied: insufficient role' },
		],
		[
			'plugin-headers-missing',
			401,
			{
				status: 'error',
				code: 'PLUGIN_AUTH_REQUIRED',
				message: 'Missing x-api-key, x-platform-type or x-base-uri header',
			},
		],
	] as const)('A2-A5: %s answers HTTP %i with exactly that body', async (kind, status, body) => {
		sb.faults.inject({ path: '/api/contacts/', kind });
		const res = await api('GET', '/api/contacts/');
		expect(res.status).toBe(status);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(res.json).toEqual(body);
		expect(sb.state.requests.at(-1)).toMatchObject({ status, fault: kind });
	});

	it('A6: echo-headers is a text/html page (500 by default) showing every request header and the raw body', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: 'echo-headers' });
		const body = JSON.stringify({ phone: '+33612345678', firstname: 'Echo' });
		const res = await call(sb, 'POST', '/api/contacts/', {
			token,
			body: JSON.parse(body),
			headers: PLUGIN,
		});
		expect(res.status).toBe(500);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(res.text).toContain(`Bearer ${token}`);
		expect(res.text).toContain('demo-plugin-key');
		expect(res.text).toContain('https://shop.example');
		expect(res.text).toContain(body);
		expect(sb.state.contacts.some((c) => c.firstname === 'Echo')).toBe(false);

		sb.faults.inject({ path: '/api/contacts/', kind: 'echo-headers', status: 200 });
		const ok = await api('GET', '/api/contacts/');
		expect(ok.status).toBe(200);
		expect(ok.text).toContain(`Bearer ${token}`);
	});

	it('L1: hang never answers; the client giving up ends it and the next request is served', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: 'hang' });
		const abort = new AbortController();
		const pending = fetch(`${sb.url}/api/contacts/`, {
			headers: { authorization: `Bearer ${token}` },
			signal: abort.signal,
		});
		const n = sb.state.requests.length;
		while (sb.state.requests.length === n) await sleep(10);
		expect(sb.state.requests.at(-1)).toMatchObject({
			path: '/api/contacts/',
			status: 0,
			fault: 'hang',
		});
		abort.abort();
		await expect(pending).rejects.toThrow();
		expect((await api('GET', '/api/contacts/')).status).toBe(200);
	});

	it('L1: hang: close() ends the open request and returns', async () => {
		const other = await start();
		other.faults.inject({ path: '/api/contacts/', kind: 'hang', times: Infinity });
		const pending = fetch(`${other.url}/api/contacts/`).then(
			() => 'answered',
			() => 'failed',
		);
		while (other.state.requests.length === 0) await sleep(10);
		await other.close();
		expect(await pending).toBe('failed');
	});

	it('E5: 429 retryAfterRaw sends Retry-After verbatim', async () => {
		for (const value of ['-5', '12, 13', 'soon']) {
			sb.faults.inject({
				path: '/api/contacts/',
				kind: '429',
				retryAfter: 1,
				retryAfterRaw: value,
			});
			const res = await api('GET', '/api/contacts/');
			expectJsendError(res, 429, 'RATE_LIMIT_EXCEEDED');
			expect(res.headers.get('retry-after')).toBe(value);
		}
	});

	it('E5: forMs matches every request during the window, then the fault disappears', async () => {
		sb.faults.inject({ path: '/api/contacts/', kind: '503', forMs: 600 });
		for (let i = 0; i < 4; i++) expect((await api('GET', '/api/contacts/')).status).toBe(503);
		expect(sb.faults.list()).toHaveLength(1);
		await sleep(650);
		expect((await api('GET', '/api/contacts/')).status).toBe(200);
		expect(sb.faults.list()).toHaveLength(0);
		expect(() => sb.faults.inject({ path: '/x', kind: '500', forMs: 0 })).toThrow(/forMs/);
	});

	it('POST /__sandbox/faults takes forMs, retryAfterRaw, redirect status and location, echo-headers status', async () => {
		const ctl = (body: unknown) => call(sb, 'POST', '/__sandbox/faults', { body });
		expect(
			(await ctl({ path: '/api/contacts/', kind: '502', forMs: 10000 })).json.fault,
		).toMatchObject({ kind: '502', remaining: 'Infinity' });
		expect((await api('GET', '/api/contacts/')).status).toBe(502);
		expect((await api('GET', '/api/contacts/')).status).toBe(502);
		sb.faults.clear();
		await ctl({ path: '/api/contacts/', kind: '429', retryAfterRaw: '12, 13' });
		expect((await api('GET', '/api/contacts/')).headers.get('retry-after')).toBe('12, 13');
		await ctl({
			path: '/api/contacts/',
			kind: 'redirect',
			status: 302,
			location: 'https://elsewhere.test/x',
		});
		const red = await raw(sb, 'GET', '/api/contacts/');
		expect([red.status, red.headers.get('location')]).toEqual([302, 'https://elsewhere.test/x']);
		await ctl({ path: '/api/contacts/', kind: 'echo-headers', status: 502 });
		expect((await api('GET', '/api/contacts/')).status).toBe(502);
		expect((await ctl({ path: '/x', kind: 'redirect', status: 200, location: '/y' })).status).toBe(
			400,
		);
	});
});

describe('sandbox variants: tokens', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start();
	});
	afterAll(async () => {
		await sb.close();
	});
	afterEach(() => {
		sb.setConfig({ clockSkewSeconds: 0 });
	});

	it('A3: revokeTokens() refuses every token issued so far as JWT_INVALID "Invalid JWT Token"; new logins work', async () => {
		const token = await login(sb);
		const issued = sb.issueToken(DEMO.username);
		sb.revokeTokens();
		for (const t of [token, issued]) {
			const res = await call(sb, 'GET', '/api/contacts/', { token: t });
			expectJsendError(res, 401, 'JWT_INVALID');
			expect(res.json.message).toBe('Invalid JWT Token');
			expect(sb.state.requests.at(-1)!.tokenExpired).toBeUndefined();
		}
		const logins = sb.loginCount();
		expect((await call(sb, 'GET', '/api/contacts/', { token: await login(sb) })).status).toBe(200);
		expect(sb.loginCount()).toBe(logins + 1);
	});

	it('A2: missingToken "403": a call without a token is answered 403 ACCESS_DENIED; a refused token stays 401', async () => {
		expectJsendError(await call(sb, 'GET', '/api/contacts/'), 401, 'JWT_MISSING');
		sb.setConfig({ missingToken: '403' });
		try {
			const res = await call(sb, 'GET', '/api/contacts/');
			expectJsendError(res, 403, 'ACCESS_DENIED');
			expect(res.json.message).toBe('Access Denied.');
			expectJsendError(
				await call(sb, 'GET', '/api/contacts/', { token: 'not.a.token' }),
				401,
				'JWT_INVALID',
			);
			expect((await call(sb, 'GET', '/api/contacts/', { token: await login(sb) })).status).toBe(
				200,
			);
		} finally {
			sb.setConfig({ missingToken: '401' });
		}
	});

	it('A3: POST /__sandbox/revoke-tokens', async () => {
		const token = await login(sb);
		expect((await call(sb, 'POST', '/__sandbox/revoke-tokens')).json).toEqual({ ok: true });
		expect((await call(sb, 'GET', '/api/contacts/', { token })).json.message).toBe(
			'Invalid JWT Token',
		);
	});

	it('A3: rotateSigningKey() refuses old tokens with JWT_INVALID "Invalid JWT Signature"; new logins work', async () => {
		const token = await login(sb);
		sb.rotateSigningKey();
		const res = await call(sb, 'GET', '/api/contacts/', { token });
		expectJsendError(res, 401, 'JWT_INVALID');
		expect(res.json.message).toBe('Invalid JWT Signature');
		expect((await call(sb, 'GET', '/api/contacts/', { token: await login(sb) })).status).toBe(200);

		const second = await login(sb);
		expect((await call(sb, 'POST', '/__sandbox/rotate-signing-key')).json).toEqual({ ok: true });
		expect((await call(sb, 'GET', '/api/contacts/', { token: second })).json.message).toBe(
			'Invalid JWT Signature',
		);
	});

	it("A3: a restarted emulator refuses the previous one's tokens (random key), unless both share signingKey", async () => {
		const token = await login(sb);
		const restarted = await start();
		try {
			expectJsendError(
				await call(restarted, 'GET', '/api/contacts/', { token }),
				401,
				'JWT_INVALID',
			);
		} finally {
			await restarted.close();
		}
		const a = await start({ signingKey: 'shared-test-key' });
		const b = await start({ signingKey: 'shared-test-key' });
		try {
			const shared = await login(a);
			expect((await call(b, 'GET', '/api/contacts/', { token: shared })).status).toBe(200);
			expect(JSON.stringify(a.summary())).not.toContain('shared-test-key');
		} finally {
			await a.close();
			await b.close();
		}
	});

	it('A3: clockSkewSeconds writes iat/exp from the skewed clock and checks expiry against it; lifetime stays tokenTtlSeconds', async () => {
		sb.setConfig({ clockSkewSeconds: 7200 });
		const ahead = await login(sb);
		const claims = decodeJwt(ahead);
		expect(Math.abs(claims.iat - (Date.now() / 1000 + 7200))).toBeLessThan(5);
		expect(claims.exp - claims.iat).toBe(3600);
		expect((await call(sb, 'GET', '/api/contacts/', { token: ahead })).status).toBe(200);

		// A token from a server 2 h behind: already past exp on the real clock, valid on the server's own clock.
		sb.setConfig({ clockSkewSeconds: -7200 });
		const behind = await login(sb);
		expect(decodeJwt(behind).exp * 1000).toBeLessThan(Date.now());
		expect((await call(sb, 'GET', '/api/contacts/', { token: behind })).status).toBe(200);
		sb.setConfig({ clockSkewSeconds: 0 });
		expectJsendError(
			await call(sb, 'GET', '/api/contacts/', { token: behind }),
			401,
			'JWT_EXPIRED',
		);

		// The clock jumps ahead by more than the lifetime: a fresh token is expired for the server.
		const fresh = await login(sb);
		expect(
			(await call(sb, 'POST', '/__sandbox/config', { body: { clockSkewSeconds: 3601 } })).json
				.config.clockSkewSeconds,
		).toBe(3601);
		expectJsendError(await call(sb, 'GET', '/api/contacts/', { token: fresh }), 401, 'JWT_EXPIRED');
		expect(
			(await call(sb, 'POST', '/__sandbox/config', { body: { clockSkewSeconds: 'x' } })).status,
		).toBe(400);
	});
});

describe('sandbox variants: variant modes', () => {
	let sb: Sandbox;
	let token: string;
	let api: ReturnType<typeof client>;
	const DEFAULTS = {
		successStatus: 'success',
		paths: { orderHistory: 'slash', login: 'noslash' },
		paging: 'standard',
		apiAccessRefusal: '403-code',
		pluginHeaders: 'required',
		orderVisibilityDelayMs: 0,
		clockSkewSeconds: 0,
	} as const;
	beforeAll(async () => {
		sb = await start({ reviewDelayMs: null });
		token = await login(sb);
		api = client(sb, token);
	});
	afterAll(async () => {
		await sb.close();
	});
	afterEach(() => {
		sb.setConfig({ ...DEFAULTS, paths: { ...DEFAULTS.paths }, maxPageSize: 1000 });
		sb.reset();
	});

	it("defaults are today's behaviour, settable at start; reset() keeps the config", async () => {
		expect(sb.summary().config).toMatchObject(DEFAULTS);
		const other = await start({
			successStatus: 'ok',
			paging: 'no-total',
			paths: { login: 'slash' },
		});
		try {
			expect(other.config).toMatchObject({
				successStatus: 'ok',
				paging: 'no-total',
				paths: { orderHistory: 'slash', login: 'slash' },
			});
			other.reset();
			expect(other.config).toMatchObject({
				successStatus: 'ok',
				paging: 'no-total',
				paths: { login: 'slash' },
			});
		} finally {
			await other.close();
		}
		for (const bad of [
			{ successStatus: 'yes' },
			{ paths: { login: 'both' } },
			{ paths: { other: 'slash' } },
			{ paging: 'x' },
			{ apiAccessRefusal: '404' },
			{ pluginHeaders: 'never' },
			{ orderVisibilityDelayMs: -1 },
		]) {
			expect((await call(sb, 'POST', '/__sandbox/config', { body: bad })).status).toBe(400);
		}
	});

	it('E1: successStatus "ok" / "missing" changes only the status field of success envelopes', async () => {
		const standard = await api('GET', '/api/contacts/?limit=2');
		expect(standard.json.status).toBe('success');
		sb.setConfig({ successStatus: 'ok' });
		const ok = await api('GET', '/api/contacts/?limit=2');
		expect(ok.json).toEqual({ ...standard.json, status: 'ok' });
		expect(Object.keys(ok.json)[0]).toBe('status');
		expectJsendError(await api('GET', '/api/contacts'), 404, 'NOT_FOUND');

		await call(sb, 'POST', '/__sandbox/config', { body: { successStatus: 'missing' } });
		const missing = await api('GET', '/api/contacts/?limit=2');
		const rest = { ...standard.json };
		delete rest.status;
		expect(missing.json).toEqual(rest);
		expect('status' in missing.json).toBe(false);
		const created = await api('POST', '/api/contacts/', { phone: '+33612345670' });
		expect(created.json).toEqual({
			message: 'Contact created.',
			data: expect.objectContaining({ phone: '+33612345670' }),
		});
		sb.setConfig({ successStatus: 'ok' });
		expect((await api('POST', '/api/contacts/', { phone: '+33612345671' })).json).toMatchObject({
			status: 'ok',
			message: 'Contact created.',
		});
		expectJsendError(await call(sb, 'GET', '/api/contacts/'), 401, 'JWT_MISSING');
		expect(Object.keys((await call(sb, 'POST', '/api/login_check', { body: DEMO })).json)).toEqual([
			'token',
		]);
	});

	describe('E6: paths', () => {
		const H = '/api/v1/order/history';
		const auth = () => ({ authorization: `Bearer ${token}` });

		it('orderHistory default "slash": the slash form is served, the other is the usual 404 naming the slash rule', async () => {
			expect((await raw(sb, 'GET', `${H}/`, { headers: auth() })).status).toBe(200);
			const res = await raw(sb, 'GET', H, { headers: auth() });
			expectJsendError(res, 404, 'NOT_FOUND');
			expect(res.json.message).toContain(`did you mean "${H}/"?`);
			const noAuth = await raw(sb, 'GET', H);
			expect(noAuth.status).toBe(404);
		});

		it('orderHistory "noslash": served only without the slash', async () => {
			sb.setConfig({ paths: { orderHistory: 'noslash' } });
			const res = await raw(sb, 'GET', `${H}?limit=2`, { headers: auth() });
			expect(res.status).toBe(200);
			expect(res.json.data.results).toHaveLength(2);
			const slash = await raw(sb, 'GET', `${H}/`, { headers: auth() });
			expectJsendError(slash, 404, 'NOT_FOUND');
			expect(slash.json.message).toContain(`did you mean "${H}"?`);
		});

		it('orderHistory "redirect-to-slash": the no-slash form is a 301 to the slash form, query kept, before auth', async () => {
			sb.setConfig({ paths: { orderHistory: 'redirect-to-slash' } });
			const res = await raw(sb, 'GET', `${H}?limit=2&status=paid`);
			expect(res.status).toBe(301);
			expect(res.headers.get('location')).toBe(`${sb.url}${H}/?limit=2&status=paid`);
			expect((await raw(sb, 'GET', `${H}/`, { headers: auth() })).status).toBe(200);
			expect((await call(sb, 'GET', `${H}?limit=2`, { token })).json.data.results).toHaveLength(2);
		});

		it('orderHistory "redirect-to-noslash": the slash form is a 301 to the no-slash form', async () => {
			sb.setConfig({ paths: { orderHistory: 'redirect-to-noslash' } });
			const res = await raw(sb, 'GET', `${H}/?page=1`, { headers: auth() });
			expect(res.status).toBe(301);
			expect(res.headers.get('location')).toBe(`${sb.url}${H}?page=1`);
			expect((await raw(sb, 'GET', H, { headers: auth() })).status).toBe(200);
		});

		const body = JSON.stringify(DEMO);
		const post = (path: string) =>
			raw(sb, 'POST', path, { headers: { 'content-type': 'application/json' }, body });

		it('A1: login default "noslash": /api/login_check only; the slash form is the usual 404', async () => {
			expect((await post('/api/login_check')).status).toBe(200);
			const res = await post('/api/login_check/');
			expectJsendError(res, 404, 'NOT_FOUND');
			expect(res.json.message).toContain('did you mean "/api/login_check"?');
		});

		it('A1: login "slash", "redirect-to-slash" (308 for POST), "redirect-to-noslash"', async () => {
			sb.setConfig({ paths: { login: 'slash' } });
			expect((await post('/api/login_check/')).json.token).toEqual(expect.any(String));
			expect((await post('/api/login_check')).status).toBe(404);

			sb.setConfig({ paths: { login: 'redirect-to-slash' } });
			const red = await post('/api/login_check?x=1');
			expect([red.status, red.headers.get('location')]).toEqual([
				308,
				`${sb.url}/api/login_check/?x=1`,
			]);
			expect((await post('/api/login_check/')).status).toBe(200);

			const logins = sb.loginCount();
			await call(sb, 'POST', '/__sandbox/config', {
				body: { paths: { login: 'redirect-to-noslash' } },
			});
			const back = await post('/api/login_check/');
			expect([back.status, back.headers.get('location')]).toEqual([
				308,
				`${sb.url}/api/login_check`,
			]);
			expect(sb.loginCount()).toBe(logins);
			expect((await post('/api/login_check')).status).toBe(200);
			expect(sb.config.paths.orderHistory).toBe('slash');
		});
	});

	describe('L3: paging', () => {
		const pluginApi = (path: string) => call(sb, 'GET', path, { token, headers: PLUGIN });

		it('"repeat-last": a page past the end answers the last page again (contacts, templates, history, products)', async () => {
			const c3 = await api('GET', '/api/contacts/?currentPage=3&limit=20');
			expect((await api('GET', '/api/contacts/?currentPage=9&limit=20')).json.data.items).toEqual(
				[],
			);
			sb.setConfig({ paging: 'repeat-last' });
			const c9 = await api('GET', '/api/contacts/?currentPage=9&limit=20');
			expect(c9.json.data).toEqual({ ...c3.json.data, currentPage: 3 });
			expect(c9.json.data.items.length).toBeGreaterThan(0);

			const t = await api('GET', '/api/v2/whatsapp/templates?page=7&limit=2');
			expect(t.json.data.items.map((x: any) => x.name)).toEqual(
				(await api('GET', '/api/v2/whatsapp/templates?page=2&limit=2')).json.data.items.map(
					(x: any) => x.name,
				),
			);
			expect(t.json.data.items).toHaveLength(1);

			const h = await api('GET', '/api/v1/order/history/?page=50&limit=2');
			expect(h.json.data).toEqual(
				(await api('GET', '/api/v1/order/history/?page=3&limit=2')).json.data,
			);
			expect(h.json.data.results).toHaveLength(1);

			const p = await pluginApi('/api/v1/products/?page=99&limit=10');
			expect(p.json.data.map((x: any) => x.id)).toEqual([1021, 1022, 1023, 1024, 1025]);
		});

		it('"nested-total": {items, pagination: {total, page, limit}} on every list route', async () => {
			sb.setConfig({ paging: 'nested-total' });
			const c = await api('GET', '/api/contacts/?currentPage=2&limit=20');
			expect(Object.keys(c.json.data)).toEqual(['items', 'pagination']);
			expect(c.json.data.pagination).toEqual({ total: 45, page: 2, limit: 20 });
			expect(c.json.data.items).toHaveLength(20);
			const t = await api('GET', '/api/v2/whatsapp/templates?limit=2');
			expect(t.json.data.pagination).toEqual({ total: 3, page: 1, limit: 2 });
			const h = await api('GET', '/api/v1/order/history/?limit=2&page=2');
			expect(h.json.data.pagination).toEqual({ total: 5, page: 2, limit: 2 });
			expect(h.json.data.items).toHaveLength(2);
			const p = await pluginApi('/api/v1/products/?limit=10&page=3');
			expect(p.json.data.pagination).toEqual({ total: 25, page: 3, limit: 10 });
			expect(p.json.data.items).toHaveLength(5);
		});

		it('"nested-total" with maxPageSize: the clamped limit is reported', async () => {
			sb.setConfig({ paging: 'nested-total', maxPageSize: 7 });
			expect((await api('GET', '/api/contacts/?limit=100')).json.data.pagination).toEqual({
				total: 45,
				page: 1,
				limit: 7,
			});
		});

		it('"no-total": no total anywhere', async () => {
			sb.setConfig({ paging: 'no-total' });
			const c = await api('GET', '/api/contacts/?currentPage=2&limit=20');
			expect(c.json.data).toEqual({ items: expect.any(Array), currentPage: 2, limit: 20 });
			const t = await api('GET', '/api/v2/whatsapp/templates?limit=2');
			expect(Object.keys(t.json.data)).toEqual(['items']);
			expect(Object.keys((await api('GET', '/api/v1/order/history/')).json.data)).toEqual([
				'results',
			]);
			expect(Array.isArray((await pluginApi('/api/v1/products/')).json.data)).toBe(true);
		});
	});

	it.each([
		['403-code', 403, { status: 'error', code: 'API_ACCESS_DISABLED' }],
		['401-message', 401, { status: 'error', message: 'API access is disabled for this user' }],
		['403-message', 403, { status: 'error', message: 'Your account has no API access' }],
	] as const)('A4: apiAccessRefusal "%s" answers %i', async (mode, status, body) => {
		sb.setConfig({ apiAccessRefusal: mode });
		const res = await call(sb, 'GET', '/api/contacts/', { token: await login(sb, NOACCESS) });
		expect(res.status).toBe(status);
		if (mode === '403-code') expect(res.json).toMatchObject(body);
		else expect(res.json).toEqual(body);
	});

	it('A5: pluginHeaders "required" (default) refuses products without the headers; "optional" takes the JWT alone', async () => {
		expectJsendError(await api('GET', '/api/v1/products/'), 403, 'PLUGIN_AUTH_REQUIRED');
		sb.setConfig({ pluginHeaders: 'optional' });
		const alone = await api('GET', '/api/v1/products/?limit=3');
		expect(alone.status).toBe(200);
		expect(alone.json.data).toHaveLength(3);
		expect((await api('GET', '/api/v1/products/1001/')).status).toBe(200);
		expect((await call(sb, 'GET', '/api/v1/products/', { token, headers: PLUGIN })).status).toBe(
			200,
		);
		const wrongs: Record<string, string>[] = [
			{ 'x-api-key': 'nope' },
			{ 'x-platform-type': 'amiga' },
			{ ...PLUGIN, 'x-base-uri': 'not a url' },
		];
		for (const wrong of wrongs) {
			expectJsendError(
				await call(sb, 'GET', '/api/v1/products/', { token, headers: wrong }),
				403,
				'PLUGIN_AUTH_REQUIRED',
			);
		}
	});

	it('V1: orderVisibilityDelayMs: a pushed order shows in history only after the delay, created_at = push time', async () => {
		sb.setConfig({ orderVisibilityDelayMs: 400 });
		const pushed = await api('POST', '/api/v1/order/', { order_id: 'LAG-1', status: 'paid' });
		expect(pushed.status).toBe(201);
		const ids = async () =>
			(await api('GET', '/api/v1/order/history/?limit=100')).json.data.results.map(
				(o: any) => o.order_id,
			);
		expect(await ids()).not.toContain('LAG-1');
		expect(sb.state.orders.get(1)!.byId.has('LAG-1')).toBe(true);
		await sleep(450);
		const history = (await api('GET', '/api/v1/order/history/?limit=100')).json.data.results;
		expect(history[0]).toMatchObject({
			order_id: 'LAG-1',
			created_at: pushed.json.data.received_at,
		});
		sb.setConfig({ orderVisibilityDelayMs: 0, paging: 'nested-total' });
		expect((await api('GET', '/api/v1/order/history/')).json.data.pagination.total).toBe(6);
	});
});

describe('sandbox variants: trap server', () => {
	it('A6: startTrap() records every request {method, url, headers, body} and answers 200 JSend success', async () => {
		const trap = await startTrap();
		try {
			expect(trap.url).toBe(`http://127.0.0.1:${trap.port}`);
			const res = await fetch(`${trap.url}/api/v1/order/?x=1`, {
				method: 'POST',
				headers: { authorization: 'Bearer abc', 'content-type': 'application/json' },
				body: '{"a":1}',
			});
			expect(res.status).toBe(200);
			expect(await res.json()).toEqual({ status: 'success', data: {} });
			expect(trap.requests).toEqual([
				{
					method: 'POST',
					url: '/api/v1/order/?x=1',
					headers: expect.objectContaining({ authorization: 'Bearer abc' }),
					body: '{"a":1}',
				},
			]);
		} finally {
			await trap.close();
		}
		await expect(fetch(trap.url)).rejects.toThrow();
	});

	it('A6: a redirect fault to the trap: the trap sees what a following client sends', async () => {
		const trap = await startTrap();
		const sb = await start();
		try {
			sb.faults.inject({
				path: '/api/contacts/',
				kind: 'redirect',
				location: `${trap.url}/caught`,
			});
			const res = await fetch(`${sb.url}/api/contacts/`);
			expect(res.status).toBe(200);
			expect(trap.requests.map((r) => r.url)).toEqual(['/caught']);
		} finally {
			await sb.close();
			await trap.close();
		}
	});
});
