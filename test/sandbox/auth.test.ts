import crypto from 'node:crypto';
import {
	call,
	client,
	DEMO,
	decodeJwt,
	expectJsendError,
	login,
	NOACCESS,
	OTHER,
	Sandbox,
	sleep,
	start,
} from './helpers';

describe('sandbox: authentication', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await start();
	});
	afterAll(async () => {
		await sb.close();
	});
	afterEach(() => {
		sb.setConfig({ tokenTtlSeconds: 3600 });
	});

	it('A1: login returns {token}, an HS256 JWT with sub, username, iat and exp = iat + 3600', async () => {
		const before = sb.loginCount('demo@shop.test');
		const res = await call(sb, 'POST', '/api/login_check', { body: DEMO });
		expect(res.status).toBe(200);
		expect(Object.keys(res.json)).toEqual(['token']);
		const [header] = res.json.token.split('.');
		expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
			alg: 'HS256',
			typ: 'JWT',
		});
		const claims = decodeJwt(res.json.token);
		expect(claims.sub).toBe(String(sb.state.userByName('demo@shop.test')!.id));
		expect(claims.username).toBe('demo@shop.test');
		expect(claims.exp - claims.iat).toBe(3600);
		expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(5);
		expect(sb.loginCount('demo@shop.test')).toBe(before + 1);
		expect(sb.state.logins.at(-1)).toMatchObject({ username: 'demo@shop.test' });
	});

	it('A1: wrong password, unknown user -> 401 INVALID_CREDENTIALS; missing fields -> 422 VALIDATION_ERROR', async () => {
		const bad = await call(sb, 'POST', '/api/login_check', {
			body: { username: DEMO.username, password: 'nope' },
		});
		expectJsendError(bad, 401, 'INVALID_CREDENTIALS');
		expect(bad.json.message).toBe('Invalid credentials.');
		const unknown = await call(sb, 'POST', '/api/login_check', {
			body: { username: 'x@y.z', password: 'nope' },
		});
		expectJsendError(unknown, 401, 'INVALID_CREDENTIALS');
		const missing = await call(sb, 'POST', '/api/login_check', {
			body: { username: DEMO.username },
		});
		expectJsendError(missing, 422, 'VALIDATION_ERROR');
		expect(missing.json.data.violations).toEqual([
			{ propertyPath: 'password', message: 'This value should not be blank.' },
		]);
	});

	it('A2: exactly "Bearer <token>" is accepted; two spaces, lower case, other schemes are JWT_INVALID', async () => {
		const token = await login(sb);
		const ok = await call(sb, 'GET', '/api/contacts/', {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(ok.status).toBe(200);
		for (const value of [
			`Bearer  ${token}`,
			`bearer ${token}`,
			`Token ${token}`,
			`Bearer${token}`,
			token,
		]) {
			const res = await call(sb, 'GET', '/api/contacts/', { headers: { authorization: value } });
			expectJsendError(res, 401, 'JWT_INVALID');
			expect(res.json.message).toMatch(/exactly one space/);
		}
	});

	it('A2: no Authorization header -> 401 JWT_MISSING; bad signature or foreign token -> 401 JWT_INVALID', async () => {
		expectJsendError(await call(sb, 'GET', '/api/contacts/'), 401, 'JWT_MISSING');
		const token = await login(sb);
		const [h, p, s] = token.split('.');
		const tampered = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
		expectJsendError(
			await call(sb, 'GET', '/api/contacts/', { token: tampered }),
			401,
			'JWT_INVALID',
		);
		const body = Buffer.from(
			JSON.stringify({ sub: '1', username: DEMO.username, iat: 1, exp: 9e9 }),
		).toString('base64url');
		const sig = crypto
			.createHmac('sha256', 'another-secret')
			.update(`${h}.${body}`)
			.digest('base64url');
		expectJsendError(
			await call(sb, 'GET', '/api/contacts/', { token: `${h}.${body}.${sig}` }),
			401,
			'JWT_INVALID',
		);
		expectJsendError(
			await call(sb, 'GET', '/api/contacts/', { token: 'not-a-jwt' }),
			401,
			'JWT_INVALID',
		);
	});

	it('A3: an expired token gets 401 JWT_EXPIRED "Expired JWT Token", logged as tokenExpired; a fresh login works', async () => {
		sb.setConfig({ tokenTtlSeconds: 0.3 });
		const token = await login(sb);
		const claims = decodeJwt(token);
		expect(claims.exp * 1000 - Date.now()).toBeLessThanOrEqual(300);
		const api = client(sb, token);
		expect((await api('GET', '/api/contacts/')).status).toBe(200);
		await sleep(350);
		const expired = await api('GET', '/api/contacts/');
		expectJsendError(expired, 401, 'JWT_EXPIRED');
		expect(expired.json.message).toBe('Expired JWT Token');
		expect(sb.state.requests.at(-1)).toMatchObject({
			path: '/api/contacts/',
			status: 401,
			tokenExpired: true,
			authorization: true,
		});
		const fresh = await login(sb);
		expect((await call(sb, 'GET', '/api/contacts/', { token: fresh })).status).toBe(200);
	});

	it('A3: expireTokensNow() expires every token issued so far', async () => {
		const token = await login(sb);
		sb.expireTokensNow();
		expectJsendError(await call(sb, 'GET', '/api/contacts/', { token }), 401, 'JWT_EXPIRED');
		expect((await call(sb, 'GET', '/api/contacts/', { token: await login(sb) })).status).toBe(200);
	});

	it('A4: a user without API access logs in but gets 403 API_ACCESS_DISABLED on every call', async () => {
		const token = await login(sb, NOACCESS);
		const res = await call(sb, 'GET', '/api/contacts/', { token });
		expectJsendError(res, 403, 'API_ACCESS_DISABLED');
		expect(res.json.message).toMatch(/API access is disabled for this user \(User\.hasApiAccess\)/);
		expectJsendError(
			await call(sb, 'POST', '/api/v1/order/', { token, body: { order_id: 'X', status: 'paid' } }),
			403,
			'API_ACCESS_DISABLED',
		);
	});

	it('A4: addUser() creates users, with or without API access', async () => {
		sb.addUser({ username: 'new@shop.test', password: 'pw', apiAccess: false, pluginKey: null });
		const token = await login(sb, { username: 'new@shop.test', password: 'pw' });
		expectJsendError(
			await call(sb, 'GET', '/api/contacts/', { token }),
			403,
			'API_ACCESS_DISABLED',
		);
		const other = await login(sb, OTHER);
		expect((await call(sb, 'GET', '/api/contacts/', { token: other })).json.data.total).toBe(2);
	});
});
