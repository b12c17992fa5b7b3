import { Engine, pairedInputs } from '../../tools/harness/engine';
import {
	credentialsFor,
	DEMO,
	startSandbox,
	type Sandbox,
	type SandboxRequestLog,
} from '../../tools/harness/sandbox';

describe("Contact, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());
	const mine = (): Array<{ id: number }> =>
		sandbox.state.contactsOf(sandbox.state.userByName(DEMO.username).id);

	it('C1: creates a contact with named fields, custom fields and tags', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'contact',
				operation: 'create',
				phone: '+49 151 2345 6789',
				firstname: 'Ada',
				lastname: 'Lovelace',
				email: 'ada@example.com',
				additionalFields: {
					tags: 'vip, newsletter',
					customFields: { field: [{ name: 'city', value: 'London' }] },
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const contact = result.items[0].json;
		expect(contact).toMatchObject({
			firstname: 'Ada',
			lastname: 'Lovelace',
			phone: '+4915123456789',
			city: 'London',
		});
		expect(contact.tags).toEqual(['vip', 'newsletter']);
		expect(pairedInputs(result)).toEqual([0]);
		const stored = sandbox.state.contacts.find((c: { id: unknown }) => c.id === contact.id);
		expect(stored).toMatchObject({ firstname: 'Ada', phone: '+4915123456789' });
	});

	it('C1: creates one contact per input item, each paired to its item', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'contact',
				operation: 'create',
				phone: '={{ $json.phone }}',
				firstname: '={{ $json.name }}',
			},
			items: [
				{ json: { phone: '+33612345678', name: 'Claude' } },
				{ json: { phone: '+34612345678', name: 'Lucia' } },
				{ json: { phone: '+39312345678', name: 'Marco' } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.firstname)).toEqual(['Claude', 'Lucia', 'Marco']);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(engine.logins).toBe(1);
	});

	it('E3: a contact without its required phone gets the service validation error naming the field', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.contacts.length;
		const result = await engine.run({
			// The phone comes from an item that lacks it, as in a real workflow (n8n itself refuses a literal empty
			// required parameter before the node runs).
			parameters: {
				resource: 'contact',
				operation: 'create',
				phone: '={{ $json.phone }}',
				firstname: 'OnlyAFirstName',
			},
			items: [{ json: { name: 'no phone here' } }],
		});
		expect(result.error?.message).toMatch(/phone/);
		expect(result.error?.message).toMatch(/VALIDATION_ERROR/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(sandbox.state.contacts.length).toBe(before);
	});

	it('E3: with Continue On Fail, a bad item becomes an error item paired to it and the others go through', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'contact',
				operation: 'create',
				phone: '={{ $json.phone }}',
				firstname: 'X',
			},
			items: [
				{ json: { phone: '+4915100000001' } },
				{ json: { phone: '' } },
				{ json: { phone: 'not a number' } },
			],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
		expect(result.items[0].json.phone).toBe('+4915100000001');
		expect(result.items[1].json).toMatchObject({
			code: 'VALIDATION_ERROR',
			fields: ['phone'],
			httpCode: '422',
		});
		expect(result.items[2].json.error).toMatch(
			/Item 2: "not a number" is not an international phone number/,
		);
	});

	const listPages = (from: number) =>
		(sandbox.state.requests as SandboxRequestLog[])
			.slice(from)
			.filter((r) => r.method === 'GET' && r.path === '/api/contacts/')
			.map((r) => new URL(r.url ?? '', sandbox.url).searchParams);

	it('C1/L3: Get Many with a Limit spanning pages stops exactly at the limit, asking only the pages it needs', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		sandbox.setConfig({ maxPageSize: 10 });
		try {
			const from = sandbox.state.requests.length;
			const result = await engine.run({
				parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 17 },
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.id)).toEqual(
				mine()
					.slice(0, 17)
					.map((c) => c.id),
			);
			expect(
				listPages(from).map((q) => [q.get('currentPage'), q.get('page'), q.get('limit')]),
			).toEqual([
				['1', '1', '17'],
				['2', '2', '17'],
			]);
		} finally {
			sandbox.setConfig({ maxPageSize: 1000 });
		}
	});

	it('C1/L3: Get Many with Return All walks every page and outputs each contact of the account once, in order', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		sandbox.setConfig({ maxPageSize: 10 });
		try {
			const from = sandbox.state.requests.length;
			const result = await engine.run({
				parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
			});
			expect(result.error).toBeUndefined();
			const expected = mine().map((c) => c.id);
			expect(expected.length).toBeGreaterThan(40);
			expect(result.items.map((item) => item.json.id)).toEqual(expected);
			expect(pairedInputs(result)).toEqual([0]);
			// The total says where the list ends: pages 1..n, each asked once, none past the end.
			const pages = listPages(from);
			expect(pages.map((q) => q.get('currentPage'))).toEqual(
				Array.from({ length: Math.ceil(expected.length / 10) }, (_, n) => String(n + 1)),
			);
			expect(
				pages.every((q) => q.get('page') === q.get('currentPage') && q.get('limit') === '1000'),
			).toBe(true);
		} finally {
			sandbox.setConfig({ maxPageSize: 1000 });
		}
	});

	it('Get Many with Simplify keeps only id, names, phone and email of each contact (a small answer for an AI agent)', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const demoId = sandbox.state.userByName(DEMO.username).id;
		sandbox.state.addContact(
			demoId,
			{ firstname: 'Tess', phone: '+4915100000777', tags: ['vip'], language: 'de' },
			new Date().toISOString(),
		);
		const full = await engine.run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
		});
		const result = await engine.run({
			parameters: { resource: 'contact', operation: 'getAll', returnAll: true, simplify: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(full.items.length);
		const tess = result.items.find((item) => item.json.phone === '+4915100000777')?.json;
		// created_at, tags and language are left out; lastname and email are null in the record, so they stay (null).
		expect(tess).toEqual({
			id: expect.any(Number),
			firstname: 'Tess',
			lastname: null,
			phone: '+4915100000777',
			email: null,
		});
		expect(full.items.find((item) => item.json.phone === '+4915100000777')?.json).toMatchObject({
			tags: ['vip'],
			created_at: expect.any(String),
		});
		for (const item of result.items)
			expect(Object.keys(item.json).sort()).toEqual([
				'email',
				'firstname',
				'id',
				'lastname',
				'phone',
			]);
		expect(pairedInputs(result)).toEqual([0]);
	});
});
