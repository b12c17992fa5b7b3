import type { IDataObject } from 'n8n-workflow';

import { Engine, pairedInputs } from '../../tools/harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * Rules V1-V3 give the field types: order_id and cart_id are strings, total a decimal number, automation_id an
 * integer. A workflow maps them from items whose JSON holds the other type (a shop export with numeric ids, a
 * total read from a CSV as text): the node sends the documented type, and the emulator refuses any other one.
 */
describe("V1-V3: field types as the document gives them, whatever type the mapped value has, run by n8n's engine", () => {
	let sandbox: Sandbox;
	let engine: Engine;
	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: null });
		engine = new Engine(credentialsFor(sandbox));
	});
	afterAll(async () => await sandbox.close());

	const lastBody = (events: Array<{ body: IDataObject }>) => events.at(-1)?.body;

	it('V1: an Order ID that an expression gives as a number is sent as a string', async () => {
		const before = sandbox.state.orderEvents.length;
		const result = await engine.run({
			parameters: {
				resource: 'order',
				operation: 'pushEvent',
				orderId: '={{ $json.id }}',
				status: 'paid',
			},
			items: [{ json: { id: 1001 } }, { json: { id: 2002.5 } }],
		});
		expect(result.error).toBeUndefined();
		expect(pairedInputs(result)).toEqual([0, 1]);
		const sent = sandbox.state.orderEvents
			.slice(before)
			.map((event: { body: IDataObject }) => event.body.order_id);
		expect(sent).toEqual(['1001', '2002.5']);
	});

	it('V2: a Cart ID given as a number is sent as a string, a total given as text as a number', async () => {
		const result = await engine.run({
			parameters: {
				resource: 'cart',
				operation: 'pushAbandoned',
				cartId: '={{ $json.cart }}',
				total: '={{ $json.total }}',
			},
			items: [{ json: { cart: 77, total: '19.90' } }],
		});
		expect(result.error).toBeUndefined();
		expect(lastBody(sandbox.state.cartEvents)).toMatchObject({ cart_id: '77', total: 19.9 });
	});

	it('V3: an Automation ID given as text is sent as an integer', async () => {
		const before = sandbox.state.automationInstances.length;
		const result = await engine.run({
			parameters: {
				resource: 'automation',
				operation: 'createInstance',
				automationId: '={{ $json.automation }}',
			},
			items: [{ json: { automation: '1' } }],
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.state.automationInstances.slice(before)).toHaveLength(1);
		expect(sandbox.state.automationInstances.at(-1)).toMatchObject({ automation_id: 1 });
	});
});
