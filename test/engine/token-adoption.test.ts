import { sleep } from 'n8n-workflow';

import { readCredentials, sealFor } from '../../transport/auth';
import { Engine } from '../../tools/harness/engine';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

type Logged = { method: string; path: string; status: number; at: number; fault?: string };

const listContacts = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 };

describe('A3: token adoption across runs of one account', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	it('A3: a run whose token was refused takes the token another run received after the refusal, without a login of its own', async () => {
		const credentials = credentialsFor(sandbox, DEMO);
		// Run B holds a token of the account obtained without a login call; then the service revokes every token.
		const oldToken = (
			sandbox as unknown as { issueToken(username: string, ttlSeconds: number): string }
		).issueToken(DEMO.username, 7200);
		sandbox.revokeTokens();
		const runB = new Engine({
			...credentials,
			sessionToken: oldToken,
			loginReceivedAt: Date.now(),
			sessionTokenSeal: sealFor(readCredentials(credentials)),
		});
		const runA = new Engine(credentials);
		const start = sandbox.state.requests.length;
		const loginsBefore = (sandbox.state.logins as unknown[]).length;

		// B's request (to be refused) is held by the service until the test lets it go (faults.clear() ends the delay).
		const hold = sandbox.faults.inject({
			method: 'GET',
			path: '/api/contacts/',
			kind: 'slow',
			delayMs: 20_000,
		}) as unknown as { hits: number };
		const resultB = runB.run({ parameters: listContacts });
		for (let waited = 0; hold.hits === 0; waited += 20) {
			if (waited > 15_000) throw new Error("run B's request never reached the service");
			await sleep(20);
		}
		// A margin so that A's token surely arrives later than B's request was sent (millisecond clocks).
		await sleep(50);

		// While B's request is in flight, run A logs in and receives a new token.
		const resultA = await runA.run({ parameters: listContacts });
		expect(resultA.error).toBeUndefined();
		expect(runA.logins).toBe(1);

		// B's request is answered now: refused (revoked token). B takes A's newer token instead of logging in.
		sandbox.faults.clear();
		const doneB = await resultB;
		expect(doneB.error).toBeUndefined();
		expect(doneB.items).toHaveLength(1);
		expect(runB.logins).toBe(0);
		expect((sandbox.state.logins as unknown[]).length - loginsBefore).toBe(1);
		expect(
			(sandbox.state.requests.slice(start) as Logged[]).map((r) => `${r.path} ${r.status}`),
		).toEqual([
			'/api/contacts/ 401',
			'/api/login_check 200',
			'/api/contacts/ 200',
			'/api/contacts/ 200',
		]);
	}, 60_000);
});
