import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';
import { customFieldsOption, priceOption, productFields, readProductId, skuOption } from './shared';
import { productLocator } from '../../descriptions';

export const properties: INodeProperties[] = [
	productLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are changed',
		options: [
			customFieldsOption,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'T-shirt black',
			},
			priceOption,
			skuOption,
		],
	},
];

/** Writes to one product reach the service in input order, never overlapping. */
export { readProductId as orderingKey };

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	_state: unknown,
	id = readProductId.call(this, itemIndex),
) {
	const body = productFields(this, 'updateFields', itemIndex);
	if (!Object.keys(body).length)
		throw itemError(
			this,
			itemIndex,
			`nothing to update for product "${id}"`,
			'Add at least one field with a value under "Update Fields".',
		);
	return [await apiRequest(this, 'productUpdate', { pathParams: { id }, body, itemIndex })];
}

export const option = {
	name: 'Update',
	description: 'Change some fields of a product',
	action: 'Update a product',
};
