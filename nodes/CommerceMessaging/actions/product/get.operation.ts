import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../../transport/request';
import { readProductId } from './shared';
import { productLocator } from '../../descriptions';

export const properties = [productLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return [
		await apiRequest(this, 'productGet', {
			pathParams: { id: readProductId.call(this, itemIndex) },
			itemIndex,
		}),
	];
}

export const option = {
	name: 'Get',
	description: 'Get a product by its productId',
	action: 'Get a product',
};
