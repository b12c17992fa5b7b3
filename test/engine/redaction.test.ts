/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in jest, not inside n8n; the password is the test's own */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Engine, visibleText } from '../../tools/harness/engine';
import { startHostile, type HostileServer } from '../../tools/harness/hostile';

/**
 * Rule A6 against a service that echoes what it received: the token it was sent and the password of the login, in
 * an error body nested deeper than anyone would look, and in a successful answer. Nothing of them reaches an
 * output, an error or the run's persisted error.
 */

const PASSWORD = 'echoed-password-4711';
const credentials = (server: HostileServer) => ({ baseUrl: server.url, username: 'alice@shop.test', password: PASSWORD });
const listContacts = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 5 };

const isLogin = (request: IncomingMessage) => /^\/api\/login_check/.test(request.url ?? '');

/** `value` wrapped in `depth` objects: {level: {level: ... value}}. */
const nested = (depth: number, value: unknown): unknown => (depth === 0 ? value : { level: nested(depth - 1, value) });

async function withEcho(answer: (token: string) => { status: number; text: string }, body: (server: HostileServer) => Promise<void>) {
	const server = await startHostile((request: IncomingMessage, response: ServerResponse) => {
		if (isLogin(request)) return false;
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

const tokenOf = (server: HostileServer) => String(server.calls()[0]?.authorization ?? '').replace(/^Bearer /, '');

describe('A6: what the service echoes never leaves the node', () => {
	it('A6: a token and password nested 30 levels deep in an error body reach no error, not even the persisted errorResponse', async () => {
		await withEcho(
			(token) => ({
				status: 400,
				text: JSON.stringify({ status: 'error', code: 'BAD', message: 'Refused', data: nested(30, { header: `Bearer ${token}`, token, password: PASSWORD }) }),
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
				text: JSON.stringify({ status: 'success', data: [{ id: 1, seen: `Bearer ${token}`, nested: nested(12, PASSWORD) }] }),
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
		const escaped = [...PASSWORD].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
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
