/* eslint-disable @typescript-eslint/no-explicit-any -- reads the emulator's JSON answers untyped */
import { call, client, expectJsendError, login, OTHER, PLUGIN, Sandbox, start } from './helpers';

describe('sandbox: routes, envelope and pagination', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	beforeAll(async () => {
		sb = await start();
		api = client(sb, await login(sb));
	});
	afterAll(async () => {
		await sb.close();
	});

	describe('E6: strict trailing slash', () => {
		it.each([
			['GET', '/api/contacts', '/api/contacts/'],
			['POST', '/api/whatsapp', '/api/whatsapp/'],
			['POST', '/api/v1/order', '/api/v1/order/'],
			['GET', '/api/v1/order/history', '/api/v1/order/history/'],
			['POST', '/api/v1/automations/instances', '/api/v1/automations/instances/'],
			['GET', '/api/v1/products/1001', '/api/v1/products/1001/'],
			['GET', '/api/v2/whatsapp/templates/', '/api/v2/whatsapp/templates'],
			['GET', '/api/v2/whatsapp/templates/1/', '/api/v2/whatsapp/templates/1'],
			['POST', '/api/v2/whatsapp/media/', '/api/v2/whatsapp/media'],
			['POST', '/api/login_check/', '/api/login_check'],
		])(
			'E6: %s %s fails with a 404 naming the slash rule (did you mean %s)',
			async (method, path, meant) => {
				const res = await api(method, path, method === 'POST' ? {} : undefined);
				expectJsendError(res, 404, 'NOT_FOUND');
				expect(res.json.message).toMatch(/Unknown route: check the trailing slash/);
				expect(res.json.message).toContain(`did you mean "${meant}"`);
			},
		);

		it('E6: an unknown route is a 404 NOT_FOUND even without a token; a wrong method lists the allowed ones', async () => {
			const res = await call(sb, 'GET', '/api/nothing/here/');
			expectJsendError(res, 404, 'NOT_FOUND');
			expect(res.json.message).toMatch(/Unknown route/);
			const wrong = await api('DELETE', '/api/contacts/');
			expectJsendError(wrong, 404, 'NOT_FOUND');
			expect(wrong.json.message).toMatch(/allowed: .*GET/);
		});
	});

	describe('E1: JSend envelope', () => {
		it('E1: success is {status:"success", message?, data}; errors {status:"error", message, code, data}', async () => {
			const ok = await api('GET', '/api/contacts/');
			expect(ok.json.status).toBe('success');
			expect(ok.json).toHaveProperty('data');
			expect(ok.headers.get('content-type')).toMatch(/application\/json/);
			const bad = await call(sb, 'POST', '/api/contacts/', {
				token: await login(sb),
				raw: '{not json',
				headers: { 'content-type': 'application/json' },
			});
			expectJsendError(bad, 400, 'VALIDATION_ERROR');
			expect(bad.json.message).toMatch(/Invalid JSON/);
		});

		it('E1: an empty JSON body counts as no body', async () => {
			const res = await call(sb, 'POST', '/api/contacts/', {
				token: await login(sb),
				raw: '',
				headers: { 'content-type': 'application/json' },
			});
			expectJsendError(res, 422, 'VALIDATION_ERROR');
		});
	});

	describe('L3: pagination', () => {
		it('L3: contacts answer {items,total,currentPage,limit}, default limit 20, oldest first', async () => {
			const res = await api('GET', '/api/contacts/');
			expect(res.status).toBe(200);
			expect(Object.keys(res.json.data).sort()).toEqual(['currentPage', 'items', 'limit', 'total']);
			expect(res.json.data).toMatchObject({ total: 45, currentPage: 1, limit: 20 });
			expect(res.json.data.items).toHaveLength(20);
			expect(res.json.data.items[0].id).toBeLessThan(res.json.data.items[1].id);
			const last = await api('GET', '/api/contacts/?currentPage=3&page=3&limit=20');
			expect(last.json.data.items).toHaveLength(5);
			expect(last.json.data.currentPage).toBe(3);
			const beyond = await api('GET', '/api/contacts/?page=4&limit=20');
			expect(beyond.json.data.items).toEqual([]);
		});

		it('L3: page and currentPage are both accepted; currentPage wins when they differ', async () => {
			const byPage = await api('GET', '/api/contacts/?page=2&limit=10');
			expect(byPage.json.data.items[0]).toMatchObject({
				firstname: 'Bruno',
				phone: '+33610000011',
			});
			expect(byPage.json.data.currentPage).toBe(2);
			const both = await api('GET', '/api/contacts/?currentPage=3&page=1&limit=10');
			expect(both.json.data.currentPage).toBe(3);
			const page3 = await api('GET', '/api/contacts/?currentPage=3&limit=10');
			expect(both.json.data.items).toEqual(page3.json.data.items);
		});

		it('L3: limit is capped silently at maxPageSize', async () => {
			const big = await api('GET', '/api/contacts/?limit=5000');
			expect(big.json.data.limit).toBe(1000);
			expect(big.json.data.items).toHaveLength(45);
			sb.setConfig({ maxPageSize: 10 });
			try {
				const capped = await api('GET', '/api/contacts/?limit=50');
				expect(capped.json.data.limit).toBe(10);
				expect(capped.json.data.items).toHaveLength(10);
				const products = await api('GET', '/api/v1/products/?limit=50', undefined, PLUGIN);
				expect(products.json.data).toHaveLength(10);
			} finally {
				sb.setConfig({ maxPageSize: 1000 });
			}
		});

		it.each(['limit=abc', 'limit=0', 'page=-1', 'currentPage=0', 'page=1.5', 'limit='])(
			'L3: invalid pagination %s -> 400 VALIDATION_ERROR',
			async (query) => {
				const res = await api('GET', `/api/contacts/?${query}`);
				expectJsendError(res, 400, 'VALIDATION_ERROR');
				expect(res.json.data.violations[0].propertyPath).toMatch(/limit|page|currentPage/);
			},
		);

		it('L3: products are a plain array, templates {items,total}, order history {results} without total', async () => {
			const products = await api(
				'GET',
				'/api/v1/products/?currentPage=2&page=2&limit=20',
				undefined,
				PLUGIN,
			);
			expect(Array.isArray(products.json.data)).toBe(true);
			expect(products.json.data).toHaveLength(5);
			const templates = await api('GET', '/api/v2/whatsapp/templates?limit=2');
			expect(Object.keys(templates.json.data).sort()).toEqual(['items', 'total']);
			expect(templates.json.data.items).toHaveLength(2);
			expect(templates.json.data.total).toBe(3);
			const history = await api('GET', '/api/v1/order/history/?limit=2&page=2');
			expect(Object.keys(history.json.data)).toEqual(['results']);
			expect(history.json.data.results.map((o: any) => o.order_id)).toEqual([
				'ORD-1003',
				'ORD-1002',
			]);
		});

		it('L3: data is per user', async () => {
			const other = client(sb, await login(sb, OTHER));
			const res = await other('GET', '/api/contacts/');
			expect(res.json.data.total).toBe(2);
			expect((await other('GET', '/api/v2/whatsapp/templates')).json.data.total).toBe(0);
		});
	});

	it('request log: compact entries with method, url, path, userId, status, at, authorization', async () => {
		const n = sb.state.requests.length;
		await api('GET', '/api/contacts/?limit=1');
		await call(sb, 'GET', '/api/contacts/');
		const [a, b] = sb.state.requests.slice(n);
		expect(a).toEqual({
			method: 'GET',
			url: '/api/contacts/?limit=1',
			path: '/api/contacts/',
			userId: sb.state.userByName('demo@shop.test')!.id,
			status: 200,
			at: expect.any(Number),
			authorization: true,
		});
		expect(b).toMatchObject({ userId: null, status: 401, authorization: false });
	});

	it('recordRequests: false keeps no request log', async () => {
		const quiet = await start({ recordRequests: false });
		try {
			await call(quiet, 'GET', '/api/contacts/');
			expect(quiet.state.requests).toHaveLength(0);
		} finally {
			await quiet.close();
		}
	});
});
