/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- the emulator's test accounts, not real secrets */
import { CREDENTIAL_TYPE, Engine, pairedInputs, visibleText } from '../../tools/harness/engine';
import {
	credentialsFor,
	DEMO,
	NO_ACCESS,
	startSandbox,
	type Sandbox,
} from '../../tools/harness/sandbox';

const listContacts = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 };
const createContact = {
	resource: 'contact',
	operation: 'create',
	phone: '={{ $json.phone }}',
	firstname: 'Bulk',
};
const phones = (count: number, prefix = '+4915200') =>
	Array.from({ length: count }, (_, i) => ({
		json: { phone: `${prefix}${String(i).padStart(5, '0')}` },
	}));

describe("Authentication rules, through n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => {
		sandbox.faults.clear();
		sandbox.setConfig({ tokenTtlSeconds: 3600 });
	});

	it('A1: logs in with POST /api/login_check and stores the token in the credential like n8n does', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({ parameters: listContacts });
		expect(result.error).toBeUndefined();
		expect(engine.logins).toBe(1);
		const loginCalls = sandbox.state.requests.filter(
			(r: { path: string }) => r.path === '/api/login_check',
		);
		expect(loginCalls.at(-1)).toMatchObject({ method: 'POST', status: 200 });
		expect(String(engine.storedCredentials.sessionToken).split('.')).toHaveLength(3);
	});

	it('A1/A6: a wrong password fails with the service message, and the password appears nowhere', async () => {
		const password = 'S3cret-Wrong-Pa55';
		const engine = new Engine(credentialsFor(sandbox, { ...DEMO, password }));
		const result = await engine.run({ parameters: listContacts });
		expect(result.error?.message).toMatch(
			/Login to the Commerce Messaging service failed: Invalid credentials\./,
		);
		expect(result.error?.message).toMatch(/INVALID_CREDENTIALS/);
		expect(visibleText(result)).not.toContain(password);
		// Rule E2 on the error item too: the service's code, message and HTTP status, as any refusal has them.
		const item = await engine.run({ parameters: listContacts, continueOnFail: true });
		expect(item.items[0].json).toMatchObject({
			error:
				'Login to the Commerce Messaging service failed: Invalid credentials. (code INVALID_CREDENTIALS, HTTP 401)',
			code: 'INVALID_CREDENTIALS',
			serviceMessage: 'Invalid credentials.',
			httpCode: '401',
		});
	});

	it('A2: every request carries "Bearer <token>" with one space (the emulator refuses any other form)', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
		});
		expect(result.error).toBeUndefined();
		const calls = sandbox.state.requests
			.slice(before)
			.filter((r: { path: string }) => r.path === '/api/contacts/');
		expect(calls.length).toBeGreaterThan(0);
		for (const call of calls) expect(call).toMatchObject({ authorization: true, status: 200 });
	});

	it('A3: a run of many items logs in once', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const loginsBefore = sandbox.state.logins.length;
		const result = await engine.run({ parameters: createContact, items: phones(300) });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(300);
		expect(engine.logins).toBe(1);
		expect(sandbox.state.logins.length - loginsBefore).toBe(1);
	});

	it('A3: a second run reuses the stored token (n8n keeps it in the credential)', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		await engine.run({ parameters: listContacts });
		await engine.run({ parameters: listContacts });
		expect(engine.logins).toBe(1);
	});

	it('A3: a token that expires mid-run is renewed before expiry: no failed item, no request with an expired token', async () => {
		sandbox.setConfig({ tokenTtlSeconds: 1.5 });
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.requests.length;
		// ~60 items spread over >3 s by the emulator's slow answers: the run crosses at least two expiries.
		sandbox.faults.inject({
			method: 'POST',
			path: '/api/contacts/',
			kind: 'slow',
			delayMs: 60,
			times: 60,
		});
		// One at a time, so the run lasts long enough to cross the expiries (with 8 lanes it ends within one lifetime).
		const result = await engine.run({
			parameters: { ...createContact, requestOptions: { concurrency: 1 } },
			items: phones(60, '+4915300'),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(60);
		expect(result.items.every((item) => item.json.id !== undefined)).toBe(true);
		const requests = sandbox.state.requests.slice(before);
		expect(requests.filter((r: { tokenExpired?: boolean }) => r.tokenExpired)).toEqual([]);
		expect(engine.logins).toBeGreaterThanOrEqual(3);
		// At most one login per token lifetime: never more logins than lifetimes the run lasted, plus the first.
		const duration = requests.at(-1).at - requests[0].at;
		expect(engine.logins).toBeLessThanOrEqual(Math.ceil(duration / 1350) + 1);
	});

	it('A3: an expired-token answer is retried exactly once after one fresh login', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		await engine.run({ parameters: listContacts });
		sandbox.faults.inject({
			method: 'GET',
			path: '/api/contacts/',
			kind: 'expired-token-401',
			times: 1,
		});
		const before = sandbox.state.requests.length;
		const result = await engine.run({ parameters: listContacts });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(engine.logins).toBe(2);
		const paths = sandbox.state.requests
			.slice(before)
			.map((r: { path: string; status: number }) => `${r.path} ${r.status}`);
		// A login costs one request: no API-access probe after it (the first real call reports A4).
		expect(paths).toEqual(['/api/contacts/ 401', '/api/login_check 200', '/api/contacts/ 200']);
	});

	it('A3: expiry signalled in an HTTP 200 JSend body is handled the same way', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		await engine.run({ parameters: listContacts });
		sandbox.faults.inject({
			method: 'GET',
			path: '/api/contacts/',
			kind: 'expired-token-200',
			times: 1,
		});
		const result = await engine.run({ parameters: listContacts });
		expect(result.error).toBeUndefined();
		expect(engine.logins).toBe(2);
	});

	it('A3: a token refused again after the fresh login is an error, never a loop', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		sandbox.faults.inject({
			method: 'GET',
			path: '/api/contacts/',
			kind: 'expired-token-401',
			times: 50,
		});
		const before = sandbox.state.requests.length;
		const result = await engine.run({ parameters: listContacts });
		expect(result.error?.message).toMatch(/refused the session token right after a fresh login/);
		const listCalls = sandbox.state.requests
			.slice(before)
			.filter((r: { path: string }) => r.path === '/api/contacts/');
		// the first try and its single retry after one fresh login
		expect(listCalls.length).toBe(2);
		expect(engine.logins).toBe(2);
	});

	it("A4: an account without API access is told so and what to switch on, in the service's words", async () => {
		const engine = new Engine(credentialsFor(sandbox, NO_ACCESS));
		const result = await engine.run({ parameters: listContacts });
		// Recognised on the first real call (no probe after login), and worded as A4, not as a login problem.
		expect(result.error?.message).toMatch(/^API access is disabled for this account/);
		expect(result.error?.description).not.toMatch(/check the username, password/i);
		expect(result.error?.message).toMatch(/User\.hasApiAccess/);
		expect(result.error?.message).not.toMatch(/^401|Authorization failed/);
	});

	it('A4: API access withdrawn after login is reported as such, with the service code', async () => {
		sandbox.addUser({
			username: 'revoked@shop.test',
			password: 'revoked-password',
			apiAccess: true,
		});
		const engine = new Engine(
			credentialsFor(sandbox, { username: 'revoked@shop.test', password: 'revoked-password' }),
		);
		await engine.run({ parameters: listContacts });
		const user = sandbox.state.users.find(
			(u: { username: string }) => u.username === 'revoked@shop.test',
		);
		user.apiAccess = false;
		const result = await engine.run({ parameters: listContacts, continueOnFail: true });
		expect(result.items[0].json).toMatchObject({ code: 'API_ACCESS_DISABLED', httpCode: '403' });
		expect(String(result.items[0].json.error)).toMatch(/^API access is disabled for this account/);
		expect(String(result.items[0].json.description)).toMatch(/User\.hasApiAccess/);
	});

	it('A6: the Base URL must be https (http only for loopback): refused before anything is sent', async () => {
		const engine = new Engine({ ...credentialsFor(sandbox), baseUrl: 'http://api.example.com' });
		const result = await engine.run({ parameters: listContacts });
		expect(result.error?.message).toMatch(/must use https/);
		expect(engine.logins).toBe(0);
	});

	it('A6: a header value with CR/LF is refused before anything is sent, and no secret shows in outputs or errors', async () => {
		// A working credential first, so a session token is stored: the refusal must not show that either.
		const engine = new Engine(credentialsFor(sandbox));
		expect((await engine.run({ parameters: listContacts })).error).toBeUndefined();
		const token = String(engine.storedCredentials.sessionToken);
		expect(token.split('.')).toHaveLength(3);
		// The plugin key edited into one that would inject a header; the token and the account stay.
		const apiKey = `${DEMO.pluginKey}\r\nX-Injected: 1`;
		engine.credentialsHelper.setCredentials(CREDENTIAL_TYPE, {
			...engine.storedCredentials,
			pluginIntegration: true,
			pluginApiKey: apiKey,
		});
		const sent = sandbox.state.requests.length;
		const result = await engine.run({ parameters: listContacts, continueOnFail: true });
		expect(String(result.items[0].json.error)).toMatch(/line break/);
		expect(sandbox.state.requests.length).toBe(sent);
		const text = visibleText(result);
		for (const secret of ['X-Injected', DEMO.pluginKey, DEMO.password, token])
			expect(text).not.toContain(secret);
	});

	it('A6: outputs and errors of a normal run never contain the password, token or plugin key', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const ok = await engine.run({ parameters: listContacts });
		sandbox.faults.inject({
			method: 'GET',
			path: '/api/contacts/',
			kind: 'jsend-error-200',
			times: 1,
		});
		const failed = await engine.run({ parameters: listContacts });
		const token = String(engine.storedCredentials.sessionToken);
		for (const text of [visibleText(ok), visibleText(failed)]) {
			expect(text).not.toContain(DEMO.password);
			expect(text).not.toContain(token);
			expect(text).not.toContain(DEMO.pluginKey);
		}
		expect(pairedInputs(ok)).toEqual([0]);
	});
});
