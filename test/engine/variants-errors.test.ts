import { Engine, pairedInputs } from '../../tools/harness/engine';
import {
	credentialsFor,
	DEMO,
	NO_ACCESS,
	startSandbox,
	type Sandbox,
	type SandboxRequestLog,
} from '../../tools/harness/sandbox';

/**
 * Rules E2-E5, A3, A4 against a service whose error codes are numbers (errorCodes 'http-status': the HTTP status as
 * the code, as many Symfony APIs answer). The document lists no error code, so each refusal must be recognised by
 * what the document does say: a validation error names its fields (E3), missing API access is an authorization
 * error about API access (A4), a rate limit is HTTP 429 or a code in the body (E5), an unsendable template is
 * HTTP 400 carrying its state (E4), an expired token is an error response after which one login follows (A3).
 */
describe('Errors with numeric codes (errorCodes "http-status"), run by n8n\'s engine', () => {
	let sandbox: Sandbox;
	let demoId: number;
	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: null, errorCodes: 'http-status' });
		demoId = sandbox.state.userByName(DEMO.username).id;
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	const requestsSince = (from: number, path: string) =>
		(sandbox.state.requests as SandboxRequestLog[]).slice(from).filter((r) => r.path === path);
	const createContact = (phone: string) => ({
		resource: 'contact',
		operation: 'create',
		phone,
		firstname: 'Numeric',
	});

	it('E3: a validation error shows the fields it names and the numeric code', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'contact',
				operation: 'create',
				phone: '={{ $json.phone }}',
				firstname: 'NoPhone',
			},
			items: [{ json: {} }],
			continueOnFail: true,
		});
		expect(result.items[0].json).toMatchObject({ code: '422', httpCode: '422', fields: ['phone'] });
		expect(String(result.items[0].json.error)).toMatch(
			/^The service rejected the data \(field: phone\)/,
		);
	});

	it('E3: the template body a draft lacks is named too', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'template',
				operation: 'create',
				name: 'numeric_no_body',
				body: '={{ $json.text }}',
			},
			items: [{ json: {} }],
		});
		expect(result.error?.message).toMatch(/\(field: body\)/);
		expect(result.error?.httpCode).toBe('422');
	});

	it('A4: an account without API access is told so, from the message about API access (code 403)', async () => {
		const engine = new Engine(credentialsFor(sandbox, NO_ACCESS));
		const result = await engine.run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 },
		});
		expect(result.error?.message).toMatch(/^API access is disabled for this account/);
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.description).toMatch(/User\.hasApiAccess/);
	});

	it('E5/L1: a 429 with code 429 is waited out and retried, and the item goes through once', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const from = sandbox.state.requests.length;
		sandbox.faults.inject({ method: 'POST', path: '/api/contacts/', kind: '429', retryAfter: 1 });
		const result = await engine.run({ parameters: createContact('+4915277000001') });
		expect(result.error).toBeUndefined();
		const posts = requestsSince(from, '/api/contacts/');
		expect(posts.map((r) => r.status)).toEqual([429, 201]);
		expect(posts[1].at - posts[0].at).toBeGreaterThanOrEqual(1000);
		expect(
			sandbox.state
				.contactsOf(demoId)
				.filter((c: { phone: string }) => c.phone === '+4915277000001'),
		).toHaveLength(1);
	});

	it('E5: a rate limit answered HTTP 200 with code 429 in the body is retried like a 429', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const from = sandbox.state.requests.length;
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'rate-limit-200' });
		const result = await engine.run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 2 },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(requestsSince(from, '/api/contacts/').map((r) => r.status)).toEqual([200, 200]);
	});

	it.each(['DRAFT', 'PENDING'])(
		'T2/E4: sending a %s template fails with its state shown (HTTP 400, code 400)',
		async (state) => {
			const engine = new Engine(credentialsFor(sandbox));
			const template = sandbox.state.addTemplate(
				demoId,
				{ name: `numeric_${state.toLowerCase()}`, language: 'en', body: 'Hi' },
				state,
				new Date().toISOString(),
			);
			const messages = sandbox.state.messages.length;
			const result = await engine.run({
				parameters: {
					resource: 'template',
					operation: 'send',
					templateId: { __rl: true, mode: 'id', value: String(template.id) },
					phone: '+33612345678',
				},
				continueOnFail: true,
			});
			expect(pairedInputs(result)).toEqual([0]);
			expect(result.items[0].json).toMatchObject({ state, code: '400', httpCode: '400' });
			expect(String(result.items[0].json.error)).toMatch(
				new RegExp(`^The template cannot be sent: it is ${state}`),
			);
			expect(sandbox.state.messages.length).toBe(messages);
		},
	);

	it('A3: an expired token (401, code 401) costs one fresh login and one retry', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		await engine.run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 },
		});
		const from = sandbox.state.requests.length;
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'expired-token-401' });
		const result = await engine.run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 },
		});
		expect(result.error).toBeUndefined();
		expect(engine.logins).toBe(2);
		expect(requestsSince(from, '/api/contacts/').map((r) => r.status)).toEqual([401, 200]);
	});

	it('A5: missing plugin headers (403, code 403) are reported with the credential fields to fill', async () => {
		const engine = new Engine(
			credentialsFor(sandbox, { username: DEMO.username, password: DEMO.password }),
		);
		const result = await engine.run({
			parameters: { resource: 'product', operation: 'getAll', returnAll: false, limit: 1 },
		});
		expect(result.error?.message).toMatch(
			/^The service requires the shop plugin headers for this call \(fill in .*Plugin API Key/,
		);
		expect(result.error?.httpCode).toBe('403');
	});
});
