import { Engine, pairedInputs } from '../../tools/harness/engine';
import { listSearch } from '../../tools/harness/listSearch';
import {
	credentialsFor,
	DEMO,
	OTHER,
	startSandbox,
	type Sandbox,
} from '../../tools/harness/sandbox';

type Product = Record<string, unknown> & { id: string | number; name: string };

describe("Product, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	let demoProducts: Map<string, Product>;
	let otherProducts: Map<string, Product>;
	const requestsSince = (start: number) =>
		sandbox.state.requests.slice(start) as Array<{
			method: string;
			path: string;
			url: string;
			status: number;
		}>;

	beforeAll(async () => {
		sandbox = await startSandbox();
		demoProducts = sandbox.state.productsOf(sandbox.state.userByName(DEMO.username).id);
		otherProducts = sandbox.state.productsOf(sandbox.state.userByName(OTHER.username).id);
		// A catalogue larger than one page of 100 (the page size the emulator serves in the Return All test).
		for (let i = 1; i <= 230; i++) {
			const at = new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString();
			otherProducts.set(`BIG-${i}`, {
				id: `BIG-${i}`,
				name: `Bulk item ${i}`,
				created_at: at,
				updated_at: at,
			});
		}
	});
	afterAll(async () => await sandbox.close());

	it("V5/A5: create, get, update and delete a product, checked in the emulator's store", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const created = await engine.run({
			parameters: {
				resource: 'product',
				operation: 'create',
				id: 'MUG-42',
				name: 'Mug blue',
				additionalFields: {
					price: '={{ $json.price }}',
					sku: 'MUG-BLU',
					customFields: { field: [{ name: 'stock', value: '12' }] },
				},
			},
			items: [{ json: { price: '12.90' } }],
		});
		expect(created.error).toBeUndefined();
		expect(created.items[0].json).toMatchObject({
			id: 'MUG-42',
			name: 'Mug blue',
			price: 12.9,
			sku: 'MUG-BLU',
			stock: '12',
		});
		expect(demoProducts.get('MUG-42')).toMatchObject({
			id: 'MUG-42',
			name: 'Mug blue',
			price: 12.9,
			sku: 'MUG-BLU',
		});

		const byId = { __rl: true, mode: 'id', value: 'MUG-42' };
		const fetched = await engine.run({
			parameters: { resource: 'product', operation: 'get', productId: byId },
		});
		expect(fetched.items.map((item) => item.json)).toEqual([demoProducts.get('MUG-42')]);

		const updated = await engine.run({
			parameters: {
				resource: 'product',
				operation: 'update',
				productId: byId,
				updateFields: { price: 9.5, name: 'Mug navy' },
			},
		});
		expect(updated.error).toBeUndefined();
		expect(updated.items[0].json).toMatchObject({
			id: 'MUG-42',
			name: 'Mug navy',
			price: 9.5,
			sku: 'MUG-BLU',
		});
		expect(demoProducts.get('MUG-42')).toMatchObject({
			name: 'Mug navy',
			price: 9.5,
			sku: 'MUG-BLU',
			stock: '12',
		});

		const deleted = await engine.run({
			parameters: {
				resource: 'product',
				operation: 'delete',
				productId: { __rl: true, mode: 'list', value: 'MUG-42' },
			},
		});
		expect(deleted.items[0].json).toEqual({ id: 'MUG-42', deleted: true });
		expect(demoProducts.has('MUG-42')).toBe(false);
		// Four runs of one saved workflow: one login, the token reused (A3).
		expect(engine.logins).toBe(1);
	});

	it("V5: create refuses an existing productId with the service's CONFLICT answer", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: { resource: 'product', operation: 'create', id: '1001', name: 'Duplicate' },
		});
		expect(result.error?.message).toMatch(/Product 1001 already exists/);
		expect(result.error?.message).toMatch(/\[CONFLICT\]/);
		expect(result.error?.httpCode).toBe('409');
		expect(demoProducts.get('1001')?.name).not.toBe('Duplicate');
	});

	it('V5/L3: Get Many with Return All walks every page and outputs one item per product', async () => {
		const engine = new Engine(credentialsFor(sandbox, OTHER));
		const start = sandbox.state.requests.length;
		// The service serves at most 100 per page here, fewer than the node asks: the list has no total, so the
		// node reads on until a page is shorter than the longest one served.
		sandbox.setConfig({ maxPageSize: 100 });
		const result = await engine
			.run({ parameters: { resource: 'product', operation: 'getAll', returnAll: true } })
			.finally(() => sandbox.setConfig({ maxPageSize: 1000 }));
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(230);
		expect(result.items.map((item) => item.json.id)).toEqual([...otherProducts.keys()]);
		expect(pairedInputs(result)).toEqual([0]);
		const pages = requestsSince(start).filter((r) => r.path === '/api/v1/products/');
		expect(pages.map((r) => new URL(r.url, sandbox.url).searchParams.get('page'))).toEqual([
			'1',
			'2',
			'3',
		]);
		expect(pages.every((r) => r.status === 200)).toBe(true);
	});

	it('V5/L3: Get Many with a Limit returns exactly that many and asks for no more', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: { resource: 'product', operation: 'getAll', returnAll: false, limit: 7 },
		});
		expect(result.items.map((item) => item.json.id)).toEqual([
			1001, 1002, 1003, 1004, 1005, 1006, 1007,
		]);
		const pages = requestsSince(start).filter((r) => r.path === '/api/v1/products/');
		expect(pages).toHaveLength(1);
		expect(new URL(pages[0].url, sandbox.url).searchParams.get('limit')).toBe('7');
	});

	it("V5/E2: a missing product is the service's 404 with its message and code", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'product',
				operation: 'get',
				productId: { __rl: true, mode: 'id', value: 'NOPE-1' },
			},
		});
		expect(result.error?.message).toBe('Product NOPE-1 not found. [NOT_FOUND]');
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.context?.itemIndex).toBe(0);
	});

	it('V5/E2: with Continue On Fail a missing product is an error item paired to its input, the others go through', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'product',
				operation: 'get',
				productId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
			items: [{ json: { id: 1003 } }, { json: { id: 'gone' } }, { json: { id: 1004 } }],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
		expect(result.items[0].json.id).toBe(1003);
		expect(result.items[1].json).toMatchObject({
			code: 'NOT_FOUND',
			httpCode: '404',
			serviceMessage: 'Product gone not found.',
		});
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
		expect(result.items[2].json.id).toBe(1004);
	});

	it('A5: without the plugin fields the request is still sent (a JWT may do), and the refusal names the fields to fill', async () => {
		const engine = new Engine(credentialsFor(sandbox, DEMO, { pluginIntegration: false }));
		const start = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: { resource: 'product', operation: 'getAll', returnAll: true },
		});
		expect(result.error?.message).toMatch(
			/requires the shop plugin headers .*Missing x-api-key.*\[PLUGIN_AUTH_REQUIRED\]/,
		);
		expect(result.error?.description).toMatch(
			/Fill in Plugin Integration \(switch it on\), Plugin API Key, Platform Type, Shop Base URI/,
		);
		expect(
			requestsSince(start)
				.filter((r) => r.path === '/api/v1/products/')
				.map((r) => r.status),
		).toEqual([403]);

		const partial = new Engine(credentialsFor(sandbox, DEMO, { pluginBaseUri: '  ' }));
		const second = await partial.run({
			parameters: {
				resource: 'product',
				operation: 'get',
				productId: { __rl: true, mode: 'id', value: '1001' },
			},
		});
		expect(second.error?.description).toMatch(
			/Fill in Shop Base URI in the Commerce Messaging credential/,
		);
	});

	it("A5/A6: a wrong plugin key gets the service's PLUGIN_AUTH_REQUIRED answer, and the key is not echoed", async () => {
		const engine = new Engine(credentialsFor(sandbox, { ...DEMO, pluginKey: 'not-the-real-key' }));
		const result = await engine.run({
			parameters: { resource: 'product', operation: 'getAll', returnAll: false, limit: 1 },
		});
		expect(result.error?.message).toMatch(/Invalid x-api-key header.*\[PLUGIN_AUTH_REQUIRED\]/);
		expect(result.error?.httpCode).toBe('403');
		expect(
			JSON.stringify({ message: result.error?.message, description: result.error?.description }),
		).not.toContain('not-the-real-key');
	});

	it('V5: bad input costs no call: an update without fields, a price that is not a number, an empty product', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const noFields = await engine.run({
			parameters: {
				resource: 'product',
				operation: 'update',
				productId: { __rl: true, mode: 'id', value: '1001' },
				updateFields: { sku: '' },
			},
		});
		expect(noFields.error?.message).toBe('Item 0: nothing to update for product "1001"');
		expect(noFields.error?.description).toMatch(/Update Fields/);

		const badPrice = await engine.run({
			parameters: {
				resource: 'product',
				operation: 'create',
				id: 'X-1',
				name: 'X',
				additionalFields: { price: '={{ $json.price }}' },
			},
			items: [{ json: { price: '12,90' } }],
		});
		expect(badPrice.error?.message).toBe('Item 0: the price "12,90" is not a decimal number');

		const noProduct = await engine.run({
			parameters: {
				resource: 'product',
				operation: 'delete',
				productId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
			items: [{ json: {} }],
		});
		expect(noProduct.error?.message).toBe('Item 0: the product ID is empty');
		expect(requestsSince(start)).toEqual([]);
		expect(demoProducts.has('X-1')).toBe(false);
	});

	it('V5/A5: the product picker lists "name (id)" for every product and filters by the typed text', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const all = await listSearch(engine, 'productSearch');
		expect(all.results).toHaveLength(demoProducts.size);
		expect(all.results[0]).toEqual({ name: 'T-shirt black (1001)', value: '1001' });

		const hoodies = await listSearch(engine, 'productSearch', '  HOODIE ');
		expect(hoodies.results.map((r) => r.name)).toEqual([
			'Hoodie black (1002)',
			'Hoodie white (1007)',
			'Hoodie navy (1012)',
			'Hoodie red (1017)',
			'Hoodie green (1022)',
		]);
		expect((await listSearch(engine, 'productSearch', 'sku-1010')).results).toEqual([
			{ name: 'Backpack white (1010)', value: '1010' },
		]);
		expect((await listSearch(engine, 'productSearch', 'no such thing')).results).toEqual([]);
		expect(engine.logins).toBe(1);
	});

	it('V5/L3: the product picker pages through the whole catalogue, not only the first page', async () => {
		const engine = new Engine(credentialsFor(sandbox, OTHER));
		const start = sandbox.state.requests.length;
		sandbox.setConfig({ maxPageSize: 100 }); // pages of 100 served: the 230 products span three
		const found = await listSearch(engine, 'productSearch', 'bulk item 23').finally(() =>
			sandbox.setConfig({ maxPageSize: 1000 }),
		);
		expect(found.results.map((r) => r.value)).toEqual(['BIG-23', 'BIG-230']);
		expect(requestsSince(start).filter((r) => r.path === '/api/v1/products/')).toHaveLength(3);
	});

	it('A5: the product picker without plugin fields, refused by the service, says which fields to fill in', async () => {
		const engine = new Engine(credentialsFor(sandbox, DEMO, { pluginIntegration: false }));
		const start = sandbox.state.requests.length;
		await expect(listSearch(engine, 'productSearch')).rejects.toThrow(
			/fill in Plugin Integration \(switch it on\), Plugin API Key, Platform Type, Shop Base URI/,
		);
		expect(
			requestsSince(start)
				.filter((r) => r.path === '/api/v1/products/')
				.map((r) => r.status),
		).toEqual([403]);
	});
});
