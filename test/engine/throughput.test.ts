/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { sleep, type IDataObject } from 'n8n-workflow';

import { Engine, pairedInputs, type InputItem } from '../../tools/harness/engine';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

type Logged = { method: string; path: string; status: number; at: number };

/** A 1x1 PNG, for media uploads. */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);

/** A round trip with jitter inside the emulator, so lanes really interleave and overtake each other. */
const NETWORK = { latencyMs: 5, latencyJitterMs: 20 };

describe('Throughput: many items in flight, in order where it matters (Request Options > Concurrency)', () => {
	let sandbox: Sandbox;
	let demoId: number;
	beforeAll(async () => {
		sandbox = await startSandbox(NETWORK);
		demoId = sandbox.state.userByName(DEMO.username).id;
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => {
		sandbox.faults.clear();
		sandbox.setConfig({ rateLimit: null, tokenTtlSeconds: 3600, ...NETWORK });
	});

	const since = (start: number) => sandbox.state.requests.slice(start) as Logged[];
	const withConcurrency = (parameters: IDataObject, concurrency: number) => ({
		...parameters,
		requestOptions: { concurrency },
	});

	/** Order events of `orders` orders, each `paid` then `shipped`, as a shop's export lists them. */
	const orderEvents = (prefix: string, orders: number): InputItem[] =>
		Array.from({ length: orders * 2 }, (_, i) => ({
			json: { orderId: `${prefix}-${Math.floor(i / 2)}`, status: i % 2 ? 'shipped' : 'paid' },
		}));
	const pushOrder = {
		resource: 'order',
		operation: 'pushEvent',
		orderId: '={{ $json.orderId }}',
		status: '={{ $json.status }}',
	};
	const received = (prefix: string) =>
		(sandbox.state.orderEvents as Array<{ body: IDataObject }>).filter((e) =>
			String(e.body.order_id).startsWith(`${prefix}-`),
		);

	it("V1: an order's events never overlap and arrive in input order, while other orders run side by side", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: withConcurrency(pushOrder, 8),
			items: orderEvents('LANE', 20),
		});
		expect(result.error).toBeUndefined();
		expect(pairedInputs(result)).toEqual(Array.from({ length: 40 }, (_, i) => i));
		const events = received('LANE');
		expect(events).toHaveLength(40);
		for (let order = 0; order < 20; order++) {
			expect(
				events.filter((e) => e.body.order_id === `LANE-${order}`).map((e) => e.body.status),
			).toEqual(['paid', 'shipped']);
		}
		// Side by side: requests arrived closer together than one round trip (5 ms at least), and not in input order.
		const posts = since(start).filter((r) => r.path === '/api/v1/order/');
		const gaps = posts.slice(1).map((r, i) => r.at - posts[i].at);
		expect(gaps.filter((gap) => gap < 5).length).toBeGreaterThan(10);
		expect(events.map((e) => e.body.order_id)).not.toEqual(
			orderEvents('LANE', 20).map((item) => item.json.orderId),
		);
	});

	it('A3: one login for all lanes: a missing token, and a token refused mid-run, each cost exactly one login', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const first = await engine.run({
			parameters: withConcurrency(pushOrder, 8),
			items: orderEvents('LOGIN', 8),
		});
		expect(first.error).toBeUndefined();
		expect(engine.logins).toBe(1);
		(sandbox as unknown as { expireTokensNow(): void }).expireTokensNow();
		const second = await engine.run({
			parameters: withConcurrency(pushOrder, 8),
			items: orderEvents('RELOGIN', 8),
		});
		expect(second.error).toBeUndefined();
		expect(engine.logins).toBe(2);
		expect(received('RELOGIN')).toHaveLength(16);
	});

	it('A3: the other lanes go as soon as the login has the token, not when the request that logged in gets its answer', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		// The first order event, whose request logs in on its way, gets no answer within its Timeout.
		sandbox.faults.inject({ method: 'POST', path: '/api/v1/order/', kind: 'hang', times: 1 });
		const running = engine.run({
			parameters: {
				...pushOrder,
				requestOptions: { concurrency: 10, timeoutSeconds: 6 },
				options: { deduplicate: false },
			},
			items: Array.from({ length: 10 }, (_, i) => ({
				json: { orderId: `GATE-${i}`, status: 'paid' },
			})),
			continueOnFail: true,
		});
		// Every other event reaches the service while the first still hangs: within moments, where waiting for the first
		// answer would take its whole Timeout.
		for (
			const deadline = Date.now() + 3_000;
			received('GATE').length < 9 && Date.now() < deadline;

		)
			await sleep(10);
		expect(received('GATE')).toHaveLength(9);
		expect(since(start).filter((r) => r.path === '/api/v1/order/')).toHaveLength(10);
		const result = await running;
		expect(result.items.filter((item) => item.json.error === undefined)).toHaveLength(9);
		expect(engine.logins).toBe(1);
	}, 20_000);

	it('A3: executions running side by side in one process (a webhook burst, a queue-mode worker) renew an ageing stored token once, not once each', async () => {
		sandbox.setConfig({ tokenTtlSeconds: 3 });
		const engine = new Engine(credentialsFor(sandbox));
		expect(
			(await engine.run({ parameters: pushOrder, items: orderEvents('SIDE0', 1) })).error,
		).toBeUndefined();
		const issued = Date.now();
		expect(engine.logins).toBe(1);
		// The stored token now has less than a tenth of its 3 s left: each execution that reads it must renew it.
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, issued + 2_800 - Date.now())));
		const runs = await Promise.all(
			[1, 2, 3, 4, 5, 6].map(
				async (n) => await engine.run({ parameters: pushOrder, items: orderEvents(`SIDE${n}`, 1) }),
			),
		);
		expect(runs.map((run) => run.error)).toEqual(Array(6).fill(undefined));
		expect(engine.logins).toBe(2);
		for (const n of [1, 2, 3, 4, 5, 6])
			expect(received(`SIDE${n}`).map((e) => e.body.status)).toEqual(['paid', 'shipped']);
	});

	it('A1/A3: a refused login is tried once for the whole run, not once per lane or item; each item gets the error', async () => {
		const engine = new Engine(credentialsFor(sandbox, { ...DEMO, password: 'not-the-password' }));
		const loginsBefore = (sandbox.state.requests as Logged[]).filter(
			(r) => r.path === '/api/login_check',
		).length;
		const result = await engine.run({
			parameters: withConcurrency(pushOrder, 8),
			items: orderEvents('NOLOGIN', 8),
			continueOnFail: true,
		});
		expect(pairedInputs(result)).toEqual(Array.from({ length: 16 }, (_, i) => i));
		expect(
			result.items.every((item) =>
				/Login to the Commerce Messaging service failed: Invalid credentials/.test(
					String(item.json.error),
				),
			),
		).toBe(true);
		const logins =
			(sandbox.state.requests as Logged[]).filter((r) => r.path === '/api/login_check').length -
			loginsBefore;
		expect(logins).toBe(1);
	});

	it('A1/L1: a login that failed for a passing reason (service busy) is tried again, and no item fails for it', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		sandbox.faults.inject({ method: 'POST', path: '/api/login_check', kind: '503', times: 1 });
		const result = await engine.run({
			parameters: withConcurrency(pushOrder, 1),
			items: orderEvents('LOGIN503', 1),
			continueOnFail: true,
		});
		expect(result.items.map((item) => item.json.error)).toEqual([undefined, undefined]);
		expect(received('LOGIN503').map((e) => e.body.status)).toEqual(['paid', 'shipped']);
		// With no retry allowed, the item fails; the login failure does not answer the next item, which logs in again.
		sandbox.faults.inject({ method: 'POST', path: '/api/login_check', kind: '503', times: 1 });
		const unretried = await new Engine(credentialsFor(sandbox)).run({
			parameters: { ...pushOrder, requestOptions: { concurrency: 1, maxAttempts: 1 } },
			items: orderEvents('LOGIN503B', 1),
			continueOnFail: true,
		});
		expect(unretried.items[0].json.error).toMatch(/Login to the Commerce Messaging service failed/);
		expect(unretried.items[1].json.error).toBeUndefined();
		expect(received('LOGIN503B').map((e) => e.body.status)).toEqual(['shipped']);
	});

	it('E5/L1: a 429 with Retry-After holds every lane: nothing lost, nothing sent twice, no request before Retry-After', async () => {
		// A request the node decided to send before the 429 came back is not early, however late a busy machine
		// puts it on the wire: 250 ms of reaction time, as the e2e tests give a real n8n. A node that ignored a
		// Retry-After of a whole second would still be caught.
		sandbox.setConfig({ rateLimit: { requestsPerSecond: 20, burst: 6, reactionMs: 250 } });
		const engine = new Engine(credentialsFor(sandbox));
		const stats = { ...sandbox.state.stats };
		const result = await engine.run({
			parameters: withConcurrency(pushOrder, 8),
			items: orderEvents('LIMIT', 15),
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.state.stats.rateLimited - stats.rateLimited).toBeGreaterThan(0);
		expect(sandbox.state.stats.earlyRetries - stats.earlyRetries).toBe(0);
		const events = received('LIMIT');
		expect(events).toHaveLength(30);
		expect(new Set(events.map((e) => `${e.body.order_id}:${e.body.status}`)).size).toBe(30);
	}, 30_000);

	it('E5/L1: a token bucket far slower than 64 lanes: after its Retry-Afters the run paces itself, no item runs out of attempts', async () => {
		sandbox.setConfig({ rateLimit: { requestsPerSecond: 20, burst: 6, reactionMs: 250 } });
		const engine = new Engine(credentialsFor(sandbox));
		const stats = { ...sandbox.state.stats };
		const result = await engine.run({
			parameters: { ...withConcurrency(pushOrder, 64), options: { deduplicate: false } },
			items: Array.from({ length: 100 }, (_, i) => ({
				json: { orderId: `BUCKET-${i}`, status: 'paid' },
			})),
			continueOnFail: true,
		});
		expect(result.items.filter((item) => item.json.error !== undefined)).toEqual([]);
		expect(received('BUCKET')).toHaveLength(100);
		expect(sandbox.state.stats.earlyRetries - stats.earlyRetries).toBe(0);
		// Paced at the rate measured over the whole run, about one refusal per event; pacing near the lanes' top
		// speed after each hold, nearly four.
		expect(sandbox.state.stats.rateLimited - stats.rateLimited).toBeLessThan(200);
	}, 60_000);

	it('E5: a Retry-After one lane receives holds the lanes whose answers come after it: none of them sends until it has passed', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		expect(
			(
				await engine.run({
					parameters: pushOrder,
					items: [{ json: { orderId: 'WARM-UP-1', status: 'paid' } }],
				})
			).error,
		).toBeUndefined();
		// The first request of the burst is refused for 2 s; the other seven are answered 600 ms later. A lane that
		// did not hold would send its next item as soon as its answer came, inside the 2 s.
		sandbox.faults.inject({
			method: 'POST',
			path: '/api/v1/order/',
			kind: '429',
			retryAfter: 2,
			times: 1,
		});
		sandbox.faults.inject({
			method: 'POST',
			path: '/api/v1/order/',
			kind: 'slow',
			delayMs: 600,
			times: 7,
		});
		const start = sandbox.state.requests.length;
		const items = Array.from({ length: 16 }, (_, i) => ({
			json: { orderId: `HOLD-${i}`, status: 'paid' },
		}));
		const result = await engine.run({ parameters: withConcurrency(pushOrder, 8), items });
		expect(result.error).toBeUndefined();
		const posts = since(start).filter((r) => r.path === '/api/v1/order/');
		const refused = posts.find((r) => r.status === 429);
		expect(refused).toBeDefined();
		// Margins: 300 ms after the refusal (the other first requests arrive with it), 2 s for the hold; load only
		// makes a lane later, never earlier.
		const during = posts.filter((r) => r.at > refused!.at + 300 && r.at < refused!.at + 2_000);
		expect(during).toEqual([]);
		expect(received('HOLD')).toHaveLength(16);
	}, 30_000);

	it('C2/E2: with Continue On Fail, every item is answered in input order and paired, bad ones with their error', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const phones = [
			'+4915211100001',
			'not a phone',
			'+4915211100003',
			'',
			'+4915211100005',
			'+4915211100006',
		];
		const result = await engine.run({
			parameters: withConcurrency(
				{ resource: 'message', operation: 'send', phone: '={{ $json.phone }}', message: 'Lanes' },
				8,
			),
			items: phones.map((phone) => ({ json: { phone } })),
			continueOnFail: true,
		});
		expect(pairedInputs(result)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(result.items.map((item) => (item.json.error ? 'error' : item.json.phone))).toEqual([
			'+4915211100001',
			'error',
			'+4915211100003',
			'error',
			'+4915211100005',
			'+4915211100006',
		]);
	});

	it('V4: Retry On Fail with 8 lanes sends every event exactly once', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		sandbox.faults.inject({ method: 'POST', path: '/api/v1/order/', kind: '500', times: 1 });
		const result = await engine.run({
			parameters: withConcurrency(pushOrder, 8),
			items: orderEvents('RETRY8', 6),
			nodeSettings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
		});
		expect(result.error).toBeUndefined();
		expect(pairedInputs(result)).toEqual(Array.from({ length: 12 }, (_, i) => i));
		const events = received('RETRY8').map((e) => `${e.body.order_id}:${e.body.status}`);
		expect(events).toHaveLength(12);
		expect(new Set(events).size).toBe(12);
	});

	it('Throughput/L3: Return All over a list with a total reads its pages side by side, every record once, in order', async () => {
		sandbox.setConfig({ maxPageSize: 10 });
		try {
			const engine = new Engine(credentialsFor(sandbox));
			const start = sandbox.state.requests.length;
			const result = await engine.run({
				parameters: withConcurrency(
					{ resource: 'contact', operation: 'getAll', returnAll: true },
					8,
				),
			});
			expect(result.error).toBeUndefined();
			const expected = sandbox.state.contactsOf(demoId).map((c: { id: number }) => c.id);
			expect(result.items.map((item) => item.json.id)).toEqual(expected);
			const pages = since(start).filter((r) => r.path === '/api/contacts/');
			expect(pages).toHaveLength(Math.ceil(expected.length / 10));
		} finally {
			sandbox.setConfig({ maxPageSize: 1000 });
		}
	});

	/** Each operation that makes one request per item, at Concurrency 1 and 8: every item answered, paired, applied once. */
	describe.each([1, 8])('each per-item operation with Concurrency %i', (concurrency) => {
		const run = async (parameters: IDataObject, items: InputItem[]) => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: withConcurrency(parameters, concurrency),
				items,
			});
			expect(result.error).toBeUndefined();
			expect(pairedInputs(result)).toEqual(items.map((_, i) => i));
			return result;
		};
		const tag = `C${concurrency}`;
		const count = 10;
		const numbered = (make: (i: number) => IDataObject): InputItem[] =>
			Array.from({ length: count }, (_, i) => ({ json: make(i) }));

		it('C1: Contact Create', async () => {
			const phone = (i: number) => `+49152${concurrency}99${String(i).padStart(5, '0')}`;
			await run(
				{ resource: 'contact', operation: 'create', phone: '={{ $json.phone }}', firstname: tag },
				numbered((i) => ({ phone: phone(i) })),
			);
			const made = sandbox.state
				.contactsOf(demoId)
				.filter((c: IDataObject) => String(c.phone).startsWith(`+49152${concurrency}99`));
			expect(made).toHaveLength(count);
		});

		it('V1: Order Push Event', async () => {
			await run(pushOrder, orderEvents(`OP${tag}`, count / 2));
			expect(received(`OP${tag}`)).toHaveLength(count);
		});

		it('V2: Cart Push Abandoned', async () => {
			await run(
				{
					resource: 'cart',
					operation: 'pushAbandoned',
					cartId: '={{ $json.cartId }}',
					total: '={{ $json.total }}',
				},
				numbered((i) => ({ cartId: `CART${tag}-${i % 5}`, total: 10 + i })),
			);
			const carts = (sandbox.state.cartEvents as Array<{ body: IDataObject }>).filter((e) =>
				String(e.body.cart_id).startsWith(`CART${tag}-`),
			);
			expect(carts).toHaveLength(count);
			for (let cart = 0; cart < 5; cart++) {
				expect(
					carts.filter((e) => e.body.cart_id === `CART${tag}-${cart}`).map((e) => e.body.total),
				).toEqual([10 + cart, 15 + cart]);
			}
		});

		it('V5: Product Create, Update and Delete', async () => {
			const products = sandbox.state.products.get(demoId) as Map<string, IDataObject>;
			const ids = numbered((i) => ({ id: `P${tag}-${i}` }));
			await run(
				{
					resource: 'product',
					operation: 'create',
					id: '={{ $json.id }}',
					name: '={{ $json.id }}',
				},
				ids,
			);
			expect(ids.every((item) => products.has(String(item.json.id)))).toBe(true);
			const byId = { __rl: true, mode: 'id', value: '={{ $json.id }}' };
			await run(
				{
					resource: 'product',
					operation: 'update',
					productId: byId,
					updateFields: { name: 'renamed' },
				},
				ids,
			);
			expect(ids.every((item) => products.get(String(item.json.id))?.name === 'renamed')).toBe(
				true,
			);
			await run({ resource: 'product', operation: 'delete', productId: byId }, ids);
			expect(ids.some((item) => products.has(String(item.json.id)))).toBe(false);
		});

		it('V3: Automation Create Instance', async () => {
			const before = sandbox.state.automationInstances.length;
			await run(
				{
					resource: 'automation',
					operation: 'createInstance',
					automationId: 1,
					payload: '={{ JSON.stringify($json) }}',
				},
				numbered((i) => ({ n: i })),
			);
			expect(sandbox.state.automationInstances.length - before).toBe(count);
		});

		it('M1/M4: Media Upload and Delete', async () => {
			const files = Array.from({ length: count }, (_, i) => ({
				json: { i },
				binary: {
					data: {
						base64: PNG.toString('base64'),
						fileName: `lane-${tag}-${i}.png`,
						mimeType: 'image/png',
					},
				},
			}));
			const uploaded = await run(
				{ resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
				files,
			);
			const mediaIds = uploaded.items.map((item) => String(item.json.media_id));
			expect(mediaIds.every((id) => sandbox.state.media.has(id))).toBe(true);
			await run(
				{ resource: 'media', operation: 'delete', mediaId: '={{ $json.id }}' },
				mediaIds.map((id) => ({ json: { id } })),
			);
			expect(mediaIds.some((id) => sandbox.state.media.has(id))).toBe(false);
		});

		it("T2: Template Send and C2: Message Send, one recipient's sends in input order, never overlapping", async () => {
			const template = sandbox.state.addTemplate(
				demoId,
				{ name: `lanes_${tag}`, language: 'en', body: 'Hi {{1}}' },
				'APPROVED',
				new Date().toISOString(),
			);
			const phoneOf = (r: number) => `+4915288${concurrency}0000${r}`;
			const recipients = numbered((i) => ({ phone: phoneOf(i % 3), n: String(i) }));
			// The first three sends to arrive are held back 150 ms: a later send to the same recipient that did not
			// wait for its predecessor would overtake it (with Concurrency 8, items 3-5 start beside items 0-2).
			const holdFirstSends = (path: string) =>
				sandbox.faults.inject({ method: 'POST', path, kind: 'slow', delayMs: 150, times: 3 });
			holdFirstSends(`/api/v2/whatsapp/templates/${template.id}/send`);
			await run(
				{
					resource: 'template',
					operation: 'send',
					templateId: { __rl: true, mode: 'id', value: String(template.id) },
					phone: '={{ $json.phone }}',
					variables: { mappingMode: 'defineBelow', value: { 'body:1': '={{ String($json.n) }}' } },
				},
				recipients,
			);
			holdFirstSends('/api/whatsapp/');
			await run(
				{
					resource: 'message',
					operation: 'send',
					phone: '={{ $json.phone }}',
					message: '={{ "m" + $json.n }}',
				},
				recipients,
			);
			const received = (sandbox.state.messages as IDataObject[]).filter((m) =>
				String(m.phone).startsWith(`+4915288${concurrency}`),
			);
			for (let r = 0; r < 3; r++) {
				const inputOrder = recipients
					.filter((item) => item.json.phone === phoneOf(r))
					.map((item) => String(item.json.n));
				const to = received.filter((m) => m.phone === phoneOf(r));
				expect(
					to.filter((m) => m.type === 'template').map((m) => (m.variables as string[])[0]),
				).toEqual(inputOrder);
				expect(to.filter((m) => m.type === 'whatsapp').map((m) => m.message)).toEqual(
					inputOrder.map((n) => `m${n}`),
				);
			}
		});

		it('X1: Other Endpoint', async () => {
			const result = await run(
				{
					resource: 'customApiCall',
					operation: 'request',
					method: 'GET',
					path: '={{ "/api/v1/products/" + $json.id + "/" }}',
				},
				numbered((i) => ({ id: String(1001 + i) })),
			);
			expect(result.items.map((item) => String(item.json.id))).toEqual(
				numbered((i) => ({ id: String(1001 + i) })).map((item) => item.json.id),
			);
		});
	});
});
