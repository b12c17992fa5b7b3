import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	collection,
	contactIdField,
	currencyField,
	customFieldsOption,
	deduplicationOptions,
	phoneField,
} from '../../descriptions';
import { EventPush, orderEvent } from '../../helpers/deduplication';
import {
	readCustomer,
	readDate,
	readNumber,
	readText,
	withCustomFields,
} from '../../helpers/parameters';

export const properties: INodeProperties[] = [
	{
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'ORD-1001',
		description: 'Identifier of the order in the shop',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'paid',
		description: 'Status of the order in the shop, e.g. paid or shipped',
	},
	collection('additionalFields', [
		contactIdField,
		{
			displayName: 'Created At',
			name: 'createdAt',
			type: 'dateTime',
			default: '',
			description: 'When the order was placed in the shop',
		},
		currencyField,
		customFieldsOption('order', 'shipping_method'),
		{
			displayName: 'Customer Email',
			name: 'customerEmail',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description: 'Email of the customer',
		},
		{
			...phoneField,
			name: 'customerPhone',
			displayName: 'Customer Phone',
			description: 'Mobile number of the customer in E.164 format',
		},
		{
			displayName: 'Total',
			name: 'total',
			type: 'number',
			default: 0,
			placeholder: '49.90',
			description: 'Order total',
			hint: 'A decimal number with a dot, e.g. 49.90',
		},
	]),
	deduplicationOptions('the same order ID and status'),
];

/** Rules V1, V4: each item's event (order ID + status) read once, before any is sent; deduplicated. */
export async function prepare(this: IExecuteFunctions, itemCount: number) {
	return await EventPush.start(this, itemCount, (itemIndex) => {
		const orderId = readText(this, 'orderId', itemIndex, { label: 'order ID', required: true });
		const status = readText(this, 'status', itemIndex, { label: 'status', required: true });
		return { identity: orderEvent(orderId, status), identifiers: { order_id: orderId, status } };
	});
}

/**
 * Keyed by order ID (a cart's by cart ID; an unreadable item throws, as in eventOf): an order's events reach the
 * service in input order, never overlapping: `paid` is never overtaken by `shipped`. The push saves what it
 * deduplicated once the items ran, and says what it skipped. Also Cart > Push Abandoned Cart's.
 */
export const orderingKey = (itemIndex: number, push: EventPush) =>
	push.eventOf(itemIndex).identity.parts[0];
export const finish = (push: EventPush) => push.finish();
export const hints = (push: EventPush) => push.hints();

export async function execute(this: IExecuteFunctions, itemIndex: number, push: EventPush) {
	const body = withCustomFields(this, itemIndex, {
		...push.eventOf(itemIndex).identifiers,
		total: readNumber(this, 'additionalFields.total', itemIndex, { label: 'total', min: 0 }),
		currency: readText(this, 'additionalFields.currency', itemIndex, { label: 'currency' }),
		created_at: readDate(this, 'additionalFields.createdAt', itemIndex, 'created at date'),
		customer: readCustomer(
			this,
			itemIndex,
			'additionalFields.customerPhone',
			'additionalFields.customerEmail',
			'additionalFields.contactId',
		),
	});
	return [await push.send(itemIndex, 'orderEvent', body)];
}

export const option = {
	name: 'Push Event',
	description: 'Tell the service an order was placed or changed status',
	action: 'Push an order event',
};
