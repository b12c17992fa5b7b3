import { Engine, visibleText } from '../../tools/harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * Rule A1: the login answer's shape is not shown. The node runs against every shape the emulator serves
 * (loginAnswer), a Contact Get Many each: one login, the token it returned used as the bearer, the contacts read.
 */
const LOGIN_ANSWERS = [
	'token',
	'token-refresh',
	'token-user',
	'access_token',
	'jwt',
	'jsend-token',
	'data-access_token',
] as const;

describe("A1: login against every login answer the emulator serves (loginAnswer), run by n8n's engine", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: null });
	});
	afterAll(async () => await sandbox.close());
	afterEach(() =>
		sandbox.setConfig({ loginAnswer: 'token', successStatus: 'success', errorCodes: 'string' }),
	);

	const listContacts = { resource: 'contact', operation: 'getAll', returnAll: false, limit: 3 };
	/** A user of its own per case: no token of an earlier case (the process keeps them per account) can be reused. */
	const freshUser = (name: string) => {
		const user = { username: `${name}@shop.test`, password: `${name}-password` };
		sandbox.addUser({ ...user, apiAccess: true });
		return user;
	};
	const loginCount = (username: string) =>
		(sandbox as unknown as { loginCount(u: string): number }).loginCount(username);

	it.each(LOGIN_ANSWERS)(
		'A1: login answer "%s": one login, its token is the bearer, Contact Get Many reads the contacts',
		async (mode) => {
			sandbox.setConfig({ loginAnswer: mode });
			const user = freshUser(`login-${mode.replace(/[^a-z]/g, '')}`);
			sandbox.state.addContact(
				sandbox.state.userByName(user.username).id,
				{ firstname: 'Ada', phone: '+4915112345678' },
				new Date().toISOString(),
			);
			const engine = new Engine(credentialsFor(sandbox, user));
			const from = sandbox.state.requests.length;

			const result = await engine.run({ parameters: listContacts });

			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.firstname)).toEqual(['Ada']);
			expect(engine.logins).toBe(1);
			expect(loginCount(user.username)).toBe(1);
			// The stored token is the one the service issued (it verifies it), and was sent as the bearer.
			const token = String(engine.storedCredentials.sessionToken);
			expect(token.split('.')).toHaveLength(3);
			const contactCalls = sandbox.state.requests
				.slice(from)
				.filter((r: { path: string }) => r.path === '/api/contacts/');
			expect(
				contactCalls.map((r: { status: number; authorization: boolean }) => [
					r.status,
					r.authorization,
				]),
			).toEqual([[200, true]]);
			expect(visibleText(result)).not.toContain(token);
		},
	);

	it.each(['ok', 'missing'] as const)(
		'A1: the JSend login answer with success status "%s" is read too',
		async (successStatus) => {
			sandbox.setConfig({ loginAnswer: 'jsend-token', successStatus });
			const user = freshUser(`login-jsend-${successStatus}`);
			const engine = new Engine(credentialsFor(sandbox, user));
			const result = await engine.run({ parameters: listContacts });
			expect(result.error).toBeUndefined();
			expect(engine.logins).toBe(1);
		},
	);

	it('A1/E2: a refused login with a numeric code names the login, the service message and code 401, never the password', async () => {
		sandbox.setConfig({ errorCodes: 'http-status' });
		const user = freshUser('login-refused');
		const engine = new Engine(credentialsFor(sandbox, { ...user, password: 'not-the-password' }));
		const result = await engine.run({ parameters: listContacts });
		expect(result.error?.message).toMatch(/Login/i);
		expect(visibleText(result)).toMatch(/Invalid credentials\./);
		expect(visibleText(result)).toMatch(/code 401/);
		expect(visibleText(result)).not.toContain('not-the-password');
	});
});
