/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { CommerceMessagingApi } from '../../credentials/CommerceMessagingApi.credentials';
import { readCredentials, sealFor } from '../../transport/auth';
import { redactText } from '../../transport/redact';
import { Engine, visibleText } from '../../tools/harness/engine';
import { PollHarness } from '../../tools/harness/poll';
import {
	credentialsFor,
	DEMO,
	NO_ACCESS,
	OTHER,
	startSandbox,
	type Sandbox,
} from '../../tools/harness/sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startTrap } = require('../../sandbox') as {
	startTrap(): Promise<{ url: string; port: number; requests: unknown[]; close(): Promise<void> }>;
};

type Logged = { method: string; path: string; status: number; at: number; fault?: string };

const listContacts = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 };
const createContact = (phone: string, requestOptions: Record<string, unknown> = {}) => ({
	resource: 'contact',
	operation: 'create',
	phone,
	firstname: 'Hardening',
	requestOptions,
});
const pushOrder = (orderId: string) => ({
	resource: 'order',
	operation: 'pushEvent',
	orderId,
	status: 'paid',
});
const history = { resource: 'order', operation: 'getHistory', returnAll: false, limit: 3 };

/** Everything n8n's logger was given during a run, as one text (rule A6 reads it). */
function captureLogs() {
	const logger = Container.get(Logger);
	// debug is a read-only property of n8n's Logger; what a node logs goes through these three.
	const spies = (['error', 'warn', 'info'] as const).map((level) => jest.spyOn(logger, level));
	return {
		text: () => JSON.stringify(spies.map((spy) => spy.mock.calls)),
		restore: () => spies.forEach((spy) => spy.mockRestore()),
	};
}

describe('Hardening: secrets stay with the service, token problems heal, every server the document allows', () => {
	let sandbox: Sandbox;
	const since = (start: number) => sandbox.state.requests.slice(start) as Logged[];

	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	async function loggedInEngine(extra: Record<string, unknown> = {}): Promise<Engine> {
		const engine = new Engine(credentialsFor(sandbox, DEMO, extra));
		expect((await engine.run({ parameters: listContacts })).error).toBeUndefined();
		return engine;
	}

	describe('A6: redirects are never followed with credentials', () => {
		let trap: Awaited<ReturnType<typeof startTrap>>;
		beforeAll(async () => (trap = await startTrap()));
		afterAll(async () => await trap.close());

		it('A6: a cross-host redirect of a GET fails naming the status and host (no path, no query); the other host gets nothing', async () => {
			const engine = await loggedInEngine();
			sandbox.faults.inject({
				method: 'GET',
				path: '/api/contacts/',
				kind: 'redirect',
				status: 302,
				location: `${trap.url}/collect?secret=1`,
			});
			const result = await engine.run({ parameters: listContacts });
			expect(result.error?.message).toBe(
				`The service answered HTTP 302 with a redirect to another host (127.0.0.1:${trap.port}); it was not followed`,
			);
			expect(visibleText(result)).not.toMatch(/collect|secret=1/);
			expect(trap.requests).toEqual([]);
		});

		it('A6: a 307 on the login (which would re-post the password) is not followed; the other host gets nothing', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			sandbox.faults.inject({
				method: 'POST',
				path: '/api/login_check',
				kind: 'redirect',
				status: 307,
				location: `${trap.url}/login`,
			});
			const result = await engine.run({ parameters: listContacts });
			expect(result.error?.message).toMatch(
				/^Login to the Commerce Messaging service failed: The service answered HTTP 307 with a redirect to another host/,
			);
			expect(visibleText(result)).not.toContain(DEMO.password);
			expect(trap.requests).toEqual([]);
		});

		it('A6: a POST redirected, even to the same host, is not re-sent', async () => {
			const engine = await loggedInEngine();
			const start = sandbox.state.requests.length;
			sandbox.faults.inject({
				method: 'POST',
				path: '/api/contacts/',
				kind: 'redirect',
				status: 307,
				location: `${sandbox.url}/api/contacts/`,
			});
			const result = await engine.run({ parameters: createContact('+4915277700001') });
			expect(result.error?.message).toMatch(/HTTP 307 with a redirect for a POST on the same host/);
			expect(since(start).filter((r) => r.path === '/api/contacts/')).toHaveLength(1);
		});

		it('A6: https to http is refused', async () => {
			// A loopback https Base URL cannot be served here; the credential's signer is checked directly instead.
			const { Address } = await import('../../transport/address');
			const { ROUTES } = await import('../../transport/routes');
			const refusal = new Address('https://api.example.com', ROUTES.contactList).reroute(301, {
				location: 'http://api.example.com/api/contacts/',
			});
			expect(refusal).toMatchObject({ message: expect.stringMatching(/from https to http/) });
		});

		it('A6: a same-origin redirect of a read (a server adding a slash) is followed once; a second one is refused', async () => {
			const engine = await loggedInEngine();
			let start = sandbox.state.requests.length;
			sandbox.faults.inject({
				method: 'GET',
				path: '/api/contacts/',
				kind: 'redirect',
				status: 301,
				location: `${sandbox.url}/api/contacts/?currentPage=1&page=1&limit=1`,
				times: 1,
			});
			const ok = await engine.run({ parameters: listContacts });
			expect(ok.error).toBeUndefined();
			expect(ok.items).toHaveLength(1);
			expect(since(start).map((r) => r.status)).toEqual([301, 200]);

			start = sandbox.state.requests.length;
			sandbox.faults.inject({
				method: 'GET',
				path: '/api/contacts/',
				kind: 'redirect',
				status: 301,
				location: '/api/contacts/',
				times: 5,
			});
			const loop = await engine.run({ parameters: listContacts });
			expect(loop.error?.message).toMatch(/HTTP 301 with a redirect for a GET on the same host/);
			expect(since(start)).toHaveLength(2);
		});

		it('A6: the credential signs only its own origin (as used by the HTTP Request node), and turns redirects off', async () => {
			const credential = new CommerceMessagingApi();
			const fields = { ...credentialsFor(sandbox), pluginIntegration: true };
			// A token as a login stores it: sealed for the account that obtained it.
			const data = {
				...fields,
				sessionToken: 'header.payload.signature',
				sessionTokenSeal: sealFor(readCredentials(fields)),
			};
			const authenticate = credential.authenticate as unknown as (
				d: object,
				o: object,
			) => Promise<Record<string, unknown>>;
			await expect(authenticate(data, { url: `${trap.url}/x`, method: 'GET' })).rejects.toThrow(
				new RegExp(
					`only signs requests to its own service \\(${sandbox.url}\\); this request goes to 127\\.0\\.0\\.1:${trap.port}`,
				),
			);
			await expect(authenticate(data, { uri: `${trap.url}/x`, method: 'GET' })).rejects.toThrow(
				/only signs requests/,
			);
			await expect(authenticate(data, { url: '/api/contacts/', method: 'GET' })).rejects.toThrow(
				/not a full URL/,
			);
			const signed = await authenticate(data, {
				url: `${sandbox.url}/api/contacts/`,
				method: 'GET',
			});
			expect(signed).toMatchObject({
				headers: { Authorization: 'Bearer header.payload.signature', 'x-api-key': DEMO.pluginKey },
				disableFollowRedirect: true,
				followRedirect: false,
				followAllRedirects: false,
			});
			expect(
				await authenticate(data, { baseURL: sandbox.url, url: '/api/contacts/', method: 'GET' }),
			).toBeTruthy();
		});
	});

	describe('A6: redaction and credential fields checked before any login', () => {
		it("A6: a service that echoes the request in its errors leaks nothing through errors or n8n's log", async () => {
			const logs = captureLogs();
			try {
				// The login's echo quotes the password from the request body.
				const engine = new Engine(credentialsFor(sandbox));
				sandbox.faults.inject({
					method: 'POST',
					path: '/api/login_check',
					kind: 'echo-headers',
					status: 400,
					format: 'json',
				});
				const login = await engine.run({ parameters: listContacts });
				expect(login.error?.message).toMatch(
					/^Login to the Commerce Messaging service failed: Request failed/,
				);
				expect(login.error?.message).toContain('[redacted]');
				expect(visibleText(login)).not.toContain(DEMO.password);

				// A product call's echo quotes the Authorization and x-api-key headers.
				const products = await loggedInEngine();
				const token = String(products.storedCredentials.sessionToken);
				for (const format of ['json', 'html']) {
					sandbox.faults.inject({
						method: 'GET',
						path: '/api/v1/products/',
						kind: 'echo-headers',
						status: 400,
						format,
					});
					const result = await products.run({
						parameters: { resource: 'product', operation: 'getAll', returnAll: false, limit: 1 },
					});
					expect(result.error).toBeDefined();
					if (format === 'json') {
						expect(result.error?.message).toContain('Authorization: Bearer [redacted]');
						expect(result.error?.message).toContain('x-api-key: [redacted]');
					}
					for (const secret of [token, DEMO.pluginKey, DEMO.password])
						expect(visibleText(result)).not.toContain(secret);
				}
				for (const secret of [token, DEMO.pluginKey, DEMO.password])
					expect(logs.text()).not.toContain(secret);
			} finally {
				logs.restore();
			}
		});

		it('A6: a Plugin API Key or password pasted with spaces around it is redacted as sent, trimmed', async () => {
			const logs = captureLogs();
			try {
				const engine = new Engine(
					credentialsFor(sandbox, DEMO, { pluginApiKey: `\t${DEMO.pluginKey} ` }),
				);
				sandbox.faults.inject({
					method: 'GET',
					path: '/api/v1/products/',
					kind: 'echo-headers',
					status: 400,
					format: 'json',
				});
				const result = await engine.run({
					parameters: { resource: 'product', operation: 'getAll', returnAll: false, limit: 1 },
				});
				expect(result.error?.message).toContain('x-api-key: [redacted]');
				expect(visibleText(result)).not.toContain(DEMO.pluginKey);
				expect(logs.text()).not.toContain(DEMO.pluginKey);
			} finally {
				logs.restore();
			}
			// A service that trims the password it quotes.
			expect(redactText(`Invalid password ${DEMO.password}`, [` ${DEMO.password} `])).toBe(
				'Invalid password [redacted]',
			);
		});

		it('A6: a line break or a non-Latin-1 character in a header field fails naming the field, before any login', async () => {
			const start = sandbox.state.logins.length;
			for (const [extra, field] of [
				[{ pluginApiKey: 'key\r\nX-Evil: 1' }, 'Plugin API Key'],
				[{ pluginBaseUri: 'https://店.example' }, 'Shop Base URI'],
				[{ pluginPlatformType: 'shop\nify' }, 'Platform Type'],
			] as const) {
				const result = await new Engine(credentialsFor(sandbox, DEMO, extra)).run({
					parameters: listContacts,
				});
				expect(result.error?.message).toContain(`"${field}"`);
				expect(result.error?.description).toMatch(
					/Fix this field in the Commerce Messaging credential/,
				);
			}
			expect(sandbox.state.logins.length).toBe(start);
		});

		it('A6: a Base URL with user:pass@ is refused before any login, and never repeated', async () => {
			const start = sandbox.state.logins.length;
			const baseUrl = sandbox.url.replace('http://', 'http://admin:Sup3rSecret@');
			const result = await new Engine(credentialsFor(sandbox, DEMO, { baseUrl })).run({
				parameters: listContacts,
			});
			expect(result.error?.message).toMatch(/must not contain a user name or password/);
			expect(visibleText(result)).not.toContain('Sup3rSecret');
			expect(sandbox.state.logins.length).toBe(start);
		});
	});

	describe('A3: every token problem heals with one login', () => {
		it.each(['jwt-invalid', 'jwt-not-found', '401-empty', 'expired-token-401'])(
			'A3: a %s answer drops the token, logs in once and retries once',
			async (kind) => {
				const engine = await loggedInEngine();
				const start = sandbox.state.requests.length;
				sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind, times: 1 });
				const result = await engine.run({ parameters: listContacts });
				expect(result.error).toBeUndefined();
				expect(engine.logins).toBe(2);
				expect(since(start).map((r) => `${r.path} ${r.status}`)).toEqual([
					'/api/contacts/ 401',
					'/api/login_check 200',
					'/api/contacts/ 200',
				]);
			},
		);

		it('A3: revoked tokens and a rotated signing key cost exactly one new login', async () => {
			const engine = await loggedInEngine();
			(sandbox as unknown as { revokeTokens(): void }).revokeTokens();
			expect((await engine.run({ parameters: listContacts })).error).toBeUndefined();
			expect(engine.logins).toBe(2);
			(sandbox as unknown as { rotateSigningKey(): void }).rotateSigningKey();
			expect((await engine.run({ parameters: listContacts })).error).toBeUndefined();
			expect(engine.logins).toBe(3);
		});

		it('A3: a refused token is replaced by a fresh login, never by an older token another credential of the account held (as after the HTTP Request node logged in)', async () => {
			// This process knows the token of the account's first login.
			await loggedInEngine();
			// A second credential of the account got a token of its own outside this node (n8n's HTTP Request node logs in
			// by itself), then the service rotated its signing key: both tokens are refused now.
			const credentials = credentialsFor(sandbox);
			const sessionToken = (
				sandbox as unknown as { issueToken(username: string, ttlSeconds: number): string }
			).issueToken(DEMO.username, 7200);
			(sandbox as unknown as { rotateSigningKey(): void }).rotateSigningKey();
			const second = new Engine({
				...credentials,
				sessionToken,
				loginReceivedAt: Date.now(),
				sessionTokenSeal: sealFor(readCredentials(credentials)),
			});
			const start = sandbox.state.requests.length;
			const result = await second.run({ parameters: listContacts });
			expect(result.error).toBeUndefined();
			expect(
				(sandbox.state.requests.slice(start) as Logged[]).map((r) => `${r.path} ${r.status}`),
			).toEqual(['/api/contacts/ 401', '/api/login_check 200', '/api/contacts/ 200']);
		});

		it('A3: a refusal right after the fresh login is an error that says so, never a loop', async () => {
			const engine = await loggedInEngine();
			const start = sandbox.state.requests.length;
			sandbox.faults.inject({
				method: 'GET',
				path: '/api/contacts/',
				kind: 'jwt-invalid',
				times: 20,
			});
			const result = await engine.run({ parameters: listContacts });
			expect(result.error?.message).toMatch(
				/refused the session token right after a fresh login: Invalid JWT Token/,
			);
			expect(since(start).filter((r) => r.path === '/api/contacts/')).toHaveLength(2);
			expect(engine.logins).toBe(2);
		});

		it.each([7200, -7200])(
			'A3: with the service clock %i s off, 10 pushes cost one login',
			async (skew) => {
				const skewed = await startSandbox({ clockSkewSeconds: skew });
				try {
					const engine = new Engine(credentialsFor(skewed));
					for (let i = 0; i < 10; i++) {
						expect(
							(await engine.run({ parameters: pushOrder(`SKEW-${skew}-${i}`) })).error,
						).toBeUndefined();
					}
					expect(engine.logins).toBe(1);
					expect(skewed.state.requests).toHaveLength(11);
				} finally {
					await skewed.close();
				}
			},
		);

		it('A3: the trigger reads its credential at every poll: an edited credential applies at the next poll', async () => {
			const harness = new PollHarness(credentialsFor(sandbox), { event: 'newContact' });
			expect((await harness.activate()).error).toBeUndefined();
			harness.credentialsHelper.setCredentials(
				'commerceMessagingApi',
				credentialsFor(sandbox, OTHER),
			);
			expect((await harness.poll()).error).toBeUndefined();
			expect(harness.logins).toBe(2);
			expect(sandbox.state.logins.at(-1)).toMatchObject({ username: OTHER.username });
		});
	});

	describe('Bounded in time', () => {
		it('L1: a service that hangs fails within the budget with a message that says it timed out; a safe GET is retried', async () => {
			const engine = await loggedInEngine();
			const start = sandbox.state.requests.length;
			sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'hang', times: 10 });
			const result = await engine.run({
				parameters: {
					...listContacts,
					requestOptions: { timeoutSeconds: 1, maxRetryWaitSeconds: 4 },
				},
			});
			expect(result.error?.message).toMatch(
				/did not answer in time: the request timed out after 1(\.\d)? s/,
			);
			expect(result.error?.description).toMatch(/retry budget/);
			const attempts = since(start).filter((r) => r.path === '/api/contacts/').length;
			expect(attempts).toBeGreaterThanOrEqual(2);
			expect(attempts).toBeLessThanOrEqual(3);
		});

		it('L1: a POST that times out is not sent again (the service may have processed it)', async () => {
			const engine = await loggedInEngine();
			const start = sandbox.state.requests.length;
			sandbox.faults.inject({ method: 'POST', path: '/api/contacts/', kind: 'hang', times: 10 });
			const result = await engine.run({
				parameters: createContact('+4915277700002', { timeoutSeconds: 1 }),
			});
			expect(result.error?.message).toMatch(/timed out after 1(\.\d)? s/);
			expect(result.error?.description).toMatch(/Not retried automatically/);
			expect(since(start).filter((r) => r.path === '/api/contacts/')).toHaveLength(1);
		});

		it('L1: a 20-second burst of 503s on a GET is survived with the default retry settings', async () => {
			const engine = await loggedInEngine();
			sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '503', forMs: 20_000 });
			const result = await engine.run({ parameters: listContacts });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
		}, 120_000);

		it.each(['-5', '12, 13'])(
			'L1/E5: a garbage Retry-After (%s) falls back to the backoff, never an immediate retry',
			async (raw) => {
				const engine = await loggedInEngine();
				const start = sandbox.state.requests.length;
				sandbox.faults.inject({
					method: 'GET',
					path: '/api/contacts/',
					kind: '429',
					retryAfterRaw: raw,
					times: 1,
				});
				const result = await engine.run({ parameters: listContacts });
				expect(result.error).toBeUndefined();
				const [limited, retried] = since(start);
				expect(limited.status).toBe(429);
				expect(retried.at - limited.at).toBeGreaterThanOrEqual(450);
			},
		);
	});

	describe('Every server the document allows', () => {
		const modes = ['slash', 'noslash', 'redirect-to-slash', 'redirect-to-noslash'];

		it.each(modes)(
			'V1/E6: order history served as "%s": Get History and the New Order trigger work, no extra request after the first',
			async (mode) => {
				const variant = await startSandbox({ paths: { orderHistory: mode } });
				try {
					const engine = new Engine(credentialsFor(variant));
					expect(
						(await engine.run({ parameters: pushOrder(`PATH-${mode}`) })).error,
					).toBeUndefined();
					const first = await engine.run({ parameters: history });
					expect(first.error).toBeUndefined();
					expect(first.items.length).toBeGreaterThan(0);
					const start = variant.state.requests.length;
					expect((await engine.run({ parameters: history })).error).toBeUndefined();
					const steady = (variant.state.requests.slice(start) as Logged[]).map((r) => r.status);
					expect(steady).toEqual([200]);

					const harness = new PollHarness(credentialsFor(variant), { event: 'newOrder' });
					expect((await harness.activate()).error).toBeUndefined();
					expect((await harness.fetchTestEvent()).items.length).toBe(1);
				} finally {
					await variant.close();
				}
			},
		);

		it.each(modes)(
			'A1/E6: login served as "%s" works, and costs one request once the path is known',
			async (mode) => {
				const variant = await startSandbox({ paths: { login: mode } });
				try {
					expect(
						(await new Engine(credentialsFor(variant)).run({ parameters: listContacts })).error,
					).toBeUndefined();
					const start = variant.state.requests.length;
					const again = new Engine(credentialsFor(variant));
					expect((await again.run({ parameters: listContacts })).error).toBeUndefined();
					expect((variant.state.requests.slice(start) as Logged[]).map((r) => r.status)).toEqual([
						200, 200,
					]);
				} finally {
					await variant.close();
				}
			},
		);

		it.each(['ok', 'missing'])(
			'E1: success envelopes whose status is "%s" are successes',
			async (successStatus) => {
				const variant = await startSandbox({ successStatus });
				try {
					const engine = new Engine(credentialsFor(variant));
					const created = await engine.run({ parameters: createContact('+4915277700003') });
					expect(created.error).toBeUndefined();
					expect(created.items[0].json.id).toBeDefined();
					const listed = await engine.run({ parameters: listContacts });
					expect(listed.error).toBeUndefined();
					expect(listed.items).toHaveLength(1);
				} finally {
					await variant.close();
				}
			},
		);

		it.each(['401-message', '403-message', '403-code'])(
			'A4: an API-access refusal answered as %s is reported as A4, on the first call, after one login',
			async (apiAccessRefusal) => {
				const variant = await startSandbox({ apiAccessRefusal });
				try {
					const engine = new Engine(credentialsFor(variant, NO_ACCESS));
					const result = await engine.run({ parameters: listContacts });
					expect(result.error?.message).toMatch(/^API access is disabled for this account/);
					expect(result.error?.description).toMatch(/login worked/i);
					expect(result.error?.description).not.toMatch(/check the username, password/i);
					expect(engine.logins).toBe(1);
					expect((variant.state.requests as Logged[]).map((r) => r.path)).toEqual([
						'/api/login_check',
						'/api/contacts/',
					]);
				} finally {
					await variant.close();
				}
			},
		);

		it('A4: any other 403 is reported as what it is, without a new login', async () => {
			const engine = await loggedInEngine();
			sandbox.faults.inject({
				method: 'GET',
				path: '/api/contacts/',
				kind: 'forbidden-403',
				times: 1,
			});
			const result = await engine.run({ parameters: listContacts });
			expect(result.error?.message).toBe('Access denied: insufficient role [FORBIDDEN]');
			expect(engine.logins).toBe(1);
		});

		it('A5: products with a JWT only work on a service that does not require the plugin headers', async () => {
			const variant = await startSandbox({ pluginHeaders: 'optional' });
			try {
				const engine = new Engine(credentialsFor(variant, DEMO, { pluginIntegration: false }));
				const result = await engine.run({
					parameters: { resource: 'product', operation: 'getAll', returnAll: false, limit: 2 },
				});
				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(2);
			} finally {
				await variant.close();
			}
		});
	});
});
