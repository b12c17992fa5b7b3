/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-explicit-any -- test code: runs in jest, not inside n8n, and reads the emulator's JSON answers untyped */
import { client, expectJsendError, login, OTHER, PLUGIN, Sandbox, start } from './helpers';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('sandbox: products', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	beforeAll(async () => {
		sb = await start();
		api = client(sb, await login(sb));
	});
	afterAll(async () => {
		await sb.close();
	});

	it.each([
		[{}, /Missing x-api-key/],
		[{ ...PLUGIN, 'x-api-key': 'wrong' }, /Invalid x-api-key/],
		[{ ...PLUGIN, 'x-api-key': 'other-plugin-key' }, /Invalid x-api-key/],
		[
			{ 'x-api-key': PLUGIN['x-api-key'], 'x-base-uri': PLUGIN['x-base-uri'] },
			/Missing x-platform-type/,
		],
		[{ ...PLUGIN, 'x-platform-type': 'wix' }, /Invalid x-platform-type.*woocommerce/],
		[{ 'x-api-key': PLUGIN['x-api-key'], 'x-platform-type': 'custom' }, /Missing x-base-uri/],
		[{ ...PLUGIN, 'x-base-uri': 'shop.example' }, /Invalid x-base-uri/],
		[{ ...PLUGIN, 'x-base-uri': 'ftp://shop.example' }, /Invalid x-base-uri/],
	])('A5: plugin headers %j -> 403 PLUGIN_AUTH_REQUIRED (%s)', async (headers, message) => {
		const res = await api('GET', '/api/v1/products/', undefined, headers);
		expectJsendError(res, 403, 'PLUGIN_AUTH_REQUIRED');
		expect(res.json.message).toMatch(message);
		expect(res.text).not.toContain('demo-plugin-key');
	});

	it('A5: every plugin platform type is accepted', async () => {
		for (const platform of ['woocommerce', 'shopify', 'prestashop', 'magento', 'custom']) {
			const res = await api('GET', '/api/v1/products/?limit=1', undefined, {
				...PLUGIN,
				'x-platform-type': platform,
			});
			expect(res.status).toBe(200);
		}
	});

	it('V5: list is a plain array with ISO timestamps, per user', async () => {
		const res = await api('GET', '/api/v1/products/', undefined, PLUGIN);
		expect(res.json.data).toHaveLength(20);
		expect(res.json.data[0]).toMatchObject({
			id: 1001,
			name: expect.any(String),
			created_at: expect.stringMatching(ISO),
		});
		const other = client(sb, await login(sb, OTHER));
		const mine = await other('GET', '/api/v1/products/', undefined, {
			...PLUGIN,
			'x-api-key': 'other-plugin-key',
		});
		expect(mine.json.data).toEqual([]);
	});

	it('V5: create, get, partial update, delete by productId', async () => {
		const created = await api(
			'POST',
			'/api/v1/products/',
			{ id: 'P-9', name: 'Mug', price: 12.5, sku: 'MUG', color: 'blue' },
			PLUGIN,
		);
		expect(created.status).toBe(201);
		expect(created.json.data).toMatchObject({
			id: 'P-9',
			name: 'Mug',
			price: 12.5,
			sku: 'MUG',
			color: 'blue',
		});
		expect(created.json.data.created_at).toMatch(ISO);
		expect(created.json.data.updated_at).toBe(created.json.data.created_at);

		expectJsendError(
			await api('POST', '/api/v1/products/', { id: 'P-9', name: 'Again' }, PLUGIN),
			409,
			'CONFLICT',
		);
		const invalid = await api('POST', '/api/v1/products/', { price: 3 }, PLUGIN);
		expectJsendError(invalid, 422, 'VALIDATION_ERROR');
		expect(invalid.json.data.violations.map((v: any) => v.propertyPath)).toEqual(['id', 'name']);

		expect((await api('GET', '/api/v1/products/P-9/', undefined, PLUGIN)).json.data).toEqual(
			created.json.data,
		);
		await new Promise((r) => setTimeout(r, 5));
		const updated = await api('PUT', '/api/v1/products/P-9/', { price: 10, id: 'ignored' }, PLUGIN);
		expect(updated.status).toBe(200);
		expect(updated.json.data).toMatchObject({
			id: 'P-9',
			name: 'Mug',
			price: 10,
			created_at: created.json.data.created_at,
		});
		expect(updated.json.data.updated_at > created.json.data.updated_at).toBe(true);

		const deleted = await api('DELETE', '/api/v1/products/P-9/', undefined, PLUGIN);
		expect(deleted.json.data).toEqual({ id: 'P-9', deleted: true });
		expectJsendError(
			await api('GET', '/api/v1/products/P-9/', undefined, PLUGIN),
			404,
			'NOT_FOUND',
		);
		expectJsendError(
			await api('PUT', '/api/v1/products/P-9/', { price: 1 }, PLUGIN),
			404,
			'NOT_FOUND',
		);
	});

	it('V5: a seeded numeric id is reachable by its productId; no trailing slash -> 404', async () => {
		expect((await api('GET', '/api/v1/products/1001/', undefined, PLUGIN)).json.data.sku).toBe(
			'SKU-1001',
		);
		expectJsendError(
			await api('GET', '/api/v1/products/1001', undefined, PLUGIN),
			404,
			'NOT_FOUND',
		);
	});
});
