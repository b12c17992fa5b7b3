import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactIdField, currencyField, customFieldsOption, deduplicationOptions, phoneField } from '../../descriptions';
import { EventPush, orderEvent } from '../../helpers/deduplication';
import { compact, readCustomer, readDate, readNumber, readText, withCustomFields } from '../../helpers/parameters';

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
		description:
			'Status of the order in the shop, as text. Common values: pending, paid, shipped, delivered, cancelled, refunded. A paid status can start an "order paid" automation.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			contactIdField('ID of the customer in the service\'s contacts (a whole number), sent as customer.contact_id'),
			{
				displayName: 'Created At',
				name: 'createdAt',
				type: 'dateTime',
				default: '',
				description: 'When the order was placed in the shop, sent as ISO 8601 (created_at)',
			},
			currencyField,
			customFieldsOption('order', 'shipping_method'),
			{
				displayName: 'Customer Email',
				name: 'customerEmail',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'Email of the customer, sent as customer.email',
			},
			phoneField({
				name: 'customerPhone',
				displayName: 'Customer Phone',
				description: 'Mobile number of the customer in international E.164 format, sent as customer.phone',
				inCollection: true,
			}),
			{
				displayName: 'Total',
				name: 'total',
				type: 'number',
				default: 0,
				placeholder: '49.90',
				description: 'Order total as a decimal number with a dot, e.g. 49.90',
				hint: 'A decimal number with a dot, e.g. 49.90',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: deduplicationOptions('the same order ID and status'),
	},
];

/** Rules V1, V4: each item's event (order ID + status) read once, before any is sent; deduplicated. */
export async function prepare(this: IExecuteFunctions, itemCount: number): Promise<EventPush> {
	return await EventPush.start(this, itemCount, (itemIndex) => {
		const orderId = readText(this, 'orderId', itemIndex, { label: 'order ID', required: true });
		const status = readText(this, 'status', itemIndex, { label: 'status', required: true });
		return { identity: orderEvent(orderId, status), identifiers: { order_id: orderId, status } };
	});
}

/** An order's events reach the service in input order, never overlapping: `paid` is never overtaken by `shipped`. */
export const orderingKey = (itemIndex: number, push: EventPush) => push.orderingKey(itemIndex);

export async function execute(this: IExecuteFunctions, itemIndex: number, push: EventPush) {
	const { identifiers } = push.eventOf(itemIndex);
	const fields = compact({
		...identifiers,
		total: readNumber(this, 'additionalFields.total', itemIndex, { label: 'total', min: 0 }),
		currency: readText(this, 'additionalFields.currency', itemIndex, { label: 'currency' }),
		created_at: readDate(this, 'additionalFields.createdAt', itemIndex, 'created at date'),
		customer: readCustomer(this, itemIndex, { phone: 'additionalFields.customerPhone', email: 'additionalFields.customerEmail', contactId: 'additionalFields.contactId' }),
	});
	const body = withCustomFields(this, 'additionalFields.customFields', itemIndex, fields);
	return { records: [await push.send(this, itemIndex, 'orderEvent', body)] };
}

export async function finish(this: IExecuteFunctions, push: EventPush): Promise<void> {
	await push.finish(this);
}

export const hints = (push: EventPush, itemCount: number) => push.hints(itemCount);

export const option = {
		name: 'Push Event',
		description: 'Tell the service an order was placed or changed status, e.g. to start an "order paid" automation',
		action: 'Push an order event',
	};
