/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/node-usable-as-tool -- test code: runs in jest, not inside n8n (a test-only node among it) */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, sleep } from 'n8n-workflow';

import { apiRequest } from '../../transport/request';

import { Engine, visibleText } from '../../tools/harness/engine';
import {
	drip,
	fakeJwt,
	isLoginRequest,
	startHostile,
	withHostile,
	type HostileServer,
} from '../../tools/harness/hostile';
import { PollHarness } from '../../tools/harness/poll';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * Every wait, list and answer has a bound: against hostile loopback servers (tools/harness/hostile.ts) that hang,
 * drip, never end a list or answer too much, and against the emulator for what it can fault. Each bound is stated
 * in the README (Credentials, Operations > Shared behaviour) and asserted here far from its limit.
 */

const PASSWORD = 'hostile-test-password';
const listContacts = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 };
const allContacts = { resource: 'contact', operation: 'getAll', returnAll: true };
const pushOrder = {
	resource: 'order',
	operation: 'pushEvent',
	orderId: '={{ $json.orderId }}',
	status: 'paid',
};
const orders = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ json: { orderId: `BOUND-${i}` } }));

const hostileCredentials = (server: HostileServer) => ({
	baseUrl: server.url,
	username: 'alice@shop.test',
	password: PASSWORD,
});

const json = (response: ServerResponse, status: number, body: unknown) => {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
};

describe('Every wait has a deadline (the Timeout covers connect to last byte, the login included)', () => {
	it('A1/L1: a login that hangs fails every item within the Timeout, naming the login, with ONE login attempt per run', async () => {
		await withHostile(
			(request) => isLoginRequest(request), // the login is never answered
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				const started = Date.now();
				const result = await engine.run({
					parameters: { ...pushOrder, requestOptions: { timeoutSeconds: 2, concurrency: 1 } },
					items: orders(3),
					continueOnFail: true,
				});
				const elapsed = Date.now() - started;
				expect(result.items.map((item) => item.json.error)).toEqual([
					expect.stringMatching(
						/^Login to the Commerce Messaging service failed: the service did not answer within 2 s/,
					),
					expect.stringMatching(
						/^Login to the Commerce Messaging service failed: the service did not answer within 2 s/,
					),
					expect.stringMatching(
						/^Login to the Commerce Messaging service failed: the service did not answer within 2 s/,
					),
				]);
				expect(server.logins()).toHaveLength(1);
				expect(server.calls()).toHaveLength(0);
				// The run ends near one login's deadline (2 s), not after the old fixed 30 s; one login, not one per
				// item, is proven by the count above, so this bound keeps a wide margin for a busy machine.
				expect(elapsed).toBeLessThan(15_000);
			},
		);
	}, 30_000);

	it('A1/L1: with 8 lanes the hanging login is still tried once, and every lane fails with it', async () => {
		await withHostile(
			(request) => isLoginRequest(request),
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				const result = await engine.run({
					parameters: { ...pushOrder, requestOptions: { timeoutSeconds: 1, concurrency: 8 } },
					items: orders(8),
					continueOnFail: true,
				});
				expect(result.items).toHaveLength(8);
				expect(
					result.items.every((item) => /did not answer within 1 s/.test(String(item.json.error))),
				).toBe(true);
				expect(server.logins()).toHaveLength(1);
			},
		);
	}, 30_000);

	it('L1: an answer dripping one byte every 300 ms is cut at the Timeout: the item fails in time, saying it timed out', async () => {
		await withHostile(
			(request, response) => {
				if (isLoginRequest(request)) return false;
				// 60 bytes at 300 ms: 18 s of drip.
				drip(
					response,
					JSON.stringify({ status: 'success', data: [{ id: 1, note: 'x'.repeat(20) }] }),
					300,
				);
				return true;
			},
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				const started = Date.now();
				const result = await engine.run({
					parameters: { ...listContacts, requestOptions: { timeoutSeconds: 2, maxAttempts: 1 } },
				});
				const elapsed = Date.now() - started;
				expect(result.error?.message).toMatch(
					/did not answer in time: the request timed out after 2(\.\d)? s/,
				);
				expect(server.calls()).toHaveLength(1);
				// The node closed the connection at its deadline instead of reading the whole drip.
				const [call] = server.calls();
				for (let waited = 0; call.closedAt === undefined && waited < 3_000; waited += 100)
					await new Promise((r) => setTimeout(r, 100));
				expect(call.closedAt! - call.at).toBeLessThan(8_000);
				expect(elapsed).toBeLessThan(9_000);
			},
		);
	}, 30_000);

	it('L1: a dripping answer to a POST is cut at the Timeout and the POST is not sent again (the service may have applied it)', async () => {
		await withHostile(
			(request, response) => {
				if (isLoginRequest(request)) return false;
				request.resume();
				drip(
					response,
					JSON.stringify({ status: 'success', data: { order_id: 'x', note: 'y'.repeat(40) } }),
					300,
				);
				return true;
			},
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				const result = await engine.run({
					parameters: { ...pushOrder, requestOptions: { timeoutSeconds: 1 } },
					items: orders(1),
				});
				// The time it really waited: a little more on a loaded machine.
				expect(result.error?.message).toMatch(/timed out after 1(\.\d)? s/);
				expect(result.error?.description).toMatch(/Not retried automatically/);
				expect(server.calls()).toHaveLength(1);
			},
		);
	}, 30_000);
});

describe('Lists have a ceiling (Request Options > Max Records)', () => {
	/**
	 * A list that never ends: every page is full of records never served before, without a total (the node reads on
	 * while pages come full) or under a total that lies (it says there are always more).
	 */
	const endless =
		(total: 'none' | 'lying') =>
		(request: IncomingMessage, response: ServerResponse): boolean => {
			if (isLoginRequest(request)) return false;
			const query = new URL(request.url ?? '', 'http://x').searchParams;
			const page = Number(query.get('page'));
			const limit = Number(query.get('limit'));
			const records = Array.from({ length: limit }, (_, i) => ({
				id: (page - 1) * limit + i + 1,
				firstname: 'Endless',
			}));
			json(response, 200, {
				status: 'success',
				data: total === 'none' ? records : { items: records, total: (page + 1) * limit },
			});
			return true;
		};
	const endlessList = endless('none');

	it('L3: a total that keeps growing ahead of the pages stops at Max Records too', async () => {
		await withHostile(endless('lying'), async (server) => {
			const engine = new Engine(hostileCredentials(server));
			const result = await engine.run({
				parameters: { ...allContacts, requestOptions: { maxRecords: 2_500, concurrency: 4 } },
			});
			expect(result.error?.message).toMatch(/^The list goes on beyond 2,500 records/);
			expect(server.calls().length).toBeLessThanOrEqual(3 + 4);
		});
	});

	it('L3: Return All over a list that keeps serving fresh full pages stops at Max Records with an error naming it', async () => {
		await withHostile(endlessList, async (server) => {
			const engine = new Engine(hostileCredentials(server));
			const result = await engine.run({
				parameters: { ...allContacts, requestOptions: { maxRecords: 2_500, concurrency: 1 } },
			});
			expect(result.error?.message).toBe(
				'The list goes on beyond 2,500 records, the most read in one go (Request Options > Max Records)',
			);
			expect(result.error?.description).toMatch(
				/; otherwise use Limit, or a filter, to read a part of it\.$/,
			);
			expect(result.items).toHaveLength(0);
			// Pages of 1000: the fourth one passes the ceiling.
			expect(server.calls()).toHaveLength(3);
		});
	});

	it('L3: the default ceiling is 100,000 records', async () => {
		await withHostile(endlessList, async (server) => {
			const engine = new Engine(hostileCredentials(server));
			const result = await engine.run({
				parameters: { ...allContacts, requestOptions: { concurrency: 8 } },
			});
			expect(result.error?.message).toMatch(/^The list goes on beyond 100,000 records/);
			expect(server.calls().length).toBeLessThanOrEqual(101 + 8);
		});
	}, 60_000);

	it('L3: a Limit is its own bound: no ceiling error below it', async () => {
		await withHostile(endlessList, async (server) => {
			const engine = new Engine(hostileCredentials(server));
			const result = await engine.run({
				parameters: {
					...allContacts,
					returnAll: false,
					limit: 1_500,
					requestOptions: { maxRecords: 1_000 },
				},
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1_500);
		});
	});

	it('L3: a trigger poll over a list that never ends fails at Max Records instead of reading on', async () => {
		await withHostile(endlessList, async (server) => {
			const harness = new PollHarness(hostileCredentials(server), {
				event: 'newContact',
				requestOptions: { maxRecords: 300 },
			});
			const activation = await harness.activate();
			expect(activation.error?.message).toMatch(/^The list goes on beyond 300 records/);
			expect(server.calls().length).toBeLessThanOrEqual(5);
		});
	});
});

describe('Answers and requests have a size limit', () => {
	it('E1: an answer larger than 16 MB fails with a clear error; the node stops reading it', async () => {
		const megabyte = 'x'.repeat(1024 * 1024);
		await withHostile(
			(request, response) => {
				if (isLoginRequest(request)) return false;
				response.writeHead(200, { 'content-type': 'application/json' });
				response.write('{"status":"success","data":[');
				let sent = 0;
				const more = () => {
					while (sent < 50 && !response.destroyed) {
						sent++;
						if (!response.write(`"${megabyte}",`)) return void response.once('drain', more);
					}
					if (!response.destroyed) response.end('"end"]}');
				};
				more();
				return true;
			},
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				const result = await engine.run({
					parameters: { ...listContacts, requestOptions: { maxAttempts: 1 } },
				});
				expect(result.error?.message).toBe(
					"The service's answer is larger than 16 MB, the most this node reads in one answer",
				);
				const [call] = server.calls();
				// The connection was closed well before the 50 MB were written.
				await new Promise((resolve) => setTimeout(resolve, 200));
				expect(call.closedAt).toBeDefined();
				expect(call.written).toBeLessThan(40 * 1024 * 1024);
			},
		);
	}, 30_000);

	it.each([
		['a 200 KB token', 'x'.repeat(200 * 1024), /token in the answer is 204,800 characters long/],
		['a token with CR/LF', `${fakeJwt()}\r\nX-Injected: 1`, /cannot be sent in a header/],
	])(
		'A1: a login answering %s is refused at once with a clear error, and not retried',
		async (_label, token, message) => {
			await withHostile(
				(request, response) => {
					if (!isLoginRequest(request)) return false;
					request.resume();
					json(response, 200, { token });
					return true;
				},
				async (server) => {
					const engine = new Engine(hostileCredentials(server));
					const started = Date.now();
					const result = await engine.run({
						parameters: pushOrder,
						items: orders(3),
						continueOnFail: true,
					});
					expect(result.items.map((item) => String(item.json.error))).toEqual(
						Array(3).fill(expect.stringMatching(message)),
					);
					expect(server.logins()).toHaveLength(1);
					expect(server.calls()).toHaveLength(0);
					expect(visibleText(result)).not.toContain('X-Injected');
					expect(Date.now() - started).toBeLessThan(10_000);
				},
			);
		},
		30_000,
	);

	it("A1: a login answer over 256 KB (the login's own cap, far below the 16 MB of other answers) is refused", async () => {
		await withHostile(
			(request, response) => {
				if (!isLoginRequest(request)) return false;
				request.resume();
				json(response, 200, { token: fakeJwt(), padding: 'p'.repeat(300 * 1024) });
				return true;
			},
			async (server) => {
				const result = await new Engine(hostileCredentials(server)).run({
					parameters: listContacts,
				});
				expect(result.error?.message).toBe(
					'Login to the Commerce Messaging service failed: the answer is larger than 256 KB, which no login answer is',
				);
				expect(server.calls()).toHaveLength(0);
			},
		);
	});

	it('X1: a custom call with a 10 MB path fails at once, before anything is sent', async () => {
		await withHostile(
			() => false,
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				const started = Date.now();
				const result = await engine.run({
					parameters: {
						resource: 'customApiCall',
						operation: 'request',
						method: 'GET',
						path: `/api/${'a'.repeat(10 * 1024 * 1024)}`,
					},
				});
				expect(result.error?.message).toMatch(
					/^The request's address is 10,485,[0-9]{3} characters long, over the limit of 8,192/,
				);
				expect(server.requests).toHaveLength(0);
				expect(Date.now() - started).toBeLessThan(10_000);
			},
		);
	});

	it('A3/X1: a token renewal due when a same-origin redirect names an address over the limit: that item fails saying so, and the login it began is not left open (the next item and the next execution complete)', async () => {
		// The first login's token runs out while the first read waits for its redirect; later logins get a long one.
		let shortToken = '';
		let redirected = false;
		const expiresAt = (token: string) =>
			(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { exp: number })
				.exp * 1000;
		const handle = async (request: IncomingMessage, response: ServerResponse) => {
			if (isLoginRequest(request)) {
				request.resume();
				const token = shortToken ? fakeJwt() : (shortToken = fakeJwt(3));
				json(response, 200, { token });
				return true;
			}
			if (redirected) {
				json(response, 200, { status: 'success', data: [{ id: 1, firstname: 'After' }] });
				return true;
			}
			redirected = true;
			await sleep(expiresAt(shortToken) + 500 - Date.now());
			response.writeHead(302, {
				location: `${server.url}/api/contacts/?page=1&pad=${'a'.repeat(9_000)}`,
			});
			response.end();
			return true;
		};
		const server = await startHostile(handle);
		let timer: NodeJS.Timeout | undefined;
		try {
			const hung = new Promise<never>((_, reject) => {
				timer = setTimeout(
					() => reject(new Error('a request after the refused address never settled')),
					30_000,
				);
			});
			const engine = new Engine(hostileCredentials(server));
			const result = await Promise.race([
				engine.run({
					parameters: { ...listContacts, requestOptions: { concurrency: 1 } },
					items: [{ json: {} }, { json: {} }],
					continueOnFail: true,
				}),
				hung,
			]);
			expect(result.items).toHaveLength(2);
			expect(String(result.items[0].json.error)).toMatch(
				/^The request's address is 9,[0-9]{3} characters long, over the limit of 8,192/,
			);
			expect(result.items[1].json).toMatchObject({ id: 1, firstname: 'After' });
			const again = await Promise.race([engine.run({ parameters: listContacts }), hung]);
			expect(again.error).toBeUndefined();
			expect(again.items[0].json).toMatchObject({ id: 1 });
			// The redirected read carried the token that ran out; the address over the limit was never sent.
			expect(server.calls()[0].authorization).toBe(`Bearer ${shortToken}`);
			expect(server.calls()).toHaveLength(3);
			expect(server.logins()).toHaveLength(2);
		} finally {
			clearTimeout(timer);
			await server.close();
		}
	}, 60_000);
});

describe('Request bodies have a size limit', () => {
	it('X1: a JSON body over 16 MB fails at once, before anything is sent', async () => {
		await withHostile(
			() => false,
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				const jsonBody = JSON.stringify({ note: 'x'.repeat(17 * 1024 * 1024) });
				const result = await engine.run({
					parameters: {
						resource: 'customApiCall',
						operation: 'request',
						method: 'POST',
						path: '/api/sms/',
						jsonBody,
					},
				});
				expect(result.error?.message).toMatch(
					/^The request body is 17 MB, over the limit of 16 MB/,
				);
				expect(server.requests).toHaveLength(0);
			},
		);
	}, 30_000);
});

describe('Path ids are one segment (V5, T5, M4)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox.close());

	const operations = [
		[
			'product delete',
			{
				resource: 'product',
				operation: 'delete',
				productId: { __rl: true, mode: 'id', value: '' },
			},
			'productId',
		],
		[
			'template delete',
			{
				resource: 'template',
				operation: 'delete',
				templateId: { __rl: true, mode: 'id', value: '' },
			},
			'templateId',
		],
		['media delete', { resource: 'media', operation: 'delete', mediaId: '' }, 'mediaId'],
	] as const;

	it.each(
		operations.flatMap(([name, parameters, field]) =>
			['.', '..'].map((id) => [name, id, parameters, field] as const),
		),
	)(
		'%s with the id "%s" is refused before any request: it would name another endpoint',
		async (_name, id, parameters, field) => {
			const engine = new Engine(credentialsFor(sandbox, DEMO));
			const before = sandbox.state.requests.length;
			const value =
				typeof parameters[field as keyof typeof parameters] === 'object'
					? { __rl: true, mode: 'id', value: id }
					: id;
			const result = await engine.run({
				parameters: { ...parameters, [field]: value },
				continueOnFail: true,
			});
			expect(String(result.items[0].json.error)).toMatch(
				/is not a valid id|is not a valid .*id|"\.\.?"/,
			);
			const sent = (sandbox.state.requests as Array<{ method: string; path: string }>)
				.slice(before)
				.filter((r) => r.method === 'DELETE');
			expect(sent).toEqual([]);
		},
	);

	it('V5: an id with a slash is one segment, encoded, and names no other endpoint', async () => {
		const engine = new Engine(credentialsFor(sandbox, DEMO));
		const before = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: {
				resource: 'product',
				operation: 'get',
				productId: { __rl: true, mode: 'id', value: '../../contacts' },
			},
			continueOnFail: true,
		});
		expect(String(result.items[0].json.error)).toMatch(/NOT_FOUND|not found/i);
		const sent = (sandbox.state.requests as Array<{ method: string; url: string }>)
			.slice(before)
			.filter((r) => r.method === 'GET');
		expect(sent.map((r) => r.url)).toEqual(['/api/v1/products/..%2F..%2Fcontacts/']);
	});

	it('X1: an Other Endpoint path with a ".." segment (also encoded) is refused before any request', async () => {
		const engine = new Engine(credentialsFor(sandbox, DEMO));
		for (const path of ['/api/v1/products/../contacts/', '/api/v1/%2e%2e/contacts/']) {
			const before = sandbox.state.requests.length;
			const result = await engine.run({
				parameters: { resource: 'customApiCall', operation: 'request', method: 'DELETE', path },
				continueOnFail: true,
			});
			expect(String(result.items[0].json.error)).toMatch(/segment/);
			expect(
				sandbox.state.requests
					.slice(before)
					.filter((r: { method: string }) => r.method === 'DELETE'),
			).toEqual([]);
		}
	});
});

describe("The transport's own check of a custom path, behind the operation's input check", () => {
	/** A test-only node that hands a path to the transport as it is, without Other Endpoint's input check. */
	class RawCall implements INodeType {
		description: INodeTypeDescription = {
			displayName: 'Raw Call',
			name: 'rawCall',
			group: ['transform'],
			version: 1,
			description: 'Calls the transport with a custom path as given',
			defaults: { name: 'Raw Call' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'commerceMessagingApi', required: true }],
			properties: [{ displayName: 'Path', name: 'path', type: 'string', default: '' }],
		};

		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const path = this.getNodeParameter('path', 0) as string;
			return [
				[{ json: { answer: (await apiRequest(this, { method: 'DELETE', path })) as IDataObject } }],
			];
		}
	}

	it.each([
		'/api/v1/products/../contacts/',
		'/api/v1/%2e%2e/contacts/',
		'/api/v1/products/%2E./x',
		'/api/./contacts/',
	])('X1: the transport refuses %s itself: nothing is sent', async (path) => {
		await withHostile(
			() => false,
			async (server) => {
				const engine = new Engine(hostileCredentials(server), { 'test.rawCall': new RawCall() });
				const result = await engine.run({ nodeType: 'test.rawCall', parameters: { path } });
				expect(result.error?.message).toMatch(
					/^The path ".*" contains the segment "(\.|%2e|%2E){1,2}"/,
				);
				expect(server.requests).toHaveLength(0);
			},
		);
	});
});

describe('5xx are retried by status, whatever their body', () => {
	let sandbox: Sandbox;
	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox.close());

	it('L1: a GET answered 500 with a JSON body is retried (as with an HTML body); a POST is not', async () => {
		const engine = new Engine(credentialsFor(sandbox, DEMO));
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '500', times: 1 });
		const read = await engine.run({ parameters: listContacts });
		expect(read.error).toBeUndefined();
		expect(read.items).toHaveLength(1);

		const before = sandbox.state.requests.length;
		sandbox.faults.inject({ method: 'POST', path: '/api/v1/order/', kind: '500', times: 1 });
		const write = await engine.run({
			parameters: pushOrder,
			items: [{ json: { orderId: 'BOUND-500' } }],
		});
		expect(write.error?.message).toMatch(
			/^The service failed with HTTP 500: Internal server error/,
		);
		expect(
			sandbox.state.requests
				.slice(before)
				.filter((r: { path: string }) => r.path === '/api/v1/order/'),
		).toHaveLength(1);
	});
});

describe('Lists have a ceiling in bytes too (Request Options > Max List Size (MB))', () => {
	/**
	 * A list whose records are `recordBytes` each, served `perPage` at a time however many are asked, claiming a
	 * million records but empty after `lastPage`: far past each test's ceiling, yet a broken ceiling fails the test
	 * instead of filling memory.
	 */
	const largeRecords = (recordBytes: number, perPage: number, lastPage: number) => {
		const filler = 'r'.repeat(recordBytes);
		return (request: IncomingMessage, response: ServerResponse): boolean => {
			if (isLoginRequest(request)) return false;
			const page = Number(new URL(request.url ?? '', 'http://x').searchParams.get('page'));
			const records =
				page > lastPage
					? []
					: Array.from({ length: perPage }, (_, i) => ({
							id: (page - 1) * perPage + i + 1,
							note: filler,
						}));
			json(response, 200, { status: 'success', data: { items: records, total: 1_000_000 } });
			return true;
		};
	};

	it('L3: Return All over pages of large records stops at Max List Size (MB), counting what was read, with an error naming it', async () => {
		await withHostile(largeRecords(10 * 1024, 100, 12), async (server) => {
			const engine = new Engine(hostileCredentials(server));
			const result = await engine.run({
				parameters: { ...allContacts, requestOptions: { maxListMegabytes: 5, concurrency: 1 } },
			});
			expect(result.error?.message).toBe(
				'The list goes on beyond 5 MB of answers, the most read in one go (Request Options > Max List Size (MB))',
			);
			expect(result.items).toHaveLength(0);
			// About 1 MB a page: the sixth passes the ceiling, far below Max Records.
			expect(server.calls()).toHaveLength(6);
			// A ceiling under 1 MB is named as set, never as 0 MB.
			const small = await engine.run({
				parameters: { ...allContacts, requestOptions: { maxListMegabytes: 0.004, concurrency: 1 } },
			});
			expect(small.error?.message).toMatch(/^The list goes on beyond 0\.004 MB of answers/);
		});
	});

	it('L3: the pages read side by side count too: a read holds at most Max List Size plus one answer (16 MB), pages in flight included', async () => {
		// Pages just under the 16 MB answer cap: 100 records of 159 KB each, 8 pages at a time unless the ceiling says fewer.
		const page = 100 * 159 * 1024;
		await withHostile(largeRecords(159 * 1024, 100, 40), async (server) => {
			const engine = new Engine(hostileCredentials(server));
			const result = await engine.run({
				parameters: { ...allContacts, requestOptions: { maxListMegabytes: 40, concurrency: 8 } },
			});
			expect(result.error?.message).toMatch(/^The list goes on beyond 40 MB of answers/);
			// Every page the service answered was in memory at once at worst: 3 pages of 15.5 MB, where 8 side by side
			// would have been 9 (first page alone, then 8) and 140 MB.
			expect(server.calls().length * page).toBeLessThanOrEqual(40 * 1024 * 1024 + 16 * 1024 * 1024);
			expect(server.calls()).toHaveLength(3);
		});
	}, 60_000);

	it('L3: the default ceiling is 256 MB of answers', async () => {
		await withHostile(largeRecords(1024 * 1024, 10, 30), async (server) => {
			const engine = new Engine(hostileCredentials(server));
			const result = await engine.run({
				parameters: { ...allContacts, requestOptions: { concurrency: 1 } },
			});
			expect(result.error?.message).toMatch(/^The list goes on beyond 256 MB of answers/);
			// 10 MB a page: the 26th passes 256 MB.
			expect(server.calls()).toHaveLength(26);
		});
	}, 60_000);

	it('L3: a trigger poll holds to it as well', async () => {
		await withHostile(largeRecords(10 * 1024, 100, 6), async (server) => {
			const harness = new PollHarness(hostileCredentials(server), {
				event: 'newOrChangedProduct',
				requestOptions: { maxListMegabytes: 2 },
			});
			const activation = await harness.activate();
			expect(activation.error?.message).toMatch(/^The list goes on beyond 2 MB of answers/);
		});
	});

	it('L3: a list of exactly Max Records records is read whole; one more fails', async () => {
		for (const [records, fails] of [
			[2_500, false],
			[2_501, true],
		] as const) {
			await withHostile(
				(request, response) => {
					if (isLoginRequest(request)) return false;
					const query = new URL(request.url ?? '', 'http://x').searchParams;
					const page = Number(query.get('page'));
					const limit = Number(query.get('limit'));
					const ids = Array.from({ length: limit }, (_, i) => (page - 1) * limit + i + 1).filter(
						(id) => id <= records,
					);
					json(response, 200, {
						status: 'success',
						data: { items: ids.map((id) => ({ id })), total: records },
					});
					return true;
				},
				async (server) => {
					const engine = new Engine(hostileCredentials(server));
					const result = await engine.run({
						parameters: { ...allContacts, requestOptions: { maxRecords: 2_500 } },
					});
					if (fails)
						expect(result.error?.message).toMatch(/^The list goes on beyond 2,500 records/);
					else {
						expect(result.error).toBeUndefined();
						expect(result.items).toHaveLength(2_500);
					}
				},
			);
		}
	});
});

describe('Answers n8n can always store: nested at most 100 levels', () => {
	const nestedJson = (depth: number, inner: string) =>
		`${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
	const answering =
		(status: number, text: string) => (request: IncomingMessage, response: ServerResponse) => {
			if (isLoginRequest(request)) return false;
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(text);
			return true;
		};
	const call = {
		resource: 'customApiCall',
		operation: 'request',
		method: 'GET',
		path: '/api/deep/',
		requestOptions: { maxAttempts: 1 },
	};

	it('E1: an answer nested 100 levels deep is taken; 101 levels fail with a clear error, in a success or an error body', async () => {
		await withHostile(
			answering(200, `{"status":"success","data":${nestedJson(99, '1')}}`),
			async (server) => {
				const result = await new Engine(hostileCredentials(server)).run({ parameters: call });
				expect(result.error).toBeUndefined();
			},
		);
		for (const [status, text] of [
			[200, `{"status":"success","data":${nestedJson(100, '1')}}`],
			[500, `{"status":"error","message":"deep","data":${nestedJson(6_000, '"x"')}}`],
		] as const) {
			await withHostile(answering(status, text), async (server) => {
				const result = await new Engine(hostileCredentials(server)).run({ parameters: call });
				expect(result.error?.message).toBe(
					"The service's answer is nested more than 100 levels deep, more than n8n can store and show",
				);
				// The run and its error are storable: n8n writes them as JSON.
				expect(() => JSON.stringify(result.run)).not.toThrow();
			});
		}
	});

	it('A1: a login answer nested too deep is refused as no login answer', async () => {
		await withHostile(
			(request, response) => {
				if (!isLoginRequest(request)) return false;
				request.resume();
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end(`{"token":"${fakeJwt()}","x":${nestedJson(500, '1')}}`);
				return true;
			},
			async (server) => {
				const result = await new Engine(hostileCredentials(server)).run({
					parameters: listContacts,
				});
				expect(result.error?.message).toMatch(
					/^Login to the Commerce Messaging service failed: the answer is nested more than 100 levels deep/,
				);
			},
		);
	});
});

describe('Deadlines that tell the truth', () => {
	it('L1: the request after a login gets its own Timeout: an answer dripping past it after a quick login is cut there', async () => {
		await withHostile(
			(request, response) => {
				if (isLoginRequest(request)) return false;
				// About 3 s of drip: past the 2 s Timeout, but within the login's and the request's added up.
				drip(
					response,
					JSON.stringify({ status: 'success', data: [{ id: 1, note: 'x'.repeat(40) }] }),
					50,
				);
				return true;
			},
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				const result = await engine.run({
					parameters: { ...listContacts, requestOptions: { timeoutSeconds: 2, maxAttempts: 1 } },
				});
				expect(result.error?.message).toMatch(
					/^The service did not answer in time: the request timed out after 2(\.\d)? s/,
				);
				expect(server.logins()).toHaveLength(1);
			},
		);
	}, 30_000);

	it('L1: the Timeout starts again once the login is done: a slow login and a slow answer, each within it, succeed', async () => {
		await withHostile(
			(request, response) => {
				// Each well within the Timeout of 3.5 s, the two together beyond it.
				const delay = 2_000;
				if (isLoginRequest(request)) {
					request.resume();
					setTimeout(() => json(response, 200, { token: fakeJwt() }), delay);
				} else
					setTimeout(() => json(response, 200, { status: 'success', data: [{ id: 1 }] }), delay);
				return true;
			},
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				const result = await engine.run({
					parameters: { ...listContacts, requestOptions: { timeoutSeconds: 3.5, maxAttempts: 1 } },
				});
				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(1);
			},
		);
	}, 30_000);

	it("E5: an item that only waited behind another item's Retry-After says it waited for the service's rate limit", async () => {
		const answered = new Set<string>();
		await withHostile(
			async (request, response) => {
				if (isLoginRequest(request)) return false;
				const chunks: Buffer[] = [];
				for await (const chunk of request) chunks.push(chunk as Buffer);
				const orderId = String(JSON.parse(Buffer.concat(chunks).toString('utf8')).order_id);
				const first = !answered.has(orderId);
				answered.add(orderId);
				const refuse = (retryAfter: string) => {
					response.writeHead(429, {
						'content-type': 'application/json',
						'retry-after': retryAfter,
					});
					response.end('{"status":"error","code":"RATE_LIMITED","message":"Slow down"}');
				};
				// Item 0: a Retry-After of 2 s, which holds every lane. Item 1: fine, after a moment, so item 2 starts
				// while the hold lasts. Item 2 (it waited for item 0's Retry-After): one longer than its budget has left.
				if (orderId === 'BOUND-0' && first) refuse('2');
				else if (orderId === 'BOUND-2') refuse('30');
				else
					setTimeout(
						() => json(response, 200, { status: 'success', data: { accepted: true } }),
						300,
					);
				return true;
			},
			async (server) => {
				const engine = new Engine(hostileCredentials(server));
				// Logged in before: items 0 and 1 go out together, rather than one after the other behind the login.
				await engine.run({
					parameters: { ...pushOrder, orderId: 'WARM-UP', options: { deduplicate: false } },
				});
				const result = await engine.run({
					parameters: {
						...pushOrder,
						options: { deduplicate: false },
						requestOptions: { concurrency: 2, maxRetryWaitSeconds: 10 },
					},
					items: orders(3),
					continueOnFail: true,
				});
				const third = result.items[2].json;
				expect(third.error).toMatch(/^Rate limited by the service: Slow down/);
				expect(third.description).toMatch(
					/^It was sent once, after waiting \d+(\.\d)? s in all for the service's rate limit; the service asked to wait 30 s/,
				);
				expect(third.description).not.toMatch(/retried with backoff|sent \d+ times/);
				expect(result.items[0].json.error).toBeUndefined();
				expect(result.items[1].json.error).toBeUndefined();
			},
		);
	}, 30_000);
});
