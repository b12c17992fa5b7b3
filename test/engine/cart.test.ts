import type { IDataObject } from 'n8n-workflow';

import { Engine, pairedInputs } from '../../tools/harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

const CART_PATH = '/api/v1/cart/';

interface LoggedRequest {
	method: string;
	path: string;
}

describe("Cart, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());

	const cartPosts = (): number =>
		sandbox.state.requests.filter((r: LoggedRequest) => r.method === 'POST' && r.path === CART_PATH)
			.length;
	const eventsFor = (cartId: string): IDataObject[] =>
		sandbox.state.cartEvents
			.filter((e: { body: IDataObject }) => e.body.cart_id === cartId)
			.map((e: { body: IDataObject }) => e.body);
	const push = (extra: IDataObject = {}) => ({
		resource: 'cart',
		operation: 'pushAbandoned',
		cartId: '={{ $json.cartId }}',
		total: '={{ $json.total }}',
		...extra,
	});

	describe('Push Abandoned Cart', () => {
		it('V2: sends the total as a decimal JSON number with the customer contact references and the extra fields', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: push({
					customer: {
						phone: '+33 6 12 34 56 78',
						email: 'claude@example.com',
						contactId: '={{ $json.contactId }}',
					},
					additionalFields: {
						currency: 'EUR',
						cartUrl: 'https://shop.example.com/cart/recover/abc123',
						lineItems: '[{"product_id": "1001", "name": "Hoodie", "quantity": 1, "price": 49.90}]',
						customFields: { field: [{ name: 'coupon_code', value: 'COMEBACK10' }] },
					},
				}),
				// A total as text ("49.90" from a shop export) is sent as the number 49.9.
				items: [{ json: { cartId: 'V2-CART-1', total: '49.90', contactId: 7 } }],
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
			expect(result.items[0].json).toEqual({
				cart_id: 'V2-CART-1',
				total: 49.9,
				recovery: 'scheduled',
			});
			expect(pairedInputs(result)).toEqual([0]);

			const [event] = eventsFor('V2-CART-1');
			expect(event).toEqual({
				cart_id: 'V2-CART-1',
				total: 49.9,
				customer: { phone: '+33612345678', email: 'claude@example.com', contact_id: 7 },
				currency: 'EUR',
				cart_url: 'https://shop.example.com/cart/recover/abc123',
				line_items: [{ product_id: '1001', name: 'Hoodie', quantity: 1, price: 49.9 }],
				coupon_code: 'COMEBACK10',
			});
			expect(typeof event.total).toBe('number');
		});

		it('V2: a plain number total and no contact references send only cart_id and total', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: {
					resource: 'cart',
					operation: 'pushAbandoned',
					cartId: 'V2-CART-2',
					total: 120.5,
				},
			});
			expect(result.error).toBeUndefined();
			expect(eventsFor('V2-CART-2')).toEqual([{ cart_id: 'V2-CART-2', total: 120.5 }]);
		});

		it('V2: a bad total, phone, contact id or line items JSON fails the item before any call, naming item and value', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const before = cartPosts();
			const result = await engine.run({
				parameters: push({
					customer: {
						phone: '={{ $json.phone ?? "" }}',
						contactId: '={{ $json.contactId ?? "" }}',
					},
					additionalFields: { lineItems: '={{ $json.lineItems ?? "[]" }}' },
				}),
				items: [
					{ json: { cartId: 'V2-BAD-0', total: 'forty' } },
					{ json: { cartId: 'V2-BAD-1', total: '49,90' } },
					{ json: { cartId: 'V2-BAD-2', total: '' } },
					{ json: { cartId: 'V2-BAD-3', total: 10, phone: '06 12 34 56 78' } },
					{ json: { cartId: 'V2-BAD-4', total: 10, lineItems: '[{"sku": "A",}]' } },
					{ json: { cartId: 'V2-BAD-5', total: 10, lineItems: '{"sku": "A"}' } },
					{ json: { cartId: 'V2-BAD-6', total: 10, contactId: 'C-9' } },
					{ json: { cartId: '', total: 10 } },
				],
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			expect(pairedInputs(result)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
			const errors = result.items.map((item) => String(item.json.error));
			expect(errors[0]).toMatch(/Item 0: the cart total "forty" is not a decimal number/);
			expect(errors[1]).toMatch(/Item 1: the cart total "49,90" is not a decimal number/);
			expect(errors[2]).toMatch(/Item 2: the cart total is empty/);
			expect(errors[3]).toMatch(/Item 3: "06 12 34 56 78" is not an international phone number/);
			expect(errors[4]).toMatch(/Item 4: the line items are not valid JSON/);
			expect(errors[5]).toMatch(/Item 5: the line items must be a JSON array, got \{"sku":"A"\}/);
			expect(errors[6]).toMatch(/Item 6: the contact ID "C-9" is not a whole number/);
			expect(errors[7]).toMatch(/Item 7: the cart ID is empty/);
			expect(cartPosts()).toBe(before);
		});

		it('V2/E2: a service failure stops the run on that item with the service message and code', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			sandbox.faults.inject({ method: 'POST', path: CART_PATH, kind: '500', times: 1 });
			const result = await engine.run({
				parameters: push(),
				items: [{ json: { cartId: 'V2-FAIL-1', total: 10 } }],
			});
			expect(result.error?.message).toMatch(/Internal server error \[INTERNAL_ERROR\]/);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(eventsFor('V2-FAIL-1')).toHaveLength(0);
		});
	});

	describe('Deduplication (V4)', () => {
		it('V4: 49.9 and "49.90" for the same cart in one run are one event; the second item is output as skipped', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: push(),
				items: [
					{ json: { cartId: 'V4-CART-1', total: 49.9 } },
					{ json: { cartId: 'V4-CART-1', total: '49.90' } },
				],
			});
			expect(result.error).toBeUndefined();
			expect(eventsFor('V4-CART-1')).toHaveLength(1);
			expect(pairedInputs(result)).toEqual([0, 1]);
			expect(result.items[0].json).toMatchObject({ cart_id: 'V4-CART-1', recovery: 'scheduled' });
			expect(result.items[1].json).toMatchObject({
				cart_id: 'V4-CART-1',
				total: 49.9,
				skipped: true,
				reason: 'duplicate',
				dedupKey: 'cart:V4-CART-1:49.9',
			});
			expect(Number.isNaN(Date.parse(String(result.items[1].json.firstSentAt)))).toBe(false);
		});

		it('V4: a later run skips the same cart again, while a changed total is a new event', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			await engine.run({
				parameters: push(),
				items: [{ json: { cartId: 'V4-CART-2', total: 30 } }],
			});
			const again = await engine.run({
				parameters: push(),
				items: [
					{ json: { cartId: 'V4-CART-2', total: '30.00' } },
					{ json: { cartId: 'V4-CART-2', total: 35.5 } },
				],
			});
			expect(again.error).toBeUndefined();
			expect(again.items[0].json).toMatchObject({ skipped: true, dedupKey: 'cart:V4-CART-2:30' });
			expect(again.items[1].json).toMatchObject({
				cart_id: 'V4-CART-2',
				total: 35.5,
				recovery: 'scheduled',
			});
			expect(eventsFor('V4-CART-2').map((e) => e.total)).toEqual([30, 35.5]);
		});

		it('V4: a rejected send is not recorded, so the retry in the next run is sent', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			sandbox.faults.inject({ method: 'POST', path: CART_PATH, kind: 'jsend-error-200', times: 1 });
			const failed = await engine.run({
				parameters: push(),
				items: [{ json: { cartId: 'V4-CART-3', total: 12 } }],
				continueOnFail: true,
			});
			expect(failed.items[0].json).toMatchObject({ code: 'INTERNAL_ERROR' });
			expect(pairedInputs(failed)).toEqual([0]);
			expect(eventsFor('V4-CART-3')).toHaveLength(0);

			const retried = await engine.run({
				parameters: push(),
				items: [{ json: { cartId: 'V4-CART-3', total: 12 } }],
			});
			expect(retried.error).toBeUndefined();
			expect(retried.items[0].json).toMatchObject({ cart_id: 'V4-CART-3', recovery: 'scheduled' });
			expect(eventsFor('V4-CART-3')).toHaveLength(1);
		});

		it("V4: the service's own validation error is not recorded either", async () => {
			const engine = new Engine(credentialsFor(sandbox));
			// No contact references are set, so a custom field named customer reaches the service as text: a 422.
			const parameters = push({
				additionalFields: {
					customFields: { field: [{ name: 'customer', value: '={{ $json.customer }}' }] },
				},
			});
			const rejected = await engine.run({
				parameters,
				items: [{ json: { cartId: 'V4-CART-4', total: 5, customer: 'not-an-object' } }],
				continueOnFail: true,
			});
			expect(rejected.items[0].json).toMatchObject({ code: 'VALIDATION_ERROR', httpCode: '422' });
			expect(eventsFor('V4-CART-4')).toHaveLength(0);

			const fixed = await engine.run({
				parameters: push(),
				items: [{ json: { cartId: 'V4-CART-4', total: 5 } }],
			});
			expect(fixed.items[0].json.skipped).toBeUndefined();
			expect(eventsFor('V4-CART-4')).toHaveLength(1);
		});

		it('V4: with Deduplicate off, identical cart events are all sent', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: push({ options: { deduplicate: false } }),
				items: [
					{ json: { cartId: 'V4-OFF-1', total: 9.99 } },
					{ json: { cartId: 'V4-OFF-1', total: 9.99 } },
				],
			});
			expect(result.error).toBeUndefined();
			expect(result.items.every((item) => item.json.skipped === undefined)).toBe(true);
			expect(eventsFor('V4-OFF-1')).toHaveLength(2);
		});
	});
});
