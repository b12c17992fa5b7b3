import { Engine } from '../../tools/harness/engine';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';
import { SIGNED_REQUEST as SIGNED, SignedRequest } from '../../tools/harness/signedRequest';

/**
 * Rule A6 on the credential's own path. n8n's HTTP Request node (predefined credential type) and the credential
 * test call the credential's preAuthentication through n8n's request helpers, with none of this package's
 * transport around it: whatever error the login throws is what n8n shows and stores. SignedRequest signs one request
 * with the credential the way the HTTP Request node does, so a login refusal that echoes the password is seen as
 * n8n would show it.
 */
describe("A6: a login refusal on the credential's own path (preAuthentication through n8n's request helpers)", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: null });
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	const signedRun = async (helper: 'legacy' | 'http') => {
		const engine = new Engine(credentialsFor(sandbox), { [SIGNED]: new SignedRequest() });
		const result = await engine.run({
			nodeType: SIGNED,
			parameters: { url: `${sandbox.url}/api/contacts/?limit=1`, helper },
		});
		// Everything n8n keeps of the run: outputs, the error as shown and as stored with the execution.
		return {
			result,
			stored: JSON.stringify(result.run.data.resultData, (_key, value: unknown) =>
				value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
			),
		};
	};

	it('works: with a sound login the signed request is answered', async () => {
		const { result } = await signedRun('http');
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'success' });
	});

	it.each(['legacy', 'http'] as const)(
		'A6: a login answered with a JSON error quoting the request body names the login, never the password (%s helper)',
		async (helper) => {
			// Every login, as n8n's legacy helper logs in a second time after any failure.
			sandbox.faults.inject({
				method: 'POST',
				path: '/api/login_check',
				kind: 'echo-headers',
				status: 401,
				format: 'json',
				times: 5,
			});
			const { result, stored } = await signedRun(helper);
			expect(result.error?.message).toMatch(/Login to the Commerce Messaging service failed/);
			// The service's message did arrive (it names the body's fields), with the password replaced.
			expect(stored).toMatch(/Request failed\. Headers: .*Body: .*username.*demo@shop\.test/);
			expect(stored).not.toContain(DEMO.password);
		},
	);
});
