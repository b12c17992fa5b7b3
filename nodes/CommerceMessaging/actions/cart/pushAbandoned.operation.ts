import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	collection,
	contactIdField,
	currencyField,
	customFieldsOption,
	deduplicationOptions,
	phoneField,
} from '../../descriptions';
import { cartEvent, EventPush } from '../../helpers/deduplication';
import {
	readCustomer,
	readJson,
	readNumber,
	readText,
	withCustomFields,
} from '../../helpers/parameters';

export const properties: INodeProperties[] = [
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
		description: 'Cart total',
	},
	{
		displayName: 'Customer',
		name: 'customer',
		type: 'collection',
		placeholder: 'Add Contact Reference',
		default: {},
		description: 'How the service can reach the customer; give whatever is known',
		options: [
			contactIdField,
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
			},
			phoneField,
		],
	},
	collection('additionalFields', [
		{
			displayName: 'Cart URL',
			name: 'cartUrl',
			type: 'string',
			default: '',
			placeholder: 'https://shop.example.com/cart/recover/abc123',
			description: 'Link that restores the cart, for the recovery message',
		},
		currencyField,
		customFieldsOption('cart', 'coupon_code'),
		{
			displayName: 'Line Items (JSON)',
			name: 'lineItems',
			type: 'json',
			default: '[]',
			placeholder: '[{"product_id": "1001", "quantity": 1, "price": 49.90}]',
			description: 'The products in the cart, as a JSON array of objects',
		},
	]),
	deduplicationOptions('the same cart ID and total'),
];

/** Rules V2, V4: each item's event (cart ID + total) read once, before any is sent; deduplicated. */
export async function prepare(this: IExecuteFunctions, itemCount: number) {
	return await EventPush.start(this, itemCount, (itemIndex) => {
		const cartId = readText(this, 'cartId', itemIndex, { label: 'cart ID', required: true });
		const total = readNumber(this, 'total', itemIndex, {
			label: 'cart total',
			min: 0,
			required: true,
		});
		return { identity: cartEvent(cartId, total), identifiers: { cart_id: cartId, total } };
	});
}

/** A cart's events reach the service in input order, never overlapping; saved and told as an order's are. */
export { finish, hints, orderingKey } from '../order/pushEvent.operation';

export async function execute(this: IExecuteFunctions, itemIndex: number, push: EventPush) {
	const { identifiers } = push.eventOf(itemIndex);
	const lineItems = readJson(this, 'additionalFields.lineItems', itemIndex, {
		expect: 'array',
		label: 'the line items',
		plural: true,
		showValue: true,
		example: 'Use a JSON array, e.g. [{"product_id": "1001", "quantity": 1, "price": 49.90}].',
	});
	const body = withCustomFields(this, itemIndex, {
		...identifiers,
		customer: readCustomer(
			this,
			itemIndex,
			'customer.phone',
			'customer.email',
			'customer.contactId',
		),
		currency: readText(this, 'additionalFields.currency', itemIndex, { label: 'currency' }),
		cart_url: readText(this, 'additionalFields.cartUrl', itemIndex, { label: 'cart URL' }),
		// The default "[]" means none were given.
		line_items: lineItems?.length ? lineItems : undefined,
	});
	return [await push.send(itemIndex, 'cartEvent', body)];
}

export const option = {
	name: 'Push Abandoned Cart',
	description: 'Tell the service a cart was abandoned, to start its recovery',
	action: 'Push an abandoned cart event',
};
