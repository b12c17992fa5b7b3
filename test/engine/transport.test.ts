import { sleep } from 'n8n-workflow';

import { Engine, pairedInputs } from '../../tools/harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

const list = (limit: number) => ({
	resource: 'contact',
	operation: 'getAll',
	returnAll: false,
	limit,
});
const listAll = { resource: 'contact', operation: 'getAll', returnAll: true };
const create = (phone: string, requestOptions: Record<string, unknown> = {}) => ({
	resource: 'contact',
	operation: 'create',
	phone,
	firstname: 'Retry',
	requestOptions,
});

type Logged = { method: string; path: string; status: number; at: number; url?: string };

/** The login route, in either spelling the document gives it. */
const LOGIN = /^\/api\/login_check\/?$/;

/**
 * Rule E6, from the API document (/work/shared/api/service-api.md, "Endpoints" and "Rules per endpoint"), not
 * from the node's route table. v1 and unversioned routes end with a slash, v2 WhatsApp routes do not. The document
 * writes the order history and the login without a slash while its own rule says v1 routes have one, so either
 * form is accepted for those two. Areas whose paths the document does not show (v2 templates "rooted at
 * /api/v2/whatsapp/templates", products "by productId") are checked by the slash rule under their root.
 */
interface DocumentEntry {
	label: string;
	method?: string;
	pattern: RegExp;
}
const exact = (method: string, path: string, eitherSlash = false): DocumentEntry => {
	const body = path
		.replace(/\/$/, '')
		.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
		.replace(/\{id\}/g, '[^/]+');
	const slash = eitherSlash ? '/?' : path.endsWith('/') ? '/' : '';
	return { label: `${method} ${path}`, method, pattern: new RegExp(`^${body}${slash}$`) };
};
const DOCUMENT_PATHS: DocumentEntry[] = [
	exact('POST', '/api/login_check', true),
	exact('POST', '/api/v1/automations/instances/'),
	exact('POST', '/api/v1/order/'),
	exact('GET', '/api/v1/order/history', true),
	exact('POST', '/api/v1/cart/'),
	exact('GET', '/api/v1/products/'),
	exact('POST', '/api/v2/whatsapp/media'),
	exact('DELETE', '/api/v2/whatsapp/media/{id}'),
	exact('POST', '/api/contacts/'),
	exact('GET', '/api/contacts/'),
	exact('POST', '/api/whatsapp/'),
	// Rooted areas: any path below the root, v2 without a trailing slash, v1 with one.
	{
		label: 'v2 template area (no trailing slash)',
		pattern: /^\/api\/v2\/whatsapp\/templates(\/[^/]+)*$/,
	},
	{
		label: 'v1 product area by productId (trailing slash)',
		pattern: /^\/api\/v1\/products\/([^/]+\/)*$/,
	},
];
const documentEntry = (method: string, path: string) =>
	DOCUMENT_PATHS.find(
		(entry) => (entry.method === undefined || entry.method === method) && entry.pattern.test(path),
	);

const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
const fileItem = () => ({
	json: {},
	binary: {
		data: {
			base64: Buffer.from('E6 header').toString('base64'),
			fileName: 'e6.txt',
			mimeType: 'text/plain',
		},
	},
});

describe("Transport rules (JSend, errors, retries, pagination), through n8n's engine", () => {
	let sandbox: Sandbox;
	let engine: Engine;
	const since = () => {
		const start = sandbox.state.requests.length;
		return (path?: string): Logged[] =>
			sandbox.state.requests
				.slice(start)
				.filter((r: Logged) => path === undefined || r.path === path);
	};

	beforeAll(async () => {
		sandbox = await startSandbox();
		engine = new Engine(credentialsFor(sandbox));
		await engine.run({ parameters: list(1) }); // log in once, so request counts below are the calls themselves
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	it('E1: an HTTP 200 whose JSend status is error fails the item', async () => {
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'jsend-error-200' });
		const result = await engine.run({ parameters: list(3), continueOnFail: true });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			code: 'INTERNAL_ERROR',
			httpCode: '200',
			serviceMessage: 'An internal error occurred while processing the request.',
		});
	});

	it('E2: a failure shows the service message, its code and the HTTP status', async () => {
		const result = await engine.run({
			parameters: {
				resource: 'customApiCall',
				operation: 'request',
				method: 'GET',
				path: '/api/v2/whatsapp/templates/999999',
			},
		});
		expect(result.error?.message).toMatch(/NOT_FOUND/);
		expect((result.error as { httpCode?: string }).httpCode).toBe('404');
	});

	it('E2: an HTML error page and a broken JSON body give readable errors, not parse exceptions', async () => {
		sandbox.faults.inject({ method: 'POST', path: '/api/contacts/', kind: 'html' });
		const html = await engine.run({ parameters: create('+4915211111111'), continueOnFail: true });
		expect(html.items[0].json.error).toMatch(/HTTP 502 with an HTML page: "502 Bad Gateway/);
		sandbox.faults.inject({ method: 'POST', path: '/api/contacts/', kind: 'malformed-json' });
		const broken = await engine.run({ parameters: create('+4915211111112'), continueOnFail: true });
		expect(broken.items[0].json.error).toMatch(/not valid JSON/);
	});

	it('E5/L1: a 429 with Retry-After in seconds is retried no sooner than asked, and succeeds', async () => {
		const calls = since();
		sandbox.faults.inject({ method: 'POST', path: '/api/contacts/', kind: '429', retryAfter: 1 });
		const result = await engine.run({ parameters: create('+4915222222221') });
		expect(result.error).toBeUndefined();
		const posts = calls('/api/contacts/');
		expect(posts.map((r) => r.status)).toEqual([429, 201]);
		expect(posts[1].at - posts[0].at).toBeGreaterThanOrEqual(1000);
		expect(
			sandbox.state.contacts.filter((c: { phone: string }) => c.phone === '+4915222222221'),
		).toHaveLength(1);
	});

	it('E5/L1: a 429 with Retry-After as an HTTP date is honoured too', async () => {
		const calls = since();
		sandbox.faults.inject({
			method: 'GET',
			path: '/api/contacts/',
			kind: '429',
			retryAfter: 2,
			retryAfterDate: true,
		});
		const result = await engine.run({ parameters: list(2) });
		expect(result.error).toBeUndefined();
		const gets = calls('/api/contacts/');
		expect(gets.map((r) => r.status)).toEqual([429, 200]);
		// An HTTP date has one-second resolution: at least 1 s, i.e. not ignored.
		expect(gets[1].at - gets[0].at).toBeGreaterThanOrEqual(1000);
	});

	it('E5/L1: a rate-limit business code in an HTTP 200 body is retried like a 429', async () => {
		const calls = since();
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'rate-limit-200' });
		const result = await engine.run({ parameters: list(2) });
		expect(result.error).toBeUndefined();
		expect(calls('/api/contacts/').map((r) => r.status)).toEqual([200, 200]);
	});

	it('L1/A3: Max Attempts counts failed attempts only: a re-login on the way leaves the retry of a 503 intact', async () => {
		const calls = since();
		sandbox.faults.inject({
			method: 'GET',
			path: '/api/contacts/',
			kind: 'expired-token-401',
			times: 1,
		});
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '503', times: 1 });
		const result = await engine.run({
			parameters: { ...list(2), requestOptions: { maxAttempts: 2 } },
		});
		expect(result.error).toBeUndefined();
		expect(calls('/api/contacts/').map((r) => r.status)).toEqual([401, 503, 200]);
	});

	it('L1: a bounded number of attempts, then an error that says it was rate limited', async () => {
		const calls = since();
		sandbox.faults.inject({
			method: 'POST',
			path: '/api/contacts/',
			kind: '429-no-retry-after',
			times: 10,
		});
		const result = await engine.run({ parameters: create('+4915233333331', { maxAttempts: 3 }) });
		expect(result.error?.message).toMatch(/^Rate limited by the service/);
		expect(result.error?.description).toMatch(/gave up after 3 attempts/);
		expect(calls('/api/contacts/')).toHaveLength(3);
	});

	it('L1: a Retry-After beyond the retry wait budget fails at once instead of waiting', async () => {
		const calls = since();
		sandbox.faults.inject({ method: 'POST', path: '/api/contacts/', kind: '429', retryAfter: 600 });
		const started = Date.now();
		const result = await engine.run({
			parameters: create('+4915233333332', { maxRetryWaitSeconds: 5 }),
		});
		expect(Date.now() - started).toBeLessThan(3000);
		expect(result.error?.description).toMatch(
			/asked to wait 10 min, more than the [\d.]+ s of retry budget left/,
		);
		expect(calls('/api/contacts/')).toHaveLength(1);
	});

	it('L1: 502/503/504 and connection resets are retried on a safe GET', async () => {
		const calls = since();
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '503' });
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'reset' });
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '504' });
		const result = await engine.run({ parameters: list(2) });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(calls('/api/contacts/').map((r) => r.status)).toEqual([503, 0, 504, 200]);
	});

	it('L1/A1: a login answered 429 (Retry-After) or 503 is tried again like any request, and the item is answered', async () => {
		for (const kind of ['429', '503'] as const) {
			const calls = since();
			sandbox.faults.inject({ method: 'POST', path: LOGIN, kind, retryAfter: 1 });
			const result = await new Engine(credentialsFor(sandbox)).run({ parameters: list(2) });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(2);
			expect(
				calls()
					.filter((r) => LOGIN.test(r.path))
					.map((r) => r.status),
			).toEqual([Number(kind), 200]);
		}
	});

	it("L1/A1/E5: a login refused with the service's rate-limit code in an HTTP 200 is tried again too", async () => {
		const calls = since();
		sandbox.faults.inject({ method: 'POST', path: LOGIN, kind: 'rate-limit-200' });
		const result = await new Engine(credentialsFor(sandbox)).run({ parameters: list(2) });
		expect(result.error).toBeUndefined();
		expect(calls().filter((r) => LOGIN.test(r.path))).toHaveLength(2);
	});

	it('L1/A1: a login the service keeps rate limiting fails as a rate limit, not as a credential to check', async () => {
		sandbox.faults.inject({ method: 'POST', path: LOGIN, kind: '429-no-retry-after', times: 5 });
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: { ...list(2), requestOptions: { maxAttempts: 2 } },
		});
		expect(result.error?.message).toMatch(
			/^Login to the Commerce Messaging service failed: .*HTTP 429/,
		);
		expect(result.error?.description).toMatch(
			/not a problem of the credential\. It was sent 2 times/,
		);
		expect(result.error?.description).not.toMatch(/Check the username/);
	});

	it('L1: a DELETE whose first attempt the service applied without answering in time is done when its retry finds nothing', async () => {
		const userId = sandbox.state.userByName('demo@shop.test').id;
		/** Runs a delete whose first attempt the service applies (`apply`) but never answers: the retry finds nothing. */
		const deleteApplied = async (path: string, apply: () => void, parameters: object) => {
			sandbox.faults.inject({ method: 'DELETE', path, kind: 'hang' });
			const calls = since();
			const running = engine.run({
				parameters: { ...parameters, requestOptions: { timeoutSeconds: 1 } },
			});
			while (calls(path).length === 0) await sleep(5);
			apply();
			const result = await running;
			return { result, statuses: calls(path).map((r) => r.status) };
		};
		const template = sandbox.state.addTemplate(
			userId,
			{ name: 'deleted_unanswered', language: 'en', body: 'Hi' },
			'DRAFT',
			new Date().toISOString(),
		);
		const templateId = { __rl: true, mode: 'id', value: String(template.id) };
		const { result, statuses } = await deleteApplied(
			`/api/v2/whatsapp/templates/${template.id}`,
			() => sandbox.state.templates.delete(template.id),
			{ resource: 'template', operation: 'delete', templateId },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([
			{ id: String(template.id), deleted: true },
		]);
		// The first attempt got no answer (the emulator logs it unanswered); the retry found the template gone.
		expect(statuses).toEqual([0, 404]);
		// Without an earlier attempt that may have applied it, a DELETE that finds nothing is an error.
		const again = await engine.run({
			parameters: { resource: 'template', operation: 'delete', templateId },
		});
		expect(again.error?.httpCode).toBe('404');
		// A product's delete says which product is gone, whatever the answer holds; the retry counts as done.
		const products = sandbox.state.productsOf(userId);
		products.set('DEL-RETRY-1', { id: 'DEL-RETRY-1', name: 'Gone twice' });
		const product = await deleteApplied(
			'/api/v1/products/DEL-RETRY-1/',
			() => products.delete('DEL-RETRY-1'),
			{
				resource: 'product',
				operation: 'delete',
				productId: { __rl: true, mode: 'id', value: 'DEL-RETRY-1' },
			},
		);
		expect(product.result.items.map((item) => item.json)).toEqual([
			{ id: 'DEL-RETRY-1', deleted: true },
		]);
		expect(product.statuses).toEqual([0, 404]);
	});

	it('L1: a POST is not repeated after a reset or a 503, since the service may have processed it', async () => {
		const calls = since();
		sandbox.faults.inject({ method: 'POST', path: '/api/contacts/', kind: 'reset' });
		const reset = await engine.run({ parameters: create('+4915244444441'), continueOnFail: true });
		expect(reset.items[0].json.error).toMatch(/connection to the service failed/);
		expect(reset.items[0].json.description).toMatch(/Not retried automatically/);
		sandbox.faults.inject({ method: 'POST', path: '/api/contacts/', kind: '503' });
		const unavailable = await engine.run({
			parameters: create('+4915244444442'),
			continueOnFail: true,
		});
		expect(unavailable.items[0].json).toMatchObject({
			code: 'SERVICE_UNAVAILABLE',
			httpCode: '503',
			description: expect.stringMatching(
				/^Not retried automatically: the service may already have processed/,
			),
		});
		expect(calls('/api/contacts/')).toHaveLength(2);
	});

	it('L1: retries of one item never cost another item its answer', async () => {
		sandbox.faults.inject({
			method: 'POST',
			path: '/api/contacts/',
			kind: '429',
			retryAfter: 1,
			times: 2,
		});
		const result = await engine.run({
			parameters: { ...create('={{ $json.phone }}') },
			items: [
				{ json: { phone: '+4915255555551' } },
				{ json: { phone: '+4915255555552' } },
				{ json: { phone: '+4915255555553' } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
	});

	it('L3: a Limit asks only the records it needs, with currentPage, page and limit', async () => {
		const calls = since();
		const result = await engine.run({ parameters: list(7) });
		expect(result.items).toHaveLength(7);
		const gets = calls('/api/contacts/');
		expect(gets).toHaveLength(1);
		const query = new URL(`http://x${gets[0].url}`).searchParams;
		expect([query.get('currentPage'), query.get('page'), query.get('limit')]).toEqual([
			'1',
			'1',
			'7',
		]);
	});

	it('L3: Return All pages to the end, even when the service caps the page size below ours', async () => {
		sandbox.setConfig({ maxPageSize: 10 });
		try {
			const calls = since();
			const total = (await engine.run({ parameters: listAll })).items;
			const ids = total.map((item) => item.json.id);
			expect(new Set(ids).size).toBe(ids.length);
			expect(ids.length).toBeGreaterThanOrEqual(45);
			const pages = calls('/api/contacts/').map((r) =>
				new URL(`http://x${r.url}`).searchParams.get('page'),
			);
			expect(pages.slice(0, 3)).toEqual(['1', '2', '3']);
			expect(pages.length).toBe(Math.ceil(ids.length / 10));
		} finally {
			sandbox.setConfig({ maxPageSize: 1000 });
		}
	});

	it('L3: a Limit spanning pages stops exactly at the limit', async () => {
		sandbox.setConfig({ maxPageSize: 10 });
		try {
			const calls = since();
			const result = await engine.run({ parameters: list(25) });
			expect(result.items).toHaveLength(25);
			expect(calls('/api/contacts/')).toHaveLength(3);
		} finally {
			sandbox.setConfig({ maxPageSize: 1000 });
		}
	});

	it('L3: a list without a total is read to its end even when the service caps the page size below ours', async () => {
		sandbox.setConfig({ maxPageSize: 10 });
		try {
			const calls = since();
			const products = await engine.run({
				parameters: { resource: 'product', operation: 'getAll', returnAll: true },
			});
			expect(products.error).toBeUndefined();
			const ids = products.items.map((item) => item.json.id);
			expect(new Set(ids).size).toBe(25);
			// 10 + 10 + 5: the short third page ends the list (shorter than the longest page served)
			expect(calls('/api/v1/products/')).toHaveLength(3);
		} finally {
			sandbox.setConfig({ maxPageSize: 1000 });
		}
	});

	it('L3: a service that ignores the page parameter is stopped with an error, not looped forever', async () => {
		sandbox.setConfig({ maxPageSize: 10 });
		try {
			sandbox.faults.inject({
				method: 'GET',
				path: '/api/contacts/',
				kind: 'ignore-page',
				times: 1000,
			});
			const calls = since();
			// Pages one by one (side by side, the window the total allows is asked first: test/engine/paging.test.ts).
			const result = await engine.run({
				parameters: { ...listAll, requestOptions: { concurrency: 1 } },
			});
			expect(result.error?.message).toMatch(/same records for page 2 as for page 1/);
			expect(calls('/api/contacts/')).toHaveLength(2);
		} finally {
			sandbox.setConfig({ maxPageSize: 1000 });
		}
	});

	it('E6: every path the node requests is a path of the API document, with its trailing-slash rule', async () => {
		const node = new Engine(credentialsFor(sandbox)); // a fresh engine, so the login is requested too
		const demoId = sandbox.state.userByName('demo@shop.test').id;
		const automationId = () =>
			([...sandbox.state.automations.values()] as Array<{ id: number; userId: number }>).find(
				(a) => a.userId === demoId,
			)?.id;
		const from = sandbox.state.requests.length;
		const runs: Array<[string, Parameters<Engine['run']>[0]]> = [
			['contact create', { parameters: create('+4915266666661') }],
			['contact list', { parameters: list(2) }],
			[
				'message',
				{
					parameters: {
						resource: 'message',
						operation: 'send',
						phone: '+4915266666662',
						message: 'E6',
					},
				},
			],
			[
				'order event',
				{
					parameters: {
						resource: 'order',
						operation: 'pushEvent',
						orderId: 'E6-ORD-1',
						status: 'paid',
					},
				},
			],
			[
				'order history',
				{ parameters: { resource: 'order', operation: 'getHistory', returnAll: false, limit: 2 } },
			],
			[
				'cart',
				{
					parameters: {
						resource: 'cart',
						operation: 'pushAbandoned',
						cartId: 'E6-CART-1',
						total: 12.5,
					},
				},
			],
			[
				'automation',
				{
					parameters: {
						resource: 'automation',
						operation: 'createInstance',
						automationId: automationId(),
						payload: '{}',
					},
				},
			],
			[
				'product list',
				{ parameters: { resource: 'product', operation: 'getAll', returnAll: false, limit: 2 } },
			],
			[
				'product create',
				{ parameters: { resource: 'product', operation: 'create', id: 'E6-1', name: 'E6 mug' } },
			],
			[
				'product get',
				{ parameters: { resource: 'product', operation: 'get', productId: byId('E6-1') } },
			],
			[
				'product update',
				{
					parameters: {
						resource: 'product',
						operation: 'update',
						productId: byId('E6-1'),
						updateFields: { name: 'E6 cup' },
					},
				},
			],
			[
				'product delete',
				{ parameters: { resource: 'product', operation: 'delete', productId: byId('E6-1') } },
			],
			[
				'media upload',
				{
					parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
					items: [fileItem()],
				},
			],
		];
		const outputs: Record<string, Array<{ json: Record<string, unknown> }>> = {};
		const run = async (name: string, spec: Parameters<Engine['run']>[0]) => {
			const result = await node.run(spec);
			expect([name, result.error?.message]).toEqual([name, undefined]);
			outputs[name] = result.items;
		};
		for (const [name, spec] of runs) await run(name, spec);
		await run('media delete', {
			parameters: {
				resource: 'media',
				operation: 'delete',
				mediaId: String(outputs['media upload'][0].json.media_id),
			},
		});
		await run('template create', {
			parameters: {
				resource: 'template',
				operation: 'create',
				name: 'e6_paths',
				language: 'en',
				category: 'UTILITY',
				body: 'Hi {{1}}',
			},
		});
		const templateId = byId(outputs['template create'][0].json.id);
		await run('template submit', {
			parameters: { resource: 'template', operation: 'submit', templateId },
		});
		sandbox.approveNow(Number(templateId.value));
		await run('template get', {
			parameters: { resource: 'template', operation: 'get', templateId },
		});
		await run('template list', {
			parameters: { resource: 'template', operation: 'getAll', returnAll: false, limit: 1 },
		});
		await run('template send', {
			parameters: {
				resource: 'template',
				operation: 'send',
				templateId,
				phone: '+4915266666663',
				variables: { mappingMode: 'defineBelow', value: { 'body:1': 'Ada' } },
			},
		});
		await run('template delete', {
			parameters: { resource: 'template', operation: 'delete', templateId },
		});

		const requested = (sandbox.state.requests as Logged[])
			.slice(from)
			.map((r) => ({ method: r.method, path: r.path }));
		const misplaced = requested.filter((r) => documentEntry(r.method, r.path) === undefined);
		expect(misplaced).toEqual([]);
		// And the node really went through every path of the document (so this test covers them).
		const used = new Set(requested.map((r) => documentEntry(r.method, r.path)?.label));
		expect(DOCUMENT_PATHS.map((entry) => entry.label).filter((label) => !used.has(label))).toEqual(
			[],
		);
	});

	it('E6: the emulator refuses a wrong slash, so a wrong route in the table fails the tests', async () => {
		const response = await fetch(`${sandbox.url}/api/contacts`, {
			headers: { Authorization: `Bearer ${String(engine.storedCredentials.sessionToken)}` },
		});
		expect(response.status).toBe(404);
		expect(((await response.json()) as { message: string }).message).toMatch(/slash/i);
	});
});
