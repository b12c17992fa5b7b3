import { Engine, pairedInputs } from '../../tools/harness/engine';
import {
	credentialsFor,
	DEMO,
	OTHER,
	startSandbox,
	type Sandbox,
} from '../../tools/harness/sandbox';

type Automation = { id: number; name: string; trigger: string; userId: number };

describe("Automation, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	let orderPaid: Automation;
	let othersAutomation: Automation;

	beforeAll(async () => {
		sandbox = await startSandbox();
		const automations = [...sandbox.state.automations.values()] as Automation[];
		const demoId = sandbox.state.userByName(DEMO.username).id;
		const otherId = sandbox.state.userByName(OTHER.username).id;
		orderPaid = automations.find(
			(a) => a.userId === demoId && a.trigger === 'order_paid',
		) as Automation;
		othersAutomation = automations.find((a) => a.userId === otherId) as Automation;
	});
	afterAll(async () => await sandbox.close());

	it('V3: starts an instance with an integer automation_id and an object payload', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.automationInstances.length;
		const result = await engine.run({
			parameters: {
				resource: 'automation',
				operation: 'createInstance',
				automationId: orderPaid.id,
				payload: '{"order_id": "ORD-1001", "total": 49.9, "customer": {"phone": "+4915123456789"}}',
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			automation_id: orderPaid.id,
			status: 'started',
			payload: { order_id: 'ORD-1001', total: 49.9, customer: { phone: '+4915123456789' } },
		});
		expect(sandbox.state.automationInstances).toHaveLength(before + 1);
		const stored = sandbox.state.automationInstances[before];
		expect(stored).toMatchObject({
			instance_id: result.items[0].json.instance_id,
			automation_id: orderPaid.id,
		});
		expect(typeof stored.automation_id).toBe('number');
		expect(stored.payload).toEqual({
			order_id: 'ORD-1001',
			total: 49.9,
			customer: { phone: '+4915123456789' },
		});
	});

	it("V3: one instance per input item, with the item's JSON as payload and the id from an expression", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.automationInstances.length;
		const items = [
			{ json: { automation: String(orderPaid.id), order_id: 'ORD-2001', status: 'paid' } },
			{
				json: {
					automation: orderPaid.id,
					order_id: 'ORD-2002',
					status: 'paid',
					lines: [{ sku: 'A', qty: 2 }],
				},
			},
		];
		const result = await engine.run({
			parameters: {
				resource: 'automation',
				operation: 'createInstance',
				automationId: '={{ $json.automation }}',
				useInputAsPayload: true,
			},
			items,
		});
		expect(result.error).toBeUndefined();
		expect(pairedInputs(result)).toEqual([0, 1]);
		const stored = sandbox.state.automationInstances.slice(before);
		expect(stored.map((s: { payload: unknown }) => s.payload)).toEqual(
			items.map((item) => item.json),
		);
		expect(stored.every((s: { automation_id: unknown }) => s.automation_id === orderPaid.id)).toBe(
			true,
		);
		expect(engine.logins).toBe(1);
	});

	it.each([
		['1.5', 1.5, 'Item 0: the automation ID 1.5 is not a whole number'],
		['"abc"', 'abc', 'Item 0: the automation ID "abc" is not a whole number'],
		['"" (missing)', '', 'Item 0: the automation ID is empty'],
		['-3', -3, 'Item 0: the automation ID -3 is below the minimum of 1'],
	])('V3: an automation ID of %s is refused before any call', async (_label, value, message) => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const before = sandbox.state.automationInstances.length;
		const result = await engine.run({
			parameters: {
				resource: 'automation',
				operation: 'createInstance',
				automationId: '={{ $json.id }}',
				payload: '{}',
			},
			items: [{ json: { id: value } }],
		});
		expect(result.error?.message).toBe(message);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(sandbox.state.requests.length).toBe(start);
		expect(sandbox.state.automationInstances.length).toBe(before);
	});

	it.each([
		[
			'an array',
			'[{"order_id": "ORD-1"}]',
			'Item 0: the payload must be a JSON object, not an array',
		],
		['a string', '"ORD-1"', 'Item 0: the payload must be a JSON object, not a string'],
		['null', 'null', 'Item 0: the payload must be a JSON object, not null'],
		['invalid JSON', '{"order_id": ORD-1}', 'Item 0: the payload is not valid JSON'],
	])('V3: a payload that is %s is refused before any call', async (_label, payload, message) => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: {
				resource: 'automation',
				operation: 'createInstance',
				automationId: orderPaid.id,
				payload,
			},
		});
		expect(result.error?.message).toBe(message);
		expect(sandbox.state.requests.length).toBe(start);
	});

	it('V3: a payload from an expression that yields an array is refused too', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const start = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: {
				resource: 'automation',
				operation: 'createInstance',
				automationId: orderPaid.id,
				payload: '={{ $json.lines }}',
			},
			items: [{ json: { lines: [1, 2] } }],
		});
		expect(result.error?.message).toBe('Item 0: the payload must be a JSON object, not an array');
		expect(sandbox.state.requests.length).toBe(start);
	});

	it("V3/E2: an unknown automation is the service's 404 with its message and code", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.automationInstances.length;
		const result = await engine.run({
			parameters: {
				resource: 'automation',
				operation: 'createInstance',
				automationId: 987654,
				payload: '{}',
			},
		});
		expect(result.error?.message).toBe('Automation 987654 not found. [NOT_FOUND]');
		expect(result.error?.httpCode).toBe('404');
		expect(sandbox.state.automationInstances.length).toBe(before);
	});

	it("V3/E2: with Continue On Fail, another account's automation and a bad id are error items paired to their inputs", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.automationInstances.length;
		const result = await engine.run({
			parameters: {
				resource: 'automation',
				operation: 'createInstance',
				automationId: '={{ $json.id }}',
				useInputAsPayload: true,
			},
			items: [
				{ json: { id: othersAutomation.id } },
				{ json: { id: 'x' } },
				{ json: { id: orderPaid.id } },
			],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
		expect(result.items[0].json).toMatchObject({ code: 'NOT_FOUND', httpCode: '404' });
		expect(result.items[0].json.serviceMessage).toBe(
			`Automation ${othersAutomation.id} not found.`,
		);
		expect(result.items[1].json.error).toBe('Item 1: the automation ID "x" is not a whole number');
		expect(result.items[2].json).toMatchObject({ automation_id: orderPaid.id, status: 'started' });
		expect(sandbox.state.automationInstances.length).toBe(before + 1);
	});
});
