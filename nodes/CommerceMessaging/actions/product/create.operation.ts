import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readText } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';
import { collection } from '../../descriptions';
import { customFieldsOption, priceOption, productFields, skuOption } from './shared';

export const properties: INodeProperties[] = [
	{
		displayName: 'Product ID',
		name: 'id',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1001',
		description: "The shop's own productId, used later by Get, Update and Delete",
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'T-shirt black',
	},
	collection('additionalFields', [customFieldsOption, priceOption, skuOption]),
];

/** Writes to one product reach the service in input order, never overlapping. */
export function orderingKey(this: IExecuteFunctions, itemIndex: number) {
	return readText(this, 'id', itemIndex, {
		label: 'Product ID',
		required: true,
		description: NEEDS,
	});
}

const NEEDS = "A product needs the shop's productId and a name.";

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	_state: unknown,
	// A productId from an expression is sent as text, as typed (a number as its digits).
	id = orderingKey.call(this, itemIndex),
) {
	const name = readText(this, 'name', itemIndex, {
		label: 'name',
		required: true,
		description: NEEDS,
	});
	return [
		await apiRequest(this, 'productCreate', {
			body: { ...productFields(this, 'additionalFields', itemIndex), id, name },
			itemIndex,
		}),
	];
}

export const option = {
	name: 'Create',
	description: "Add a product to the catalogue under the shop's productId",
	action: 'Create a product',
};
