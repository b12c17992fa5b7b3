/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { sleep } from 'n8n-workflow';

import { Engine, pairedInputs } from '../../tools/harness/engine';
import { isLoginRequest, startHostile } from '../../tools/harness/hostile';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

type LoggedRequest = {
	method: string;
	path: string;
	url: string;
	status: number;
	at: number;
	userId: unknown;
	authorization: boolean;
	fault?: string;
};

const call = (parameters: Record<string, unknown>) => ({
	resource: 'customApiCall',
	operation: 'request',
	...parameters,
});

describe("Custom API Call, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	let demoId: number;
	const requestsSince = (start: number) => sandbox.state.requests.slice(start) as LoggedRequest[];

	beforeAll(async () => {
		sandbox = await startSandbox();
		demoId = sandbox.state.userByName(DEMO.username).id;
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	/** An engine that has already logged in, so a fault injected next hits the call under test, not the login. */
	async function loggedInEngine(): Promise<Engine> {
		const engine = new Engine(credentialsFor(sandbox));
		const warmUp = await engine.run({
			parameters: call({ method: 'GET', path: '/api/v1/products/1001/' }),
		});
		expect(warmUp.error).toBeUndefined();
		return engine;
	}

	it('X1/E1: a GET outputs the JSend data unwrapped, with the query parameters sent', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: call({
				method: 'GET',
				path: '/api/contacts/',
				queryParameters: {
					parameter: [
						{ name: 'limit', value: '5' },
						{ name: 'currentPage', value: '2' },
						{ name: 'page', value: '2' },
					],
				},
			}),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const data = result.items[0].json as {
			items: Array<{ id: number }>;
			total: number;
			status?: unknown;
		};
		expect(data.status).toBeUndefined();
		expect(data.items).toHaveLength(5);
		expect(data.items[0].id).toBe(sandbox.state.contacts[5].id);
		expect(data.total).toBeGreaterThanOrEqual(45);
		const sent = requestsSince(start).filter(
			(r) => r.method === 'GET' && r.path === '/api/contacts/',
		);
		const query = new URL(sent[sent.length - 1].url, sandbox.url).searchParams;
		expect([query.get('limit'), query.get('currentPage'), query.get('page')]).toEqual([
			'5',
			'2',
			'2',
		]);
	});

	it('X1/L3: with Paginate and Return All, every page is fetched and each record is an item', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const mine = sandbox.state.contacts.filter((c: { userId: number }) => c.userId === demoId);
		const all = await engine.run({
			parameters: call({ method: 'GET', path: '/api/contacts/', paginate: true, returnAll: true }),
		});
		expect(all.items.map((item) => item.json.id)).toEqual(mine.map((c: { id: number }) => c.id));
		expect(pairedInputs(all)).toEqual([0]);
		const limited = await engine.run({
			parameters: call({
				method: 'GET',
				path: '/api/contacts/',
				paginate: true,
				returnAll: false,
				limit: 3,
			}),
		});
		expect(limited.items.map((item) => item.json.id)).toEqual(
			mine.slice(0, 3).map((c: { id: number }) => c.id),
		);
		const pages = requestsSince(start).filter((r) => r.path === '/api/contacts/');
		expect(new URL(pages[pages.length - 1].url, sandbox.url).searchParams.get('limit')).toBe('3');
	});

	it('X1/A2: a POST sends its body as JSON with the same bearer login, and Full Envelope keeps status and data', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const loginsBefore = sandbox.state.logins.length;
		const result = await engine.run({
			parameters: call({
				method: 'POST',
				path: '/api/contacts/',
				jsonBody:
					'={{ JSON.stringify({ firstname: $json.name, phone: $json.phone, tags: ["custom"] }) }}',
				options: { response: 'envelope' },
			}),
			items: [
				{ json: { name: 'Grace', phone: '+4915199999901' } },
				{ json: { name: 'Alan', phone: '+4915199999902' } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.status)).toEqual(['success', 'success']);
		expect(result.items.map((item) => (item.json.data as { firstname: string }).firstname)).toEqual(
			['Grace', 'Alan'],
		);
		expect(pairedInputs(result)).toEqual([0, 1]);
		const stored = sandbox.state.contacts.find(
			(c: { phone: string }) => c.phone === '+4915199999901',
		);
		expect(stored).toMatchObject({ firstname: 'Grace', tags: ['custom'] });
		expect(stored.userId).toBe(demoId);

		const sent = requestsSince(start);
		expect(sent.filter((r) => r.path === '/api/login_check')).toHaveLength(1);
		const posts = sent.filter((r) => r.method === 'POST' && r.path === '/api/contacts/');
		expect(posts).toHaveLength(2);
		expect(
			posts.every(
				(r) => r.method === 'POST' && r.authorization && r.userId === demoId && r.status === 201,
			),
		).toBe(true);
		expect(sandbox.state.logins.length - loginsBefore).toBe(1);
		expect(engine.logins).toBe(1);
	});

	it("X1/A5: the credential's plugin headers go with custom calls too, so a product path works", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: call({ method: 'GET', path: '/api/v1/products/1001/' }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ id: 1001, sku: 'SKU-1001' });
	});

	it('X1/L1/E5: a 429 with Retry-After on a custom path is waited out and retried', async () => {
		const engine = await loggedInEngine();
		const start = sandbox.state.requests.length;
		sandbox.faults.inject({
			method: 'GET',
			path: '/api/contacts/',
			kind: '429',
			retryAfter: 1,
			times: 1,
		});
		const result = await engine.run({
			parameters: call({ method: 'GET', path: '/api/contacts/' }),
		});
		expect(result.error).toBeUndefined();
		expect((result.items[0].json.items as unknown[]).length).toBeGreaterThan(0);
		const tries = requestsSince(start).filter((r) => r.path === '/api/contacts/');
		expect(tries.map((r) => r.status)).toEqual([429, 200]);
		expect(engine.logins).toBe(1);
		expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(1000);
	});

	it('X1/E1: an HTTP 200 whose JSend status is error is a failure with the service message and code', async () => {
		const engine = await loggedInEngine();
		sandbox.faults.inject({
			method: 'GET',
			path: '/api/contacts/',
			kind: 'jsend-error-200',
			times: 1,
		});
		const result = await engine.run({
			parameters: call({ method: 'GET', path: '/api/contacts/' }),
		});
		expect(result.error?.message).toBe(
			'An internal error occurred while processing the request. [INTERNAL_ERROR]',
		);
	});

	it('X1: a POST whose connection is reset is not sent again (it may have been processed); a GET is', async () => {
		const engine = await loggedInEngine();
		const start = sandbox.state.requests.length;
		const before = sandbox.state.contacts.length;
		sandbox.faults.inject({ method: 'POST', path: '/api/contacts/', kind: 'reset', times: 1 });
		const post = await engine.run({
			parameters: call({
				method: 'POST',
				path: '/api/contacts/',
				jsonBody: '{"firstname": "Once", "phone": "+4915199999903"}',
			}),
		});
		expect(post.error?.message).toMatch(/connection/);
		expect(post.error?.description).toMatch(/Not retried automatically/);
		expect(
			requestsSince(start).filter((r) => r.path === '/api/contacts/' && r.method === 'POST'),
		).toHaveLength(1);
		expect(sandbox.state.contacts.length).toBe(before);

		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'reset', times: 1 });
		const get = await engine.run({ parameters: call({ method: 'GET', path: '/api/contacts/' }) });
		expect(get.error).toBeUndefined();
		expect(
			requestsSince(start).filter((r) => r.path === '/api/contacts/' && r.method === 'GET'),
		).toHaveLength(2);
	});

	it.each([
		['https://evil.example.com/x', /it is a full URL/],
		['//evil.example.com/x', /it would leave the service/],
		['/\\evil.example.com/x', /it would leave the service/],
		['api/contacts/', /it must start with \//],
		['/api/../../x', /must not contain \. or \.\. segments/],
		['/api/%2e%2e/x', /must not contain \. or \.\. segments/],
		['/api/contacts/\r\nX-Injected: 1', /spaces or control characters/],
		['/api/contacts/\u0000', /spaces or control characters/],
		['/api/contacts/\u001b[0m', /spaces or control characters/],
		['/api/contacts/\u007f', /spaces or control characters/],
	])(
		'X1/A6: the path %j is refused before any request, so the token never leaves the service',
		async (path, reason) => {
			const engine = new Engine(credentialsFor(sandbox));
			const start = sandbox.state.requests.length;
			const result = await engine.run({
				parameters: call({ method: 'GET', path: '={{ $json.path }}' }),
				items: [{ json: { path } }],
			});
			expect(result.error?.message).toMatch(/^Item 0: the path ".*" is refused: /s);
			expect(result.error?.message).toMatch(reason);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(requestsSince(start)).toEqual([]);
			expect(engine.logins).toBe(0);
		},
	);

	it("X1/E6: a wrong trailing slash gets the service's 404 message and code", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({ parameters: call({ method: 'GET', path: '/api/contacts' }) });
		expect(result.error?.message).toMatch(
			/No route found for "GET \/api\/contacts"\..*check the trailing slash.*did you mean "\/api\/contacts\/"\?/,
		);
		expect(result.error?.message).toMatch(/\[NOT_FOUND\]$/);
		expect(result.error?.httpCode).toBe('404');
	});

	it('X1: braces in a path are sent encoded, never read as a placeholder', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: call({ method: 'GET', path: '/api/v1/products/{id}/' }),
		});
		expect(result.error?.message).toMatch(/\[NOT_FOUND\]/);
		expect(requestsSince(start).map((r) => r.path)).toContain('/api/v1/products/%7Bid%7D/');
	});

	it('X1: a JSON body that is not an object or array or not JSON at all, or an unknown method, is refused before any request', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const text = await engine.run({
			parameters: call({ method: 'POST', path: '/api/contacts/', jsonBody: '"hello"' }),
		});
		expect(text.error?.message).toBe(
			'Item 0: the JSON body must be a JSON object or array, not a string',
		);
		const broken = await engine.run({
			parameters: call({ method: 'PUT', path: '/api/contacts/', jsonBody: '{"a": }' }),
		});
		expect(broken.error?.message).toBe('Item 0: the JSON body is not valid JSON');
		const method = await engine.run({
			parameters: call({ method: '={{ "TRACE" }}', path: '/api/contacts/' }),
		});
		expect(method.error?.message).toBe('Item 0: the method "TRACE" is not supported');
		expect(requestsSince(start)).toEqual([]);
	});

	it('X1: a query parameter given twice is refused before any request: one of its values would be lost', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: call({
				method: 'GET',
				path: '/api/contacts/',
				queryParameters: {
					parameter: [
						{ name: 'tag', value: 'a' },
						{ name: 'tag', value: 'b' },
					],
				},
			}),
		});
		expect(result.error?.message).toBe('Item 0: the query parameter "tag" is given twice');
		expect(requestsSince(start)).toHaveLength(0);
	});

	it('X1: a query parameter with a value and no name is refused before any request; an empty row is left out', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const run = async (parameter: Array<Record<string, unknown>>) =>
			await engine.run({
				parameters: call({ method: 'GET', path: '/api/contacts/', queryParameters: { parameter } }),
			});
		const named = await run([{ name: ' ', value: 'vip' }]);
		expect(named.error?.message).toBe('Item 0: the query parameter name is empty');
		expect(requestsSince(start)).toHaveLength(0);
		const empty = await run([{ name: '', value: '' }]);
		expect(empty.error).toBeUndefined();
		expect(requestsSince(start).map((request) => request.url)).toContain('/api/contacts/');
	});

	it('X1/L3: with Paginate, a page, currentPage or limit query parameter is refused before any request: Paginate sets them', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		for (const name of ['page', 'currentPage', 'limit']) {
			const result = await engine.run({
				parameters: call({
					method: 'GET',
					path: '/api/contacts/',
					paginate: true,
					returnAll: true,
					queryParameters: { parameter: [{ name, value: '3' }] },
				}),
			});
			expect(result.error?.message).toBe(
				`Item 0: the query parameter "${name}" is set by Paginate`,
			);
			// Written into the path, too.
			const inPath = await engine.run({
				parameters: call({
					method: 'GET',
					path: `/api/contacts/?${name}=3`,
					paginate: true,
					returnAll: true,
				}),
			});
			expect(inPath.error?.message).toBe(
				`Item 0: the query parameter "${name}" is set by Paginate`,
			);
		}
		const twice = await engine.run({
			parameters: call({
				method: 'GET',
				path: '/api/contacts/?tag=a',
				queryParameters: { parameter: [{ name: 'tag', value: 'b' }] },
			}),
		});
		expect(twice.error?.message).toBe('Item 0: the query parameter "tag" is given twice');
		expect(requestsSince(start)).toEqual([]);
		// Without Paginate, the page is the user's to ask.
		const onePage = await engine.run({
			parameters: call({
				method: 'GET',
				path: '/api/contacts/',
				queryParameters: { parameter: [{ name: 'limit', value: '3' }] },
			}),
		});
		expect(onePage.items[0].json.items).toHaveLength(3);
	});

	it('X1/E2: with Continue On Fail each item gets its own answer or error item, paired to it', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: call({ method: 'GET', path: '={{ $json.path }}' }),
			items: [
				{ json: { path: '/api/v1/products/1002/' } },
				{ json: { path: 'https://evil.example.com/x' } },
				{ json: { path: '/api/contacts' } },
			],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
		expect(result.items[0].json.id).toBe(1002);
		expect(result.items[1].json.error).toMatch(
			/^Item 1: the path "https:\/\/evil.example.com\/x" is refused/,
		);
		expect(result.items[2].json).toMatchObject({ code: 'NOT_FOUND', httpCode: '404' });
		expect(requestsSince(start).some((r) => r.url.includes('evil'))).toBe(false);
	});
});

/** Answers the API document does not show, from a service of its own: what Other Endpoint makes of them. */
describe('Other Endpoint and answers of other shapes', () => {
	const ANSWERS: Record<string, unknown> = {
		'/odd/profile': { status: 'success', data: { id: 1, name: 'Ada' } },
		'/odd/keys': { status: 'success', data: ['key_a', 'key_b', null] },
		'/odd/meta': { status: 'ok', data: { id: 1 }, meta: { next: null, x: 1 } },
		'/odd/sms': { status: 'success', data: { messages: [{ id: 1 }, { id: 2 }], total: 2 } },
		'/odd/user': {
			status: 'success',
			data: { id: 7, email: 'a@b.test', roles: ['admin', 'user'] },
		},
	};
	async function withService(body: (engine: Engine) => Promise<void>) {
		const server = await startHostile((request: IncomingMessage, response: ServerResponse) => {
			if (isLoginRequest(request)) return false;
			request.resume();
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(JSON.stringify(ANSWERS[(request.url ?? '').split('?')[0]] ?? {}));
			return true;
		});
		try {
			await body(
				new Engine({ baseUrl: server.url, username: 'alice@shop.test', password: 'pw-odd-1' }),
			);
		} finally {
			await server.close();
		}
	}
	const paged = (path: string) => call({ method: 'GET', path, paginate: true, returnAll: true });

	it('X1/L3: Paginate on an answer that holds no list fails each item, saying so, instead of outputting nothing', async () => {
		await withService(async (engine) => {
			const result = await engine.run({
				parameters: paged('/odd/profile'),
				items: [{ json: {} }, { json: {} }],
				continueOnFail: true,
			});
			expect(result.items.map((item) => item.json.error)).toEqual([
				'Item 0: the answer is not a list, so it cannot be read page by page',
				'Item 1: the answer is not a list, so it cannot be read page by page',
			]);
			expect(pairedInputs(result)).toEqual([0, 1]);
		});
	});

	it('X1/L3: Paginate over a list of plain values gives each as a record, a null one too', async () => {
		await withService(async (engine) => {
			const result = await engine.run({ parameters: paged('/odd/keys') });
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([
				{ value: 'key_a' },
				{ value: 'key_b' },
				{ value: null },
			]);
		});
	});

	it('X1/L3: Paginate reads a list under a name of its own when it is the only list of the answer', async () => {
		await withService(async (engine) => {
			const result = await engine.run({ parameters: paged('/odd/sms') });
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([{ id: 1 }, { id: 2 }]);
		});
		// A record with one list among its fields is no page: its roles are not output as records.
		await withService(async (engine) => {
			const result = await engine.run({ parameters: paged('/odd/user') });
			expect(result.error?.message).toBe(
				'Item 0: the answer is not a list, so it cannot be read page by page',
			);
		});
	});

	it('X1/L3: items that each read a list with Paginate keep to Concurrency together', async () => {
		const requests = { inFlight: 0, most: 0 };
		const server = await startHostile((request: IncomingMessage, response: ServerResponse) => {
			if (isLoginRequest(request)) return false;
			request.resume();
			requests.most = Math.max(requests.most, ++requests.inFlight);
			const page = Number(new URL(request.url ?? '', 'http://x').searchParams.get('currentPage'));
			void sleep(100).then(() => {
				requests.inFlight--;
				response.writeHead(200, { 'content-type': 'application/json' });
				const items = page <= 8 ? [{ id: page }] : [];
				response.end(JSON.stringify({ status: 'success', data: { items, total: 8 } }));
			});
			return true;
		});
		try {
			const engine = new Engine({ baseUrl: server.url, username: 'a@b.c', password: 'pw-odd-1' });
			const result = await engine.run({
				parameters: { ...paged('/odd/list'), limit: 8, requestOptions: { concurrency: 4 } },
				items: Array.from({ length: 3 }, () => ({ json: {} })),
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(24);
			// Each item alone would read 4 pages at once: 12 in flight.
			expect(requests.most).toBeLessThanOrEqual(4);
		} finally {
			await server.close();
		}
	});

	it('X1: Full Envelope outputs the answer as it came, its status and fields beside data included', async () => {
		await withService(async (engine) => {
			const result = await engine.run({
				parameters: call({ method: 'GET', path: '/odd/meta', options: { response: 'envelope' } }),
			});
			expect(result.items.map((item) => item.json)).toEqual([ANSWERS['/odd/meta']]);
		});
	});
});
