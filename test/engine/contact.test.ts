import { Engine, pairedInputs } from '../harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../harness/sandbox';

describe('Contact, run by n8n\'s engine against the emulator', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());

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
		expect(contact).toMatchObject({ firstname: 'Ada', lastname: 'Lovelace', phone: '+4915123456789', city: 'London' });
		expect(contact.tags).toEqual(['vip', 'newsletter']);
		expect(pairedInputs(result)).toEqual([0]);
		const stored = sandbox.state.contacts.find((c: { id: unknown }) => c.id === contact.id);
		expect(stored).toMatchObject({ firstname: 'Ada', phone: '+4915123456789' });
	});

	it('C1: creates one contact per input item, each paired to its item', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: { resource: 'contact', operation: 'create', phone: '={{ $json.phone }}', firstname: '={{ $json.name }}' },
			items: [
				{ json: { phone: '+33612345678', name: 'Claude' } },
				{ json: { phone: '+34612345678', name: 'Lucia' } },
				{ json: { phone: '+39312345678', name: 'Marco' } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.firstname)).toEqual(['Claude', 'Lucia', 'Marco']);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(engine.logins).toBe(1);
	});

	it('E3: a contact without its required phone gets the service validation error naming the field', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.contacts.length;
		const result = await engine.run({
			// The phone comes from an item that lacks it, as in a real workflow (n8n itself refuses a literal empty
			// required parameter before the node runs).
			parameters: { resource: 'contact', operation: 'create', phone: '={{ $json.phone }}', firstname: 'OnlyAFirstName' },
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
			parameters: { resource: 'contact', operation: 'create', phone: '={{ $json.phone }}', firstname: 'X' },
			items: [{ json: { phone: '+4915100000001' } }, { json: { phone: '' } }, { json: { phone: 'not a number' } }],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
		expect(result.items[0].json.phone).toBe('+4915100000001');
		expect(result.items[1].json).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['phone'], httpCode: '422' });
		expect(result.items[2].json.error).toMatch(/Item 2: "not a number" is not an international phone number/);
	});

	it('C1/L3: Get Many with a Limit stops exactly at the limit', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({ parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 7 } });
		expect(result.items).toHaveLength(7);
		const listCalls = sandbox.state.requests.filter((r: { path: string; method: string }) => r.method === 'GET' && r.path === '/api/contacts/');
		expect(listCalls.length).toBeGreaterThanOrEqual(1);
	});

	it('C1/L3: Get Many with Return All walks every page and outputs one item per contact', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const total = sandbox.state.contacts.filter((c: { ownerId?: unknown; userId?: unknown }) => c).length;
		const result = await engine.run({ parameters: { resource: 'contact', operation: 'getAll', returnAll: true } });
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThanOrEqual(45);
		expect(result.items.length).toBeLessThanOrEqual(total);
		const ids = result.items.map((item) => item.json.id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(pairedInputs(result)).toEqual([0]);
	});
});
