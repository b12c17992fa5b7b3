import type { IDataObject } from 'n8n-workflow';

import { Engine, pairedInputs, type RunResult } from '../../tools/harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * The node's one input layer (helpers/parameters.ts): bad input fails its item with an "Item N:" error before any
 * request reaches the service, and with Continue On Fail only the bad items become error items.
 */
describe("Input checks, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());

	/** Runs the node and says how many requests reached the emulator meanwhile (a login counts too). */
	async function runCounting(
		engine: Engine,
		options: Parameters<Engine['run']>[0],
	): Promise<RunResult & { requests: number }> {
		const before = sandbox.state.requests.length;
		const result = await engine.run(options);
		return { ...result, requests: sandbox.state.requests.length - before };
	}

	/** The cart events the emulator stored for a cart, as the bodies it received. */
	const cartEvents = (cartId: string) =>
		sandbox.state.cartEvents
			.filter((event: { body: { cart_id: string } }) => event.body.cart_id === cartId)
			.map((event: { body: { total: unknown } }) => event.body);

	describe('Limit', () => {
		it.each([
			['0', 0, 'Item 0: the Limit 0 is below the minimum of 1'],
			['-1', -1, 'Item 0: the Limit -1 is below the minimum of 1'],
			['1.5', 1.5, 'Item 0: the Limit 1.5 is not a whole number'],
			['"abc" from an expression', '={{ "abc" }}', 'Item 0: the Limit "abc" is not a whole number'],
			[
				'NaN from an expression',
				'={{ Number("x") }}',
				'Item 0: the Limit NaN is not a whole number',
			],
			['1e21 from an expression', '={{ 1e21 }}', 'Item 0: the Limit 1e+21 is too large'],
			[
				'20 digits from an expression',
				'={{ "99999999999999999999" }}',
				'Item 0: the Limit "99999999999999999999" is too large',
			],
		])('L3: a Limit of %s fails the item before any request', async (_label, limit, message) => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await runCounting(engine, {
				parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit },
			});
			expect(result.error?.message).toBe(message);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(result.error?.description).toMatch(/Return All/);
			expect(result.requests).toBe(0);
		});

		it.each([
			['contact', { resource: 'contact', operation: 'getAll' }],
			['product', { resource: 'product', operation: 'getAll' }],
			['template', { resource: 'template', operation: 'getAll' }],
			['order history', { resource: 'order', operation: 'getHistory' }],
			[
				'custom API call',
				{
					resource: 'customApiCall',
					operation: 'request',
					method: 'GET',
					path: '/api/contacts/',
					paginate: true,
				},
			],
		])(
			'L3: every list (%s) refuses Limit 0 the same way, before any request',
			async (_label, parameters) => {
				const engine = new Engine(credentialsFor(sandbox));
				const result = await runCounting(engine, {
					parameters: { ...parameters, returnAll: false, limit: 0 },
				});
				expect(result.error?.message).toBe('Item 0: the Limit 0 is below the minimum of 1');
				expect(result.requests).toBe(0);
			},
		);

		it('L3: a Limit given as digits from an expression is read as that number', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					returnAll: false,
					limit: '={{ "2" }}',
				},
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(2);
		});

		it('L3: with Continue On Fail each bad Limit is an error item paired to its item; the good ones are listed', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					returnAll: false,
					limit: '={{ $json.limit }}',
				},
				items: [
					{ json: { limit: 2 } },
					{ json: { limit: 0 } },
					{ json: { limit: 'abc' } },
					{ json: { limit: 1 } },
				],
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			expect(pairedInputs(result)).toEqual([0, 1, 2, 3]);
			const byInput = (index: number) =>
				result.items.filter((item) => (item.pairedItem as { item: number }).item === index);
			expect(byInput(0)).toHaveLength(2);
			expect(byInput(0)[0].json.error).toBeUndefined();
			expect(byInput(1).map((item) => item.json.error)).toEqual([
				'Item 1: the Limit 0 is below the minimum of 1',
			]);
			expect(byInput(2).map((item) => item.json.error)).toEqual([
				'Item 2: the Limit "abc" is not a whole number',
			]);
			expect(byInput(3)).toHaveLength(1);
			expect(byInput(3)[0].json.error).toBeUndefined();
		});
	});

	describe('Cart total', () => {
		const push = {
			resource: 'cart',
			operation: 'pushAbandoned',
			cartId: '={{ $json.cartId }}',
			total: '={{ $json.total }}',
		};

		it.each([
			['"0x1F" (hex)', '0x1F', 'Item 0: the cart total "0x1F" is not a decimal number'],
			['"-5" (negative)', '-5', 'Item 0: the cart total "-5" is below the minimum of 0'],
			['-5 as a number', -5, 'Item 0: the cart total -5 is below the minimum of 0'],
			['"abc"', 'abc', 'Item 0: the cart total "abc" is not a decimal number'],
			['"1e3" (exponent)', '1e3', 'Item 0: the cart total "1e3" is not a decimal number'],
		])('V2: a total of %s fails the item before any request', async (_label, total, message) => {
			const engine = new Engine(credentialsFor(sandbox));
			const cartId = `INPUT-BAD-${String(total)}`;
			const result = await runCounting(engine, {
				parameters: push,
				items: [{ json: { cartId, total } }],
			});
			expect(result.error?.message).toBe(message);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(result.error?.description).toMatch(/decimal number of 0 or more/);
			expect(result.requests).toBe(0);
			expect(cartEvents(cartId)).toHaveLength(0);
		});

		it.each([
			['"12.50" (text)', '12.50', 'INPUT-OK-TEXT'],
			['12.5 (a number)', 12.5, 'INPUT-OK-NUMBER'],
			['"12" (whole, as text)', '12', 'INPUT-OK-WHOLE'],
		])('V2: a total of %s is sent as a JSON number', async (_label, total, cartId) => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({ parameters: push, items: [{ json: { cartId, total } }] });
			expect(result.error).toBeUndefined();
			expect(cartEvents(cartId)).toEqual([expect.objectContaining({ total: Number(total) })]);
		});

		it('V2: with Continue On Fail each bad total is its own error item and the good carts are sent', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: push,
				items: [
					{ json: { cartId: 'INPUT-COF-0', total: '19.99' } },
					{ json: { cartId: 'INPUT-COF-1', total: '0x1F' } },
					{ json: { cartId: 'INPUT-COF-2', total: 7 } },
					{ json: { cartId: 'INPUT-COF-3', total: '-5' } },
				],
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(4);
			expect(pairedInputs(result)).toEqual([0, 1, 2, 3]);
			expect(result.items[0].json).toMatchObject({ cart_id: 'INPUT-COF-0', total: 19.99 });
			expect(result.items[1].json.error).toBe(
				'Item 1: the cart total "0x1F" is not a decimal number',
			);
			expect(result.items[2].json).toMatchObject({ cart_id: 'INPUT-COF-2', total: 7 });
			expect(result.items[3].json.error).toBe(
				'Item 3: the cart total "-5" is below the minimum of 0',
			);
			expect(cartEvents('INPUT-COF-0')).toHaveLength(1);
			expect(cartEvents('INPUT-COF-1')).toHaveLength(0);
			expect(cartEvents('INPUT-COF-3')).toHaveLength(0);
		});
	});

	describe('Message text', () => {
		const send = {
			resource: 'message',
			operation: 'send',
			phone: '+4915100000042',
			message: '={{ $json.text }}',
		};
		const messagesWith = (text: string) =>
			sandbox.state.messages.filter(
				(m: { type: string; message: string }) => m.type === 'whatsapp' && m.message === text,
			);

		it('C2: a message of 4,097 characters fails before any request, naming the limit and its length', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const text = 'x'.repeat(4097);
			const result = await runCounting(engine, { parameters: send, items: [{ json: { text } }] });
			expect(result.error?.message).toBe(
				'Item 0: the message text is 4,097 characters long, over the limit of 4,096',
			);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(result.requests).toBe(0);
			expect(messagesWith(text)).toHaveLength(0);
		});

		it('C2: a message of exactly 4,096 characters is sent', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const text = 'y'.repeat(4096);
			const result = await engine.run({ parameters: send, items: [{ json: { text } }] });
			expect(result.error).toBeUndefined();
			expect(messagesWith(text)).toHaveLength(1);
		});

		it('C2: characters are counted as people count them: 4,096 emoji are within the limit', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const text = '👋'.repeat(4096);
			const result = await engine.run({ parameters: send, items: [{ json: { text } }] });
			expect(result.error).toBeUndefined();
			expect(messagesWith(text)).toHaveLength(1);
		});

		it('C2: with Continue On Fail a too long message is an error item, the others are sent', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: send,
				items: [
					{ json: { text: 'short one' } },
					{ json: { text: 'z'.repeat(5000) } },
					{ json: { text: 'short two' } },
				],
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			expect(pairedInputs(result)).toEqual([0, 1, 2]);
			expect(result.items[0].json.status).toBe('queued');
			expect(result.items[1].json.error).toBe(
				'Item 1: the message text is 5,000 characters long, over the limit of 4,096',
			);
			expect(result.items[2].json.status).toBe('queued');
		});
	});

	describe('Dates', () => {
		it('V1: a date from an expression may be the date itself ({{ $now }}, {{ new Date() }}), not only its text', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const history = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'getHistory',
					returnAll: true,
					filters: { dateFrom: '={{ $now.minus({ days: 7 }) }}' },
				},
			});
			expect(history.error).toBeUndefined();
			const weekAgo = Date.now() - 7 * 86_400_000;
			const asked = sandbox.state.requests
				.filter((r: { path: string }) => r.path.startsWith('/api/v1/order/history'))
				.at(-1) as { url: string };
			const dateFrom = new URL(asked.url, 'http://x').searchParams.get('date_from');
			expect(Math.abs(Date.parse(String(dateFrom)) - weekAgo)).toBeLessThan(60_000);
			const pushed = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'pushEvent',
					orderId: 'DATE-OBJECT-1',
					status: 'paid',
					additionalFields: { createdAt: '={{ new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) }}' },
				},
			});
			expect(pushed.error).toBeUndefined();
			const event = sandbox.state.orderEvents.find(
				(e: { body: { order_id: string } }) => e.body.order_id === 'DATE-OBJECT-1',
			) as { body: { created_at: string } };
			expect(event.body.created_at).toBe('2026-01-02T03:04:05.000Z');
			// A number is a moment in epoch milliseconds, as JavaScript counts them: 0 is 1970, not a year.
			for (const [orderId, createdAt, expected] of [
				['DATE-EPOCH-1', '={{ 1738348200000 }}', '2025-01-31T18:30:00.000Z'],
				['DATE-EPOCH-0', '={{ 0 }}', '1970-01-01T00:00:00.000Z'],
			]) {
				const epoch = await engine.run({
					parameters: {
						resource: 'order',
						operation: 'pushEvent',
						orderId,
						status: 'paid',
						additionalFields: { createdAt },
					},
				});
				expect(epoch.error).toBeUndefined();
				expect(
					(
						sandbox.state.orderEvents.find(
							(e: { body: { order_id: string } }) => e.body.order_id === orderId,
						) as { body: { created_at: string } }
					).body.created_at,
				).toBe(expected);
			}
			// Microseconds read as milliseconds fall beyond the year 9999: refused, never sent as `+055840-…`.
			const beyond = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'pushEvent',
					orderId: 'DATE-EPOCH-US',
					status: 'paid',
					additionalFields: { createdAt: '={{ 1700000000000000 }}' },
				},
			});
			expect(beyond.error?.message).toBe(
				'Item 0: the created at date 1700000000000000 is not a valid date',
			);
		});
	});

	describe('Run-wide settings', () => {
		it('Input: with Continue On Fail a bad Request Option fails every item as an error item paired to it; nothing is sent', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await runCounting(engine, {
				parameters: {
					resource: 'message',
					operation: 'send',
					phone: '={{ $json.phone }}',
					message: 'hi',
					requestOptions: { concurrency: 0 },
				},
				items: [{ json: { phone: '+4915100000031' } }, { json: { phone: '+4915100000032' } }],
				continueOnFail: true,
			});
			expect(result.items.map((item) => item.json.error)).toEqual([
				'Request Options > Concurrency must be 1 or more (got 0)',
				'Request Options > Concurrency must be 1 or more (got 0)',
			]);
			expect(pairedInputs(result)).toEqual([0, 1]);
			expect(result.requests).toBe(0);
		});

		it('Input: without Continue On Fail, the error that stops the run names the items that went through meanwhile', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const phones = [
				'+4915100000041',
				'bad',
				'+4915100000043',
				'+4915100000044',
				'+4915100000045',
			];
			const result = await engine.run({
				parameters: {
					resource: 'message',
					operation: 'send',
					phone: '={{ $json.phone }}',
					message: 'hi',
				},
				items: phones.map((phone) => ({ json: { phone } })),
			});
			expect(result.error?.message).toBe('Item 1: "bad" is not an international phone number');
			expect(result.error?.description).toMatch(
				/ Items 0, 2, 3, 4 went through before the run stopped; the run outputs none of them\.$/,
			);
			expect(
				sandbox.state.messages.filter((m: { phone: string }) => phones.includes(m.phone)),
			).toHaveLength(4);
		});

		it('Input: a setting that is not a finite number names what it got', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					returnAll: false,
					limit: 1,
					requestOptions: { concurrency: '={{ Infinity }}' },
				},
			});
			expect(result.error?.message).toBe(
				'Request Options > Concurrency must be a number, not Infinity',
			);
		});
	});

	describe('JSON parameters', () => {
		const cases: Array<[string, IDataObject, RegExp]> = [
			[
				'JSON Body (custom API call, X1)',
				{
					resource: 'customApiCall',
					operation: 'request',
					method: 'POST',
					path: '/api/contacts/',
					jsonBody: '={{ $json.json }}',
				},
				/^Item (\d): the JSON body is not valid JSON$/,
			],
			[
				'Payload (automation, V3)',
				{
					resource: 'automation',
					operation: 'createInstance',
					automationId: 1,
					payload: '={{ $json.json }}',
				},
				/^Item (\d): the payload is not valid JSON$/,
			],
			[
				'Line Items (cart, V2)',
				{
					resource: 'cart',
					operation: 'pushAbandoned',
					cartId: '={{ "INPUT-JSON-" + $itemIndex }}',
					total: 10,
					additionalFields: { lineItems: '={{ $json.json }}' },
				},
				/^Item (\d): the line items are not valid JSON$/,
			],
			[
				'Variables (JSON) (template send, T5)',
				{
					resource: 'template',
					operation: 'send',
					templateId: { __rl: true, mode: 'id', value: '1' },
					phone: '+4915100000043',
					options: { variablesJson: '={{ $json.json }}' },
				},
				/^Item (\d): Variables \(JSON\) is not valid JSON$/,
			],
		];

		it.each(cases)(
			'Input: bad JSON in %s fails the item, naming the parameter, before any request',
			async (_label, parameters, message) => {
				const engine = new Engine(credentialsFor(sandbox));
				const result = await runCounting(engine, {
					parameters,
					items: [{ json: { json: '{"a": 1,}' } }],
				});
				expect(result.error?.message).toMatch(message);
				expect(result.error?.message).toMatch(/^Item 0:/);
				expect(result.error?.context?.itemIndex).toBe(0);
				// The parser's own words and the right form, for the user to fix it.
				expect(result.error?.description).toMatch(/JSON/);
				expect(result.requests).toBe(0);
			},
		);

		it.each(cases)(
			'Input: with Continue On Fail, bad JSON in %s is an error item paired to its item',
			async (_label, parameters, message) => {
				const engine = new Engine(credentialsFor(sandbox));
				const result = await runCounting(engine, {
					parameters,
					items: [{ json: { json: '[1, 2' } }, { json: { json: 'not json' } }],
					continueOnFail: true,
				});
				expect(result.error).toBeUndefined();
				expect(pairedInputs(result)).toEqual([0, 1]);
				expect(result.items.map((item) => String(item.json.error).match(message)?.[1])).toEqual([
					'0',
					'1',
				]);
				expect(result.requests).toBe(0);
			},
		);

		it('Input: with Continue On Fail a bad payload fails only its item; good payloads start their automation', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const demoId = sandbox.state.userByName('demo@shop.test').id;
			const automation = [...sandbox.state.automations.values()].find(
				(a: { userId: unknown }) => a.userId === demoId,
			);
			const before = sandbox.state.automationInstances.length;
			const result = await engine.run({
				parameters: {
					resource: 'automation',
					operation: 'createInstance',
					automationId: automation.id,
					payload: '={{ $json.json }}',
				},
				items: [
					{ json: { json: '{"order_id": "A-1"}' } },
					{ json: { json: '{order_id: A-2}' } },
					{ json: { json: '["A-3"]' } },
					{ json: { json: '{"order_id": "A-4"}' } },
				],
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			expect(pairedInputs(result)).toEqual([0, 1, 2, 3]);
			expect(result.items[1].json.error).toBe('Item 1: the payload is not valid JSON');
			expect(result.items[2].json.error).toBe(
				'Item 2: the payload must be a JSON object, not an array',
			);
			const started = sandbox.state.automationInstances
				.slice(before)
				.map((s: { payload: unknown }) => s.payload);
			expect(started).toEqual([{ order_id: 'A-1' }, { order_id: 'A-4' }]);
		});
	});
});
