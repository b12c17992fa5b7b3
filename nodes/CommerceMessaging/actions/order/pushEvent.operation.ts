import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { Deduplication, deduplicationOptions, orderEventKey } from '../../helpers/deduplication';
import { compact, withCustomFields } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport';
import type { OperationResult } from '../operation';
import { customerReference, decimalValue, isoDateTime, requiredText, text } from '../../helpers/eventFields';
import { customFieldsOption } from '../common.descriptions';

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
			{
				displayName: 'Contact ID',
				name: 'contactId',
				type: 'string',
				default: '',
				placeholder: '123',
				description: 'ID of the customer in the service\'s contacts (a whole number), sent as customer.contact_id',
			},
			{
				displayName: 'Created At',
				name: 'createdAt',
				type: 'dateTime',
				default: '',
				description: 'When the order was placed in the shop, sent as ISO 8601 (created_at)',
			},
			{
				displayName: 'Currency',
				name: 'currency',
				type: 'string',
				default: '',
				placeholder: 'EUR',
				description: 'Currency of the total, as an ISO 4217 code',
			},
			customFieldsOption('order', 'shipping_method'),
			{
				displayName: 'Customer Email',
				name: 'customerEmail',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'Email of the customer, sent as customer.email',
			},
			{
				displayName: 'Customer Phone',
				name: 'customerPhone',
				type: 'string',
				default: '',
				placeholder: '+4915123456789',
				description: 'Mobile number of the customer in international E.164 format, sent as customer.phone',
				hint: 'E.164, e.g. +4915123456789',
			},
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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	deduplication: Deduplication,
): Promise<OperationResult> {
	const orderId = requiredText(this, 'orderId', 'order ID', itemIndex);
	const status = requiredText(this, 'status', 'status', itemIndex);
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body = withCustomFields(
		compact({
			order_id: orderId,
			status,
			total: additional.total === undefined ? undefined : decimalValue(this, additional.total, 'total', itemIndex),
			currency: text(additional.currency),
			created_at: text(additional.createdAt) ? isoDateTime(this, additional.createdAt, 'created at date', itemIndex) : undefined,
			customer: customerReference(
				this,
				itemIndex,
				{ phone: additional.customerPhone, email: additional.customerEmail, contactId: additional.contactId },
				'additionalFields.customerPhone',
			),
		}),
		additional.customFields,
	);

	const identifiers = { order_id: orderId, status };
	return await deduplication.sendOnce(itemIndex, orderEventKey(orderId, status), identifiers, async () =>
		await apiRequest(this, 'orderEvent', { body, itemIndex }),
	);
}

export { prepareDeduplication as prepare, finishDeduplication as finish } from '../../helpers/deduplication';
