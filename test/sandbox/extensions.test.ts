import {
	call,
	client,
	DEMO,
	expectJsendError,
	login,
	NOACCESS,
	OTHER,
	Sandbox,
	start,
} from './helpers';

/**
 * GET/PUT /api/user/profile/: NOT a path from the API document; the emulator's example of an undocumented area,
 * used by the demo and the end-to-end tests for the Custom API Call and n8n's HTTP Request node.
 */
describe('sandbox: extension route /api/user/profile/ (not from the API document)', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	beforeAll(async () => {
		sb = await start();
		api = client(sb, await login(sb));
	});
	afterAll(async () => {
		await sb.close();
	});
	beforeEach(() => sb.reset());

	it("GET: the logged-in user's public profile, without password or plugin key", async () => {
		const res = await api('GET', '/api/user/profile/');
		expect(res.status).toBe(200);
		expect(res.json.status).toBe('success');
		expect(res.json.data).toEqual({
			id: sb.state.userByName(DEMO.username)!.id,
			username: DEMO.username,
			email: DEMO.username,
			firstname: 'Demo',
			lastname: 'User',
			language: 'en',
			has_api_access: true,
			updated_at: '2025-01-06T09:00:00.000Z',
		});
		expect(res.text).not.toContain(DEMO.password);
		expect(res.text).not.toContain('demo-plugin-key');
		expect(res.text).not.toMatch(/password|plugin/i);
	});

	it('PUT: partial update of firstname / lastname / language; other fields untouched; per user', async () => {
		const res = await api('PUT', '/api/user/profile/', { language: 'fr', lastname: 'Boutique' });
		expect(res.status).toBe(200);
		expect(res.json.data).toMatchObject({
			firstname: 'Demo',
			lastname: 'Boutique',
			language: 'fr',
		});
		expect(res.json.data.updated_at).not.toBe('2025-01-06T09:00:00.000Z');
		expect((await api('GET', '/api/user/profile/')).json.data).toMatchObject({
			lastname: 'Boutique',
			language: 'fr',
		});
		const other = client(sb, await login(sb, OTHER));
		expect((await other('GET', '/api/user/profile/')).json.data).toMatchObject({
			username: OTHER.username,
			language: 'en',
		});
	});

	it('PUT: a field that is not editable, a bad language or an empty body -> 422 VALIDATION_ERROR, nothing changed', async () => {
		const denied = await api('PUT', '/api/user/profile/', {
			firstname: 'Eve',
			password: 'x',
			has_api_access: false,
		});
		expectJsendError(denied, 422, 'VALIDATION_ERROR');
		expect(
			denied.json.data.violations.map((v: { propertyPath: string }) => v.propertyPath),
		).toEqual(['password', 'has_api_access']);
		expectJsendError(
			await api('PUT', '/api/user/profile/', { language: 'French' }),
			422,
			'VALIDATION_ERROR',
		);
		expectJsendError(
			await api('PUT', '/api/user/profile/', { firstname: '  ' }),
			422,
			'VALIDATION_ERROR',
		);
		expectJsendError(await api('PUT', '/api/user/profile/', {}), 422, 'VALIDATION_ERROR');
		expect((await api('GET', '/api/user/profile/')).json.data).toMatchObject({
			firstname: 'Demo',
			language: 'en',
		});
		expect(sb.state.userByName(DEMO.username)!.password).toBe(DEMO.password);
	});

	it('same rules as the other routes: bearer token, API access, trailing slash, faults, reset', async () => {
		expectJsendError(await call(sb, 'GET', '/api/user/profile/'), 401, 'JWT_MISSING');
		expectJsendError(
			await call(sb, 'GET', '/api/user/profile/', { token: await login(sb, NOACCESS) }),
			403,
			'API_ACCESS_DISABLED',
		);
		const slash = await api('GET', '/api/user/profile');
		expectJsendError(slash, 404, 'NOT_FOUND');
		expect(slash.json.message).toContain('/api/user/profile/');
		sb.faults.inject({ method: 'GET', path: '/api/user/profile/', kind: '429', retryAfter: 2 });
		const limited = await api('GET', '/api/user/profile/');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('2');
		await api('PUT', '/api/user/profile/', { language: 'de' });
		sb.reset();
		expect((await api('GET', '/api/user/profile/')).json.data.language).toBe('en');
	});

	it('is rate limited per user like the other routes', async () => {
		sb.setConfig({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
		try {
			expect((await api('GET', '/api/user/profile/')).status).toBe(200);
			const second = await api('GET', '/api/user/profile/');
			expectJsendError(second, 429, 'RATE_LIMIT_EXCEEDED');
			expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
		} finally {
			sb.setConfig({ rateLimit: null });
		}
	});
});
