import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLocatorId, readNumber, readText, withCustomFields } from '../../helpers/parameters';
import { customFieldsOption as customFieldsFor } from '../../descriptions';

/** Optional product fields, shared by Create (Additional Fields) and Update (Update Fields). */
export const customFieldsOption = customFieldsFor('product', 'stock');

export const priceOption: INodeProperties = {
	displayName: 'Price',
	name: 'price',
	type: 'number',
	typeOptions: { numberPrecision: 2, minValue: 0 },
	default: 0,
	placeholder: '49.90',
	description: 'Price of the product',
	hint: 'A decimal number with a dot, e.g. 49.90',
};

export const skuOption: INodeProperties = {
	displayName: 'SKU',
	name: 'sku',
	type: 'string',
	default: '',
	placeholder: 'TSHIRT-BLK-M',
	description: 'Stock keeping unit of the product',
};

/**
 * The productId from the resource locator (either mode), checked before any call. Also the ordering key of Update and
 * Delete: writes to one product reach the service in input order, never overlapping.
 */
export function readProductId(this: IExecuteFunctions, itemIndex: number) {
	return readLocatorId(this, 'productId', itemIndex, {
		label: 'product ID',
		description: "Pick a product from the list or enter the shop's productId.",
	});
}

/** The optional fields of `additionalFields` or `updateFields` as body fields: a decimal price, the rest as typed. */
export const productFields = (ctx: IExecuteFunctions, collection: string, itemIndex: number) =>
	withCustomFields(
		ctx,
		itemIndex,
		{
			name: readText(ctx, `${collection}.name`, itemIndex, { label: 'name' }),
			// A price from an expression may arrive as text ("49.90"); anything that is not a decimal number is refused.
			price: readNumber(ctx, `${collection}.price`, itemIndex, { label: 'price', min: 0 }),
			sku: readText(ctx, `${collection}.sku`, itemIndex, { label: 'SKU' }),
		},
		collection,
	);
