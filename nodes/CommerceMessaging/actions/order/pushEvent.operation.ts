import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { orderEvent } from '../../helpers/deduplication';
import { customerReference, eventPushOperation } from '../../helpers/eventPush';
import { readDate, readDecimal, readText } from '../../helpers/parameters';
import { contactIdField, currencyField, customFieldsOption, deduplicationOptions, phoneField } from '../../descriptions';

const properties: INodeProperties[] = [
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

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['pushEvent'] } },
	properties,
);

export const { orderingKey, prepare, execute, finish, hints } = eventPushOperation({
	route: 'orderEvent',
	idParameter: 'orderId',
	idLabel: 'order ID',
	event(ctx: IExecuteFunctions, itemIndex: number) {
		const orderId = readText(ctx, 'orderId', itemIndex, { label: 'order ID', required: true });
		const status = readText(ctx, 'status', itemIndex, { label: 'status', required: true });
		return { identity: orderEvent(orderId, status), identifiers: { order_id: orderId, status } };
	},
	fields(ctx: IExecuteFunctions, itemIndex: number) {
		return {
			total: readDecimal(ctx, 'additionalFields.total', itemIndex, { label: 'total', min: 0, optional: true }),
			currency: readText(ctx, 'additionalFields.currency', itemIndex, { label: 'currency' }),
			created_at: readDate(ctx, 'additionalFields.createdAt', itemIndex, { label: 'created at date' }),
			customer: customerReference(ctx, itemIndex, {
				phone: 'additionalFields.customerPhone',
				email: 'additionalFields.customerEmail',
				contactId: 'additionalFields.contactId',
			}),
		};
	},
});
