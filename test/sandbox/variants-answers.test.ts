/* eslint-disable @typescript-eslint/no-explicit-any -- reads the emulator's JSON answers untyped */
/**
 * The emulator's answer-shape modes, where the API document shows no shape: the login answer, the media upload
 * answer, where a list sits in its answer, numeric error codes, and an order history that ignores its filters.
 * Real HTTP over loopback; each mode's default is today's answer.
 */
import { call, client, DEMO, decodeJwt, login, PLUGIN, type Sandbox, start } from './helpers';

/** A mode given as a plain string (the test tables hold strings; the emulator checks the value). */
const configure = (sb: Sandbox, patch: Record<string, unknown>) =>
	sb.setConfig(patch as Parameters<Sandbox['setConfig']>[0]);

describe('sandbox answer shapes (loginAnswer, mediaAnswer, listShape, errorCodes, orderHistoryFilters)', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	beforeAll(async () => {
		sb = await start({ reviewDelayMs: null });
		api = client(sb, await login(sb));
	});
	afterAll(async () => await sb.close());
	afterEach(() => {
		sb.faults.clear();
		sb.setConfig({
			loginAnswer: 'token',
			mediaAnswer: 'data.media_id',
			errorCodes: 'string',
			listShape: 'data',
			orderHistoryFilters: 'applied',
		});
	});

	describe('A1: loginAnswer', () => {
		const loginBody = async () => (await call(sb, 'POST', '/api/login_check', { body: DEMO })).json;
		it.each([
			['token', (b: any) => b.token, ['token']],
			['token-refresh', (b: any) => b.token, ['token', 'refresh_token']],
			['token-user', (b: any) => b.token, ['token', 'data']],
			['access_token', (b: any) => b.access_token, ['access_token', 'token_type', 'expires_in']],
			['jwt', (b: any) => b.jwt, ['jwt']],
			['jsend-token', (b: any) => b.data.token, ['status', 'data']],
			['data-access_token', (b: any) => b.data.access_token, ['data']],
		])('%s: the JWT is where the mode puts it, and it works', async (mode, tokenOf, keys) => {
			configure(sb, { loginAnswer: mode });
			const body = await loginBody();
			expect(Object.keys(body)).toEqual(keys);
			const token = tokenOf(body);
			expect(decodeJwt(token).username).toBe(DEMO.username);
			expect((await client(sb, token)('GET', '/api/contacts/?limit=1')).status).toBe(200);
		});

		it('access_token: expires_in is the token lifetime', async () => {
			sb.setConfig({ loginAnswer: 'access_token' });
			expect(await loginBody()).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
		});

		it('unknown values are refused', () => {
			expect(() => configure(sb, { loginAnswer: 'cookie' })).toThrow(/loginAnswer must be one of/);
		});
	});

	describe('M2: mediaAnswer', () => {
		const upload = async () => {
			const form = new FormData();
			form.append('file', new Blob([Buffer.from('GIF89a')], { type: 'image/gif' }), 'a.gif');
			return await call(sb, 'POST', '/api/v2/whatsapp/media', {
				token: await login(sb),
				raw: form,
			});
		};
		it.each([
			['data.media_id', (b: any) => b.data.media_id],
			['data.id', (b: any) => b.data.id],
			['data.mediaId', (b: any) => b.data.mediaId],
			['data.media.id', (b: any) => b.data.media.id],
			['top-level', (b: any) => b.media_id],
		])('%s: the id is there, and it names the stored media', async (mode, idOf) => {
			configure(sb, { mediaAnswer: mode });
			const res = await upload();
			expect(res.status).toBe(201);
			expect(res.json.status).toBe('success');
			const id = idOf(res.json);
			expect(id).toMatch(/^med_/);
			expect(sb.state.media.get(id)).toMatchObject({ filename: 'a.gif', mimetype: 'image/gif' });
		});

		it('top-level: JSend without data, the id beside status and message', async () => {
			sb.setConfig({ mediaAnswer: 'top-level' });
			const res = await upload();
			expect(Object.keys(res.json)).toEqual(['status', 'message', 'media_id']);
		});
	});

	describe('L3: listShape', () => {
		const products = () => api('GET', '/api/v1/products/?limit=2', undefined, PLUGIN);
		it('data (default): the list under data, as each route shapes it', async () => {
			expect((await api('GET', '/api/contacts/?limit=2')).json.data).toMatchObject({
				total: 45,
				currentPage: 1,
				limit: 2,
			});
			expect(Array.isArray((await products()).json.data)).toBe(true);
		});

		it.each([
			['top-items', 'items'],
			['top-results', 'results'],
			['top-records', 'records'],
		])(
			'%s: the list under %s beside status, the other fields beside it, no data',
			async (mode, key) => {
				configure(sb, { listShape: mode });
				const contacts = (await api('GET', '/api/contacts/?limit=2')).json;
				expect(Object.keys(contacts)).toEqual(['status', key, 'total', 'currentPage', 'limit']);
				expect(contacts[key].map((c: { id: number }) => c.id)).toEqual([1, 2]);
				expect(Object.keys((await products()).json)).toEqual(['status', key]);
				const history = (await api('GET', '/api/v1/order/history/?limit=2')).json;
				expect(Object.keys(history)).toEqual(['status', key]);
				expect(history[key]).toHaveLength(2);
				const templates = (await api('GET', '/api/v2/whatsapp/templates?limit=2')).json;
				expect(templates).toMatchObject({ status: 'success', total: 3 });
			},
		);

		it('bare-array: a JSON array of the records, no envelope, no total; paging still applies', async () => {
			sb.setConfig({ listShape: 'bare-array' });
			const page2 = await api('GET', '/api/contacts/?limit=2&currentPage=2');
			expect(page2.json.map((c: { id: number }) => c.id)).toEqual([3, 4]);
			expect(Array.isArray((await products()).json)).toBe(true);
			expect(Array.isArray((await api('GET', '/api/v1/order/history/?limit=2')).json)).toBe(true);
			expect(Array.isArray((await api('GET', '/api/v2/whatsapp/templates?limit=2')).json)).toBe(
				true,
			);
		});

		it('with nested-total paging, the pagination object moves with the list', async () => {
			sb.setConfig({ listShape: 'top-items', paging: 'nested-total' });
			try {
				const contacts = (await api('GET', '/api/contacts/?limit=2')).json;
				expect(contacts).toMatchObject({
					status: 'success',
					pagination: { total: 45, page: 1, limit: 2 },
				});
				expect(contacts).not.toHaveProperty('data');
			} finally {
				sb.setConfig({ paging: 'standard' });
			}
		});
	});

	describe('E2/E5: errorCodes http-status', () => {
		beforeEach(() => sb.setConfig({ errorCodes: 'http-status' }));

		it('every error body carries the HTTP status as a number, in the usual envelope', async () => {
			const missing = await api('POST', '/api/contacts/', { firstname: 'x' });
			expect(missing.status).toBe(422);
			expect(missing.json).toMatchObject({
				status: 'error',
				code: 422,
				data: { violations: [{ propertyPath: 'phone' }] },
			});
			const refused = await call(sb, 'POST', '/api/login_check', {
				body: { ...DEMO, password: 'wrong' },
			});
			expect(refused.json).toMatchObject({
				status: 'error',
				code: 401,
				message: 'Invalid credentials.',
			});
			const pending = [...sb.state.templates.values()].find(
				(t: { state: string }) => t.state === 'PENDING',
			) as { id: number };
			const notApproved = await api('POST', `/api/v2/whatsapp/templates/${pending.id}/send`, {
				phone: '+33612345678',
			});
			expect(notApproved.status).toBe(400);
			expect(notApproved.json).toMatchObject({ code: 400, data: { state: 'PENDING' } });
			expect((await api('GET', '/api/v1/products/')).json).toMatchObject({
				code: 403,
				message: expect.stringMatching(/x-api-key/),
			});
			expect((await api('GET', '/api/nowhere/')).json.code).toBe(404);
		});

		it('faults too: a 429 is code 429; a rate limit answered with HTTP 200 is code 429 as well', async () => {
			sb.faults.inject({ path: '/api/contacts/', kind: '429', retryAfter: 1 });
			expect((await api('GET', '/api/contacts/')).json).toMatchObject({
				status: 'error',
				code: 429,
			});
			sb.faults.inject({ path: '/api/contacts/', kind: 'rate-limit-200' });
			const business = await api('GET', '/api/contacts/');
			expect(business.status).toBe(200);
			expect(business.json).toMatchObject({ status: 'error', code: 429 });
		});

		it('a user without API access gets 403 with code 403 and the message about API access', async () => {
			const token = await login(sb, {
				username: 'noaccess@shop.test',
				password: 'noaccess-password',
			});
			const res = await client(sb, token)('GET', '/api/contacts/');
			expect(res.status).toBe(403);
			expect(res.json).toMatchObject({
				code: 403,
				message: expect.stringMatching(/API access is disabled/),
			});
		});

		it('the fixed bodies of servers built differently stay exactly as documented', async () => {
			sb.faults.inject({ path: '/api/contacts/', kind: 'jwt-invalid' });
			expect((await api('GET', '/api/contacts/')).json).toEqual({
				status: 'error',
				code: 'JWT_INVALID',
				message: 'Invalid JWT Token',
			});
		});

		it('success answers are untouched', async () => {
			expect((await api('GET', '/api/contacts/?limit=1')).json.status).toBe('success');
		});
	});

	describe('V1: orderHistoryFilters', () => {
		const ids = async (query: string) =>
			(
				(await api('GET', `/api/v1/order/history/${query}`)).json.data.results as Array<{
					order_id: string;
				}>
			).map((o) => o.order_id);

		it('applied (default): status, date_from and date_to filter on created_at', async () => {
			const all = await ids('');
			expect(all.length).toBeGreaterThan(2);
			expect(await ids('?date_from=2999-01-01T00:00:00Z')).toEqual([]);
			expect((await api('GET', '/api/v1/order/history/?date_from=yesterday')).status).toBe(400);
		});

		it('ignored: the whole history newest first whatever the filters, and no filter is checked', async () => {
			const all = await ids('');
			sb.setConfig({ orderHistoryFilters: 'ignored' });
			expect(await ids('?date_from=2999-01-01T00:00:00Z&status=nope&date_to=2000-01-01')).toEqual(
				all,
			);
			expect(await ids('?date_from=yesterday')).toEqual(all);
			// Paging still applies.
			expect(await ids('?limit=2&currentPage=2')).toEqual(all.slice(2, 4));
		});
	});
});

describe('sandbox V1/V2 field types (the document: order_id and cart_id strings, total a decimal number)', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	beforeAll(async () => {
		sb = await start({ reviewDelayMs: null });
		api = client(sb, await login(sb));
	});
	afterAll(async () => await sb.close());

	it('V1/V2: a number where a string is due, or a string where a number is due, is refused naming the field', async () => {
		const orders = sb.state.orderEvents.length;
		const carts = sb.state.cartEvents.length;
		const order = await api('POST', '/api/v1/order/', { order_id: 1001, status: 'paid' });
		expect(order.status).toBe(422);
		expect(order.json.data.violations).toEqual([
			{ propertyPath: 'order_id', message: 'This value should be of type string.' },
		]);
		expect(
			(await api('POST', '/api/v1/order/', { order_id: '1001', status: 1 })).json.data.violations[0]
				.propertyPath,
		).toBe('status');
		const cart = await api('POST', '/api/v1/cart/', { cart_id: 77, total: 19.9 });
		expect(cart.status).toBe(422);
		expect(cart.json.data.violations[0].propertyPath).toBe('cart_id');
		expect(
			(await api('POST', '/api/v1/cart/', { cart_id: '77', total: '19.90' })).json.data
				.violations[0].propertyPath,
		).toBe('total');
		expect(sb.state.orderEvents.length).toBe(orders);
		expect(sb.state.cartEvents.length).toBe(carts);
	});
});
