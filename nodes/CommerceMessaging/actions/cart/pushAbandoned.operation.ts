import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { cartEventKey, Deduplication, deduplicationOptions } from '../../helpers/deduplication';
import { compact, withCustomFields } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport';
import type { OperationResult } from '../operation';
import { customerReference, decimalValue, requiredText, text } from '../../helpers/eventFields';
import { customFieldsOption } from '../common.descriptions';

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
			{
				displayName: 'Phone',
				name: 'phone',
				type: 'string',
				default: '',
				placeholder: '+4915123456789',
				description: 'Mobile number in international E.164 format (plus, country code, number)',
				hint: 'E.164, e.g. +4915123456789',
			},
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

/** Line items typed as JSON text, or already an array when an expression returns one. */
function lineItemsValue(ctx: IExecuteFunctions, value: unknown, itemIndex: number): IDataObject[] | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Item ${itemIndex}: the line items are not valid JSON (${(error as Error).message})`,
				{ itemIndex, description: 'Use a JSON array, e.g. [{"product_id": "1001", "quantity": 1, "price": 49.90}].' },
			);
		}
	}
	if (!Array.isArray(parsed)) {
		const shown = JSON.stringify(parsed);
		throw new NodeOperationError(
			ctx.getNode(),
			`Item ${itemIndex}: the line items must be a JSON array, got ${shown.length > 80 ? `${shown.slice(0, 80)}...` : shown}`,
			{ itemIndex, description: 'Wrap the items in [ ], e.g. [{"product_id": "1001", "quantity": 1}].' },
		);
	}
	return parsed as IDataObject[];
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	deduplication: Deduplication,
): Promise<OperationResult> {
	const cartId = requiredText(this, 'cartId', 'cart ID', itemIndex);
	const total = decimalValue(this, this.getNodeParameter('total', itemIndex, undefined), 'cart total', itemIndex);
	const customer = this.getNodeParameter('customer', itemIndex, {}) as IDataObject;
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const lineItems = lineItemsValue(this, additional.lineItems, itemIndex);
	const body = withCustomFields(
		compact({
			cart_id: cartId,
			total,
			customer: customerReference(
				this,
				itemIndex,
				{ phone: customer.phone, email: customer.email, contactId: customer.contactId },
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
	return await deduplication.sendOnce(itemIndex, cartEventKey(cartId, total), identifiers, async () =>
		await apiRequest(this, 'cartEvent', { body, itemIndex }),
	);
}

export { prepareDeduplication as prepare, finishDeduplication as finish } from '../../helpers/deduplication';
