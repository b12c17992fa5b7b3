import { type IExecuteFunctions, type INodeProperties, type INodePropertyOptions, updateDisplayOptions } from 'n8n-workflow';

import { itemError } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';
import { customFieldsOption, priceOption, productFields, readProductId, skuOption } from './shared';
import { productLocator } from '../../descriptions';

const properties: INodeProperties[] = [
	productLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are changed; the others keep their values',
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

export const description = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['update'] } },
	properties,
);

/** Writes to one product reach the service in input order, never overlapping. */
export function orderingKey(this: IExecuteFunctions, itemIndex: number): string {
	return readProductId(this, itemIndex);
}

export async function execute(this: IExecuteFunctions, itemIndex: number, _state: unknown, productId?: string) {
	const id = productId ?? readProductId(this, itemIndex);
	const body = productFields(this, 'updateFields', itemIndex);
	if (Object.keys(body).length === 0) {
		throw itemError(this, itemIndex, `nothing to update for product "${id}"`, 'Add at least one field with a value under "Update Fields".');
	}
	return { records: [await apiRequest(this, 'productUpdate', { pathParams: { id }, body, itemIndex })] };
}

export const option: INodePropertyOptions = {
		name: 'Update',
		value: 'update',
		description: 'Change some fields of a product',
		action: 'Update a product',
	};
