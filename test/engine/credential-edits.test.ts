import { sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE, Engine } from '../../tools/harness/engine';
import { PollHarness } from '../../tools/harness/poll';
import {
	credentialsFor,
	DEMO,
	OTHER,
	startSandbox,
	type Sandbox,
	type SandboxRequestLog,
} from '../../tools/harness/sandbox';
import { SIGNED_REQUEST, SignedRequest } from '../../tools/harness/signedRequest';

/**
 * Rules A3/A6 when a credential is edited. n8n puts a credential's stored password-type fields back when it is saved
 * from the editor, so the hidden session token survives an edit of the Base URL, username or password: these tests
 * edit the stored credential the same way (the other fields change, the hidden ones stay) and check that the old
 * token is never sent for the new account.
 */

const listContacts = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 };

/** What n8n's editor does on save: the fields as edited, the hidden stored ones (token, seal) kept. */
function editStoredCredential(
	engine: { credentialsHelper: Engine['credentialsHelper'] },
	changes: Record<string, string>,
) {
	const stored = engine.credentialsHelper.stored[CREDENTIAL_TYPE];
	engine.credentialsHelper.setCredentials(CREDENTIAL_TYPE, { ...stored, ...changes });
}

describe('A3/A6: the session token is bound to the account that obtained it', () => {
	let sandbox: Sandbox;
	let userIdOf: (username: string) => number;
	const requestsSince = (start: number, on = sandbox) =>
		(on.state.requests as SandboxRequestLog[]).slice(start);

	beforeAll(async () => {
		sandbox = await startSandbox();
		userIdOf = (username) => sandbox.state.userByName(username).id;
	});
	afterAll(async () => await sandbox.close());

	async function loggedIn(): Promise<Engine> {
		const engine = new Engine(credentialsFor(sandbox, DEMO));
		expect((await engine.run({ parameters: listContacts })).error).toBeUndefined();
		expect(engine.storedCredentials.sessionToken).toBeTruthy();
		return engine;
	}

	it('A3: after the username is changed (the token kept by n8n), the next run logs in as the new user and is served as that user', async () => {
		const engine = await loggedIn();
		editStoredCredential(engine, {
			username: OTHER.username,
			password: OTHER.password,
			pluginApiKey: OTHER.pluginKey,
		});
		const start = sandbox.state.requests.length;
		const result = await engine.run({ parameters: listContacts });
		expect(result.error).toBeUndefined();
		const served = requestsSince(start).filter((r) => r.path === '/api/contacts/');
		expect(served.map((r) => r.userId)).toEqual([userIdOf(OTHER.username)]);
		expect(sandbox.state.logins.at(-1)).toMatchObject({ username: OTHER.username });
		expect(engine.logins).toBe(2);
	});

	it('A3: a run under way when the credential is edited stops at its next login rather than store its old fields over the edit', async () => {
		const engine = await loggedIn();
		const start = sandbox.state.requests.length;
		// The first item's answer comes late; the second item's token is refused, so that item logs in again.
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'slow', delayMs: 2_000 });
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'jwt-invalid' });
		try {
			const running = engine.run({
				parameters: listContacts,
				items: [{ json: {} }, { json: {} }],
				continueOnFail: true,
			});
			// While the first item's request is under way, the user saves the credential for another account.
			while (!requestsSince(start).some((r) => r.path === '/api/contacts/')) await sleep(5);
			editStoredCredential(engine, {
				username: OTHER.username,
				password: OTHER.password,
				pluginApiKey: OTHER.pluginKey,
			});
			const result = await running;
			expect(result.items[0].json.error).toBeUndefined();
			expect(result.items[1].json.error).toMatch(
				/^Login to the Commerce Messaging service failed: the credential was edited while this run was under way/,
			);
		} finally {
			sandbox.faults.clear();
		}
		expect(engine.credentialsHelper.stored[CREDENTIAL_TYPE].username).toBe(OTHER.username);
		const next = sandbox.state.requests.length;
		expect((await engine.run({ parameters: listContacts })).error).toBeUndefined();
		expect(
			requestsSince(next)
				.filter((r) => r.path === '/api/contacts/')
				.map((r) => r.userId),
		).toEqual([userIdOf(OTHER.username)]);
	});

	it('A3: after the password is changed, the old token is not used: the new password logs in (a wrong one fails the run)', async () => {
		const engine = await loggedIn();
		editStoredCredential(engine, { password: 'a-mistyped-password' });
		const start = sandbox.state.requests.length;
		const result = await engine.run({ parameters: listContacts });
		expect(result.error?.message).toMatch(
			/^Login to the Commerce Messaging service failed: Invalid credentials/,
		);
		expect(requestsSince(start).filter((r) => r.path === '/api/contacts/')).toEqual([]);

		editStoredCredential(engine, { password: DEMO.password });
		expect((await engine.run({ parameters: listContacts })).error).toBeUndefined();
	});

	it("A6: after the Base URL is changed, the new service never receives the old service's token: its first request is the login", async () => {
		const engine = await loggedIn();
		const second = await startSandbox({ signingKey: 'another-service-signing-key' });
		try {
			editStoredCredential(engine, { baseUrl: second.url });
			const result = await engine.run({ parameters: listContacts });
			expect(result.error).toBeUndefined();
			const received = second.state.requests as SandboxRequestLog[];
			expect(received.map((r) => [r.path, r.status])).toEqual([
				['/api/login_check', 200],
				['/api/contacts/', 200],
			]);
		} finally {
			await second.close();
		}
	});

	it("A3: changing only the credential's name (or nothing) keeps the token: no extra login", async () => {
		const engine = await loggedIn();
		editStoredCredential(engine, {});
		expect((await engine.run({ parameters: listContacts })).error).toBeUndefined();
		expect(engine.logins).toBe(1);
	});

	it('A3: the trigger between two polls: an edited username logs in anew, and the poll is served as the new user', async () => {
		const harness = new PollHarness(credentialsFor(sandbox, DEMO), { event: 'newContact' });
		expect((await harness.activate()).error).toBeUndefined();
		const stored = harness.credentialsHelper.stored[CREDENTIAL_TYPE];
		harness.credentialsHelper.setCredentials(CREDENTIAL_TYPE, {
			...stored,
			username: OTHER.username,
			password: OTHER.password,
		});
		const start = sandbox.state.requests.length;
		expect((await harness.poll()).error).toBeUndefined();
		const served = requestsSince(start).filter((r) => r.path === '/api/contacts/');
		expect(served.length).toBeGreaterThan(0);
		// Served as the new user: by a fresh login, or by the token this process already holds for that account.
		expect(served.every((r) => r.userId === userIdOf(OTHER.username) && r.status === 200)).toBe(
			true,
		);
	});

	it.each(['http', 'legacy'])(
		"A6: n8n's %s request helper with the edited credential (as the HTTP Request node uses it) logs in first and never sends the old token",
		async (helper) => {
			const engine = new Engine(credentialsFor(sandbox, DEMO), {
				[SIGNED_REQUEST]: new SignedRequest(),
			});
			const read = {
				nodeType: SIGNED_REQUEST,
				parameters: { url: `${sandbox.url}/api/contacts/?limit=1`, helper },
			};
			expect((await engine.run(read)).error).toBeUndefined();
			editStoredCredential(engine, { username: OTHER.username, password: OTHER.password });
			const start = sandbox.state.requests.length;
			const logins = engine.logins;
			const result = await engine.run(read);
			expect(result.error).toBeUndefined();
			// Signing refuses the old token the way the service would, so n8n logs in with the edited fields before
			// anything is sent: one request, with the new account's token.
			const calls = requestsSince(start).filter((r) => r.path === '/api/contacts/');
			expect(calls.map((r) => [r.status, r.authorization, r.userId])).toEqual([
				[200, true, userIdOf(OTHER.username)],
			]);
			expect(engine.logins).toBe(logins + 1);
		},
	);

	describe('a service that answers a call without a token with 403, not 401', () => {
		beforeAll(() => sandbox.setConfig({ missingToken: '403' }));
		afterAll(() => sandbox.setConfig({ missingToken: '401' }));

		it('A3: after an edit the node logs in once and is served as the new user', async () => {
			// A user this process holds no token for, so the run must log in.
			sandbox.addUser({
				username: 'edited@shop.test',
				password: 'edited-password',
				apiAccess: true,
			});
			const engine = await loggedIn();
			editStoredCredential(engine, { username: 'edited@shop.test', password: 'edited-password' });
			const start = sandbox.state.requests.length;
			const result = await engine.run({ parameters: listContacts });
			expect(result.error).toBeUndefined();
			expect(requestsSince(start).map((r) => [r.path, r.status])).toEqual([
				['/api/login_check', 200],
				['/api/contacts/', 200],
			]);
			expect(engine.logins).toBe(2);
		});

		it.each(['http', 'legacy'])(
			"A3: after an edit n8n's %s request helper (the HTTP Request node's path) logs in once and succeeds",
			async (helper) => {
				const engine = new Engine(credentialsFor(sandbox, DEMO), {
					[SIGNED_REQUEST]: new SignedRequest(),
				});
				const read = {
					nodeType: SIGNED_REQUEST,
					parameters: { url: `${sandbox.url}/api/contacts/?limit=1`, helper },
				};
				expect((await engine.run(read)).error).toBeUndefined();
				editStoredCredential(engine, { username: OTHER.username, password: OTHER.password });
				const start = sandbox.state.requests.length;
				const result = await engine.run(read);
				expect(result.error).toBeUndefined();
				expect(requestsSince(start).map((r) => [r.path, r.status])).toEqual([
					['/api/login_check', 200],
					['/api/contacts/', 200],
				]);
			},
		);
	});
});
