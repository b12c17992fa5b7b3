import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { cartEvent, Deduplication, prepareDeduplication } from '../../helpers/deduplication';
import { compact, readDecimal, readJsonParameter, readRequiredText, withCustomFields } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport';
import type { OperationResult } from '../operation';
import { customerReference, text } from '../../helpers/eventFields';
import { customFieldsOption, deduplicationOptions, phoneField } from '../../descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'Cart ID',
		name: 'cartId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'cart-20250131-0042',
		description: 'Identifier of the abandoned cart in the shop',
	},
	{
		displayName: 'Total',
		name: 'total',
		type: 'number',
		required: true,
		default: 0,
		placeholder: '49.90',
		hint: 'A decimal number with a dot, e.g. 49.90',
		description: 'Cart total, sent as a JSON number',
	},
	{
		displayName: 'Customer',
		name: 'customer',
		type: 'collection',
		placeholder: 'Add Contact Reference',
		default: {},
		description:
			'How the service can reach the customer to recover the cart (over WhatsApp or SMS). Give whatever is known; it improves recovery results.',
		options: [
			{
				displayName: 'Contact ID',
				name: 'contactId',
				type: 'string',
				default: '',
				placeholder: '123',
				description: 'ID of the customer in the service\'s contacts (a whole number)',
			},
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
			},
			phoneField({ inCollection: true }),
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Cart URL',
				name: 'cartUrl',
				type: 'string',
				default: '',
				placeholder: 'https://shop.example.com/cart/recover/abc123',
				description: 'Link that restores the cart, for the recovery message (cart_url)',
			},
			{
				displayName: 'Currency',
				name: 'currency',
				type: 'string',
				default: '',
				placeholder: 'EUR',
				description: 'Currency of the total, as an ISO 4217 code',
			},
			customFieldsOption('cart', 'coupon_code'),
			{
				displayName: 'Line Items (JSON)',
				name: 'lineItems',
				type: 'json',
				default: '[]',
				placeholder: '[{"product_id": "1001", "name": "Hoodie", "quantity": 1, "price": 49.90}]',
				description: 'The products in the cart, as a JSON array of objects (line_items)',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: deduplicationOptions('the same cart ID and total'),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['cart'], operation: ['pushAbandoned'] } },
	properties,
);

/** A cart's events reach the service in input order, never overlapping. */
export function orderingKey(this: IExecuteFunctions, itemIndex: number): string {
	return readRequiredText(this, 'cartId', itemIndex, { label: 'cart ID' });
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	deduplication: Deduplication,
): Promise<OperationResult> {
	const cartId = readRequiredText(this, 'cartId', itemIndex, { label: 'cart ID' });
	const total = readDecimal(this, 'total', itemIndex, { label: 'cart total', min: 0 });
	const customer = this.getNodeParameter('customer', itemIndex, {}) as IDataObject;
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const lineItems = readJsonParameter(this, 'additionalFields.lineItems', itemIndex, {
		expect: 'array',
		label: 'the line items',
		plural: true,
		showValue: true,
		example: 'Use a JSON array, e.g. [{"product_id": "1001", "quantity": 1, "price": 49.90}].',
	});
	const body = withCustomFields(
		compact({
			cart_id: cartId,
			total,
			customer: customerReference(
				this,
				itemIndex,
				{ email: customer.email, contactId: customer.contactId },
				'customer.phone',
			),
			currency: text(additional.currency),
			cart_url: text(additional.cartUrl),
			// The default "[]" means none were given.
			line_items: lineItems?.length ? lineItems : undefined,
		}),
		additional.customFields,
	);

	const identifiers = { cart_id: cartId, total };
	const output = await deduplication.send(itemIndex, cartEvent(cartId, total), identifiers, async () =>
		await apiRequest(this, 'cartEvent', { body, itemIndex }),
	);
	return { records: [output] };
}

/** The run's deduplication; the events are read here only for claims in n8n's shared store (queue mode). */
export async function prepare(this: IExecuteFunctions, itemCount: number): Promise<Deduplication> {
	return await prepareDeduplication(this, itemCount, (itemIndex) =>
		cartEvent(
			readRequiredText(this, 'cartId', itemIndex, { label: 'cart ID' }),
			readDecimal(this, 'total', itemIndex, { label: 'cart total', min: 0 }),
		),
	);
}

export { finishDeduplication as finish } from '../../helpers/deduplication';
