/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in jest, not inside n8n; the password is the test's own */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Engine, visibleText } from '../../tools/harness/engine';
import { isLoginRequest, startHostile, type HostileServer } from '../../tools/harness/hostile';

/**
 * Rule A6 against a service that echoes what it received: the token it was sent and the password of the login, in
 * an error body nested deeper than anyone would look, and in a successful answer. Nothing of them reaches an
 * output, an error or the run's persisted error.
 */

const PASSWORD = 'echoed-password-4711';
const credentials = (server: HostileServer) => ({
	baseUrl: server.url,
	username: 'alice@shop.test',
	password: PASSWORD,
});
const listContacts = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 5 };

/** `value` wrapped in `depth` objects: {level: {level: ... value}}. */
const nested = (depth: number, value: unknown): unknown =>
	depth === 0 ? value : { level: nested(depth - 1, value) };

async function withEcho(
	answer: (token: string) => { status: number; text: string },
	body: (server: HostileServer) => Promise<void>,
) {
	const server = await startHostile((request: IncomingMessage, response: ServerResponse) => {
		if (isLoginRequest(request)) return false;
		const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
		const { status, text } = answer(token);
		response.writeHead(status, { 'content-type': 'application/json' });
		response.end(text);
		return true;
	});
	try {
		await body(server);
	} finally {
		await server.close();
	}
}

const tokenOf = (server: HostileServer) =>
	String(server.calls()[0]?.authorization ?? '').replace(/^Bearer /, '');

describe('A6: what the service echoes never leaves the node', () => {
	it('A6: a token and password nested 30 levels deep in an error body reach no error, not even the persisted errorResponse', async () => {
		await withEcho(
			(token) => ({
				status: 400,
				text: JSON.stringify({
					status: 'error',
					code: 'BAD',
					message: 'Refused',
					data: nested(30, { header: `Bearer ${token}`, token, password: PASSWORD }),
				}),
			}),
			async (server) => {
				const engine = new Engine(credentials(server));
				const result = await engine.run({ parameters: listContacts });
				expect(result.error?.message).toMatch(/Refused/);
				const token = tokenOf(server);
				expect(token.length).toBeGreaterThan(20);
				const persisted = JSON.stringify(result.run.data.resultData.error);
				expect(persisted).toContain('level');
				for (const text of [persisted, visibleText(result), JSON.stringify(result.error)]) {
					expect(text).not.toContain(token);
					expect(text).not.toContain(PASSWORD);
				}
			},
		);
	});

	it('A6: a successful answer that echoes the token and the password is output with both redacted', async () => {
		await withEcho(
			(token) => ({
				status: 200,
				text: JSON.stringify({
					status: 'success',
					data: [{ id: 1, seen: `Bearer ${token}`, nested: nested(12, PASSWORD) }],
				}),
			}),
			async (server) => {
				const engine = new Engine(credentials(server));
				const result = await engine.run({ parameters: listContacts });
				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(1);
				const text = JSON.stringify(result.items);
				expect(text).toContain('[redacted]');
				expect(text).not.toContain(tokenOf(server));
				expect(text).not.toContain(PASSWORD);
				expect(result.items[0].json.id).toBe(1);
			},
		);
	});

	it('A6: the same when the answer writes the password with \\u escapes', async () => {
		const escaped = [...PASSWORD]
			.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
			.join('');
		await withEcho(
			() => ({ status: 200, text: `{"status":"success","data":[{"id":2,"login":"${escaped}"}]}` }),
			async (server) => {
				const engine = new Engine(credentials(server));
				const result = await engine.run({ parameters: listContacts });
				expect(result.error).toBeUndefined();
				expect(result.items[0].json).toEqual({ id: 2, login: '[redacted]' });
			},
		);
	});
});

/**
 * A page that is not JSON (a proxy's or a framework's debug page) is quoted in the error, cut short and on one line:
 * the secrets go before it is cut or its spaces joined, and again once HTML's character references are read.
 */
describe('A6: a secret in a page that is not JSON never leaves the node', () => {
	async function runAgainst(
		password: string,
		answer: (request: IncomingMessage, token: string) => { type: string; text: string },
		loginToo = false,
	) {
		const token = 'tok-0123456789abcdefghij-tok';
		const server = await startHostile((request: IncomingMessage, response: ServerResponse) => {
			request.resume();
			if (isLoginRequest(request) && !loginToo) {
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ token }));
			} else {
				const { type, text } = answer(request, token);
				response.writeHead(400, { 'content-type': type });
				response.end(text);
			}
			return true;
		});
		try {
			const result = await new Engine({ ...credentials(server), password }).run({
				parameters: listContacts,
			});
			expect(result.error?.message).toMatch(/HTTP 400 with (an HTML page|a body that is not JSON)/);
			return JSON.stringify({
				visible: visibleText(result),
				error: JSON.stringify(result.error),
				run: result.run,
			});
		} finally {
			await server.close();
		}
	}

	it('A6: a token that straddles the cut of the quote leaves none of itself behind', async () => {
		const seen = await runAgainst(PASSWORD, (_request, token) => ({
			type: 'text/plain',
			text: `${'B'.repeat(105)} token=${token}`,
		}));
		expect(seen).not.toContain('tok-0123');
	});

	it('A6: a login page quoting the password in HTML character references, or with its spaces doubled, quotes none of it', async () => {
		const withReferences = 'Tr0ub&dor"3<x>';
		const referenced = 'Tr0ub&amp;dor&quot;3&lt;x&gt;';
		const seenReferenced = await runAgainst(
			withReferences,
			() => ({
				type: 'text/html',
				text: `<html><body><p>password=${referenced}</p></body></html>`,
			}),
			true,
		);
		expect(seenReferenced).not.toContain('Tr0ub');
		const spaced = 'correct horse  battery staple';
		const seenSpaced = await runAgainst(
			spaced,
			() => ({
				type: 'text/html',
				text: `<html><body><p>${'C'.repeat(95)} password: ${spaced}</p></body></html>`,
			}),
			true,
		);
		expect(seenSpaced).not.toContain('correct horse');
		// A password that looks like a tag is found before the page loses its tags.
		const tagged = 'Pa<ss>word-2024!';
		const seenTagged = await runAgainst(
			tagged,
			() => ({
				type: 'text/html',
				text: `<html><body><p>{"password":"${tagged}"}</p></body></html>`,
			}),
			true,
		);
		expect(seenTagged).not.toContain('word-2024');
	});
});

/**
 * Every form a service may write a secret in: PHP's json_encode (`\/`), JSON `\u` escapes of every character, the
 * Full Envelope's `message`, an object key (in an output, and in the stored error of a failed run), URL encoding
 * (`%XX`, and `+` for a space). For the password, the plugin API key and the session token, each with characters
 * those forms change.
 */
describe('A6: a secret echoed in any form never leaves the node', () => {
	const SECRETS = {
		password: 'pa/ss"wörd 1+2',
		'plugin key': 'plugin/key "7"+x',
		token: 'tok/en+va"lue 42/x',
	} as const;
	type SecretName = keyof typeof SECRETS;
	const FORMS = ['php', 'unicode', 'envelope', 'key', 'error key', 'url'] as const;
	type Form = (typeof FORMS)[number];

	const unicode = (text: string) =>
		[...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

	/** The answer of GET /api/echo?form=...&secret=... : the secret written in that form. */
	function echo(form: Form, secret: string): { status: number; text: string } {
		const success = (data: unknown, message?: string) =>
			JSON.stringify({ status: 'success', ...(message ? { message } : {}), data });
		switch (form) {
			case 'php':
				return { status: 200, text: success({ echo: `you sent ${secret}` }).replace(/\//g, '\\/') };
			case 'unicode':
				return { status: 200, text: `{"status":"success","data":{"echo":"${unicode(secret)}"}}` };
			case 'envelope':
				return { status: 200, text: success({ ok: true }, `Saved for ${secret}`) };
			case 'key':
				return { status: 200, text: success({ [secret]: true, ok: 1 }) };
			case 'error key':
				return {
					status: 400,
					text: JSON.stringify({
						status: 'error',
						code: 'BAD',
						message: 'Refused',
						data: { [secret]: 'x' },
					}),
				};
			case 'url':
				return {
					status: 200,
					text: success({
						link: `https://x.example/?p=${encodeURIComponent(secret)}&q=${new URLSearchParams({ s: secret }).toString()}`,
					}),
				};
		}
	}

	/** Everything a user, a log or n8n's database could see of a run, errors with all their own properties. */
	const everything = (value: unknown) =>
		JSON.stringify(value, (_key, entry) =>
			entry instanceof Error
				? Object.fromEntries(
						Object.getOwnPropertyNames(entry).map((name) => [
							name,
							(entry as unknown as Record<string, unknown>)[name],
						]),
					)
				: entry,
		);

	/** The forms of a secret that could survive in an output: as it is (JSON-escaped by the output), URL-encoded. */
	const tracesOf = (secret: string) => [
		JSON.stringify(secret).slice(1, -1),
		encodeURIComponent(secret),
		encodeURIComponent(secret).toLowerCase(),
		new URLSearchParams({ s: secret }).toString().slice(2),
		JSON.stringify(secret.split('/')[0].length >= 4 ? secret.split('/')[1] : secret).slice(1, -1),
	];

	let server: HostileServer;
	beforeAll(async () => {
		server = await startHostile((request: IncomingMessage, response: ServerResponse) => {
			if (isLoginRequest(request)) {
				request.resume();
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ token: SECRETS.token }));
				return true;
			}
			const url = new URL(request.url ?? '', 'http://x');
			const { status, text } = echo(
				url.searchParams.get('form') as Form,
				SECRETS[url.searchParams.get('secret') as SecretName],
			);
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(text);
			return true;
		});
	});
	afterAll(async () => await server.close());

	const cases = (Object.keys(SECRETS) as SecretName[]).flatMap((secret) =>
		FORMS.map((form) => [secret, form] as const),
	);

	it.each(cases)(
		'A6: the %s, echoed as %s, is redacted wherever it would show',
		async (secret, form) => {
			const engine = new Engine({
				baseUrl: server.url,
				username: 'alice@shop.test',
				password: SECRETS.password,
				pluginIntegration: true,
				pluginApiKey: SECRETS['plugin key'],
				pluginPlatformType: 'custom',
				pluginBaseUri: 'https://shop.example.com',
			});
			const result = await engine.run({
				parameters: {
					resource: 'customApiCall',
					operation: 'request',
					method: 'GET',
					path: '/api/echo',
					queryParameters: {
						parameter: [
							{ name: 'form', value: form },
							{ name: 'secret', value: secret },
						],
					},
					options: { response: 'envelope' },
				},
			});
			const seen = everything({ items: result.items, error: result.error, run: result.run });
			if (form === 'error key') expect(result.error?.message).toMatch(/Refused/);
			else expect(result.error).toBeUndefined();
			expect(seen).toContain('[redacted]');
			for (const trace of tracesOf(SECRETS[secret])) expect(seen).not.toContain(trace);
		},
	);
});

describe('A6: session tokens up to the 16 KB cap, echoed through a list whose answers hold \\/', () => {
	const randomToken = (length: number) => {
		let seed = length;
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./+=';
		return Array.from({ length }, () => {
			seed = (seed * 16807) % 2147483647;
			return alphabet[seed % alphabet.length];
		}).join('');
	};
	const tokens = [4_000, 8_000, 16_000].flatMap((length) => [
		['random', length, randomToken(length)] as const,
		['periodic', length, 'ab/c'.repeat(length / 4)] as const,
	]);
	/** As PHP's json_encode writes a string: every slash escaped. */
	const php = (value: unknown) => JSON.stringify(value).replace(/\//g, '\\/');

	it.each(tokens)(
		'A6: a %s token of %i characters reaches no output, error or stored run, and no answer fails',
		async (_kind, _length, token) => {
			const server = await startHostile((request: IncomingMessage, response: ServerResponse) => {
				response.writeHead(200, { 'content-type': 'application/json' });
				if (isLoginRequest(request)) {
					request.resume();
					response.end(JSON.stringify({ token }));
					return true;
				}
				// Two pages of one contact each, each echoing the token; the second run's call is refused with it.
				const url = new URL(request.url ?? '', 'http://x');
				const page = Number(url.searchParams.get('page'));
				if (url.searchParams.get('fail')) {
					response.statusCode = 400;
					response.end(
						php({
							status: 'error',
							code: 'BAD',
							message: `Refused for ${token}`,
							data: { at: 'https://x.example/' },
						}),
					);
					return true;
				}
				response.end(
					php({
						status: 'success',
						data: {
							items: [
								{ id: page, url: `https://shop.example.com/c/${page}`, note: `seen ${token}` },
							],
							total: 2,
						},
					}),
				);
				return true;
			});
			try {
				const engine = new Engine(credentials(server));
				const list = await engine.run({
					parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
				});
				expect(list.error).toBeUndefined();
				expect(list.items.map((item) => item.json.id)).toEqual([1, 2]);
				expect(list.items[0].json.note).toBe('seen [redacted]');
				const refused = await engine.run({
					parameters: {
						resource: 'customApiCall',
						operation: 'request',
						method: 'GET',
						path: '/api/contacts/',
						queryParameters: { parameter: [{ name: 'fail', value: '1' }] },
					},
				});
				expect(refused.error?.message).toMatch(/Refused for \[redacted\]/);
				// The token was sent, so the search is for something real: it is in every request's header.
				expect(tokenOf(server)).toBe(token);
				for (const result of [list, refused]) {
					const seen = JSON.stringify({
						items: result.items,
						error:
							result.error &&
							Object.fromEntries(
								Object.getOwnPropertyNames(result.error).map((name) => [
									name,
									(result.error as unknown as Record<string, unknown>)[name],
								]),
							),
						run: result.run,
					});
					for (const trace of [
						token,
						php(token).slice(1, -1),
						token.slice(1_000, 1_100),
						php(token.slice(1_000, 1_100)).slice(1, -1),
					]) {
						expect(seen.includes(trace)).toBe(false);
					}
				}
			} finally {
				await server.close();
			}
		},
		30_000,
	);
});
