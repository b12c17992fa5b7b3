import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readRequiredText } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport';
import type { OperationResult } from '../operation';
import { customFieldsOption, priceOption, productFields, skuOption } from './shared';

const properties: INodeProperties[] = [
	{
		displayName: 'Product ID',
		name: 'id',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
		description:
			"The shop's own productId for this product; later Get, Update and Delete calls use it. An ID that already exists is refused by the service.",
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'T-shirt black',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [customFieldsOption, priceOption, skuOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['create'] } },
	properties,
);

/** Writes to one product reach the service in input order, never overlapping. */
export function orderingKey(this: IExecuteFunctions, itemIndex: number): string {
	return String(this.getNodeParameter('id', itemIndex, '') ?? '').trim();
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const rawId = this.getNodeParameter('id', itemIndex, '') as unknown;
	const needs = "A product needs the shop's productId and a name.";
	// An integer id from an expression stays a number, as the shop sent it; text ids are kept as text.
	const id =
		typeof rawId === 'number' && Number.isInteger(rawId)
			? rawId
			: readRequiredText(this, 'id', itemIndex, { label: 'Product ID', description: needs });
	const name = readRequiredText(this, 'name', itemIndex, { label: 'name', description: needs });
	const body = { ...productFields(this, 'additionalFields', itemIndex), id, name };
	return { records: [await apiRequest(this, 'productCreate', { body, itemIndex })] };
}
