import type { IDataObject } from 'n8n-workflow';
import { WorkflowExpression } from 'n8n-workflow';

import { Engine } from '../../tools/harness/engine';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * Every expression parameter of an item is evaluated once. n8n evaluates a parameter at every read, and in n8n 2.x
 * each evaluation runs in an isolated engine (about 0.3 ms): an operation that reads an item's parameters for its
 * ordering key, its deduplication key and its body pays that three times. The engine's expression resolver is
 * counted per item and per expression while the node runs.
 */

const NODE = 'Commerce Messaging';

function countEvaluations() {
	const counts = new Map<string, number>();
	const resolve = WorkflowExpression.prototype.resolveSimpleParameterValue;
	const spy = jest
		.spyOn(WorkflowExpression.prototype, 'resolveSimpleParameterValue')
		.mockImplementation(function (this: WorkflowExpression, ...args: Parameters<typeof resolve>) {
			const [value, , , , itemIndex, activeNodeName] = args;
			if (activeNodeName === NODE && typeof value === 'string' && value.startsWith('=')) {
				const key = `item ${itemIndex}: ${value}`;
				counts.set(key, (counts.get(key) ?? 0) + 1);
			}
			return resolve.apply(this, args);
		});
	return { counts, restore: () => spy.mockRestore() };
}

const ITEMS = 3;
const items = (make: (i: number) => IDataObject) =>
	Array.from({ length: ITEMS }, (_, i) => ({ json: make(i) }));

interface Case {
	name: string;
	parameters: IDataObject;
	items: Array<{ json: IDataObject }>;
}

const CASES: Case[] = [
	{
		name: 'Order > Push Event (ordering key, deduplication key and body from the same parameters)',
		parameters: {
			resource: 'order',
			operation: 'pushEvent',
			orderId: '={{ $json.orderId }}',
			status: '={{ $json.status }}',
			additionalFields: {
				total: '={{ $json.total }}',
				currency: '={{ $json.currency }}',
				createdAt: '={{ $json.createdAt }}',
				customerPhone: '={{ $json.phone }}',
				customerEmail: '={{ $json.email }}',
			},
			options: { deduplicationWindowHours: '={{ $json.window }}' },
		},
		items: items((i) => ({
			orderId: `ONCE-${i}`,
			status: 'paid',
			total: 10 + i,
			currency: 'EUR',
			createdAt: '2026-11-01T10:00:00Z',
			phone: `+49151000700${i}`,
			email: `once${i}@shop.test`,
			window: 24,
		})),
	},
	{
		name: 'Cart > Push Abandoned Cart',
		parameters: {
			resource: 'cart',
			operation: 'pushAbandoned',
			cartId: '={{ $json.cartId }}',
			total: '={{ $json.total }}',
			customer: { phone: '={{ $json.phone }}', email: '={{ $json.email }}' },
			additionalFields: {
				currency: '={{ $json.currency }}',
				lineItems: '={{ JSON.stringify($json.lines) }}',
			},
		},
		items: items((i) => ({
			cartId: `ONCE-CART-${i}`,
			total: 20 + i,
			phone: `+49151000710${i}`,
			email: `cart${i}@shop.test`,
			currency: 'EUR',
			lines: [{ sku: 'A', quantity: 1 }],
		})),
	},
	{
		name: 'Message > Send (ordering by recipient, batching)',
		parameters: {
			resource: 'message',
			operation: 'send',
			phone: '={{ $json.phone }}',
			message: '={{ $json.text }}',
			additionalFields: { externalId: '={{ $json.ref }}' },
			options: { batching: { batch: { batchSize: 50, batchInterval: 10 } } },
		},
		items: items((i) => ({ phone: `+49151000720${i}`, text: `Hello ${i}`, ref: `ref-${i}` })),
	},
	{
		name: 'Contact > Create (ordering by phone)',
		parameters: {
			resource: 'contact',
			operation: 'create',
			phone: '={{ $json.phone }}',
			firstname: '={{ $json.first }}',
			lastname: '={{ $json.last }}',
			email: '={{ $json.email }}',
			additionalFields: { language: '={{ $json.lang }}', tags: '={{ $json.tags }}' },
		},
		items: items((i) => ({
			phone: `+49151000730${i}`,
			first: `Ada${i}`,
			last: 'Once',
			email: `ada${i}@shop.test`,
			lang: 'en',
			tags: 'vip',
		})),
	},
	{
		name: 'Product > Create (ordering by product id)',
		parameters: {
			resource: 'product',
			operation: 'create',
			id: '={{ $json.id }}',
			name: '={{ $json.name }}',
			additionalFields: { price: '={{ $json.price }}', sku: '={{ $json.sku }}' },
		},
		items: items((i) => ({
			id: `ONCE-P-${i}`,
			name: `Mug ${i}`,
			price: 9.9,
			sku: `SKU-ONCE-${i}`,
		})),
	},
	{
		name: 'Order > Get History (filters and limit)',
		parameters: {
			resource: 'order',
			operation: 'getHistory',
			returnAll: false,
			limit: '={{ $json.limit }}',
			filters: {
				status: '={{ $json.status }}',
				dateFrom: '={{ $json.from }}',
				dateTo: '={{ $json.to }}',
			},
		},
		items: items(() => ({
			limit: 2,
			status: 'paid',
			from: '2020-01-01T00:00:00Z',
			to: '2030-01-01T00:00:00Z',
		})),
	},
	{
		name: 'Other Endpoint (path, query and body)',
		parameters: {
			resource: 'customApiCall',
			operation: 'request',
			method: 'POST',
			path: '={{ $json.path }}',
			queryParameters: { parameter: [{ name: 'ref', value: '={{ $json.ref }}' }] },
			jsonBody: '={{ JSON.stringify({ firstname: $json.first, phone: $json.phone }) }}',
		},
		items: items((i) => ({
			path: '/api/contacts/',
			ref: `q${i}`,
			first: `Grace${i}`,
			phone: `+49151000740${i}`,
		})),
	},
];

describe("Every expression parameter is evaluated once per item, through n8n's engine", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: null });
	});
	afterAll(async () => await sandbox.close());

	it.each(CASES)('$name', async ({ parameters, items: input }) => {
		const engine = new Engine(credentialsFor(sandbox));
		const { counts, restore } = countEvaluations();
		let result;
		try {
			result = await engine.run({ parameters, items: input });
		} finally {
			restore();
		}
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThanOrEqual(ITEMS);
		const expressions = JSON.stringify(parameters).match(/"=\{\{[^"]*\}\}"/g) ?? [];
		// Every expression of every item was evaluated (the count sees the node's reads) ...
		expect(counts.size).toBe(expressions.length * ITEMS);
		// ... and none twice.
		expect([...counts].filter(([, count]) => count !== 1)).toEqual([]);
	});

	it('Contact > Create with an empty phone (left to the service to refuse) reads it once too', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const { counts, restore } = countEvaluations();
		let result;
		try {
			result = await engine.run({
				parameters: {
					resource: 'contact',
					operation: 'create',
					phone: '={{ $json.phone }}',
					firstname: '={{ $json.first }}',
				},
				items: items((i) => ({ phone: '', first: `Ada${i}` })),
				continueOnFail: true,
			});
		} finally {
			restore();
		}
		expect(result.items).toHaveLength(ITEMS);
		expect(counts.size).toBe(2 * ITEMS);
		expect([...counts].filter(([, count]) => count !== 1)).toEqual([]);
	});
});
