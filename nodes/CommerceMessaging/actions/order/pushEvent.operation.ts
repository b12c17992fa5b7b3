import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { Deduplication, orderEvent, prepareDeduplication } from '../../helpers/deduplication';
import { compact, readDate, readDecimal, readRequiredText, withCustomFields } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport';
import type { OperationResult } from '../operation';
import { customerReference, text } from '../../helpers/eventFields';
import { customFieldsOption, deduplicationOptions, phoneField } from '../../descriptions';

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

/** An order's events reach the service in input order, never overlapping: `paid` is never overtaken by `shipped`. */
export function orderingKey(this: IExecuteFunctions, itemIndex: number): string {
	return readRequiredText(this, 'orderId', itemIndex, { label: 'order ID' });
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	deduplication: Deduplication,
): Promise<OperationResult> {
	const orderId = readRequiredText(this, 'orderId', itemIndex, { label: 'order ID' });
	const status = readRequiredText(this, 'status', itemIndex, { label: 'status' });
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body = withCustomFields(
		compact({
			order_id: orderId,
			status,
			total: readDecimal(this, 'additionalFields.total', itemIndex, { label: 'total', min: 0, optional: true }),
			currency: text(additional.currency),
			created_at: readDate(this, 'additionalFields.createdAt', itemIndex, { label: 'created at date' }),
			customer: customerReference(
				this,
				itemIndex,
				{ email: additional.customerEmail, contactId: additional.contactId },
				'additionalFields.customerPhone',
			),
		}),
		additional.customFields,
	);

	const identifiers = { order_id: orderId, status };
	const output = await deduplication.send(itemIndex, orderEvent(orderId, status), identifiers, async () =>
		await apiRequest(this, 'orderEvent', { body, itemIndex }),
	);
	return { records: [output] };
}

/** The run's deduplication; the events are read here only for claims in n8n's shared store (queue mode). */
export async function prepare(this: IExecuteFunctions, itemCount: number): Promise<Deduplication> {
	return await prepareDeduplication(this, itemCount, (itemIndex) =>
		orderEvent(
			readRequiredText(this, 'orderId', itemIndex, { label: 'order ID' }),
			readRequiredText(this, 'status', itemIndex, { label: 'status' }),
		),
	);
}

export { finishDeduplication as finish } from '../../helpers/deduplication';
