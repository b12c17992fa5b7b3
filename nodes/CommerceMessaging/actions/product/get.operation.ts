import { type IExecuteFunctions, type INodePropertyOptions, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../../transport/request';
import { readProductId } from './shared';
import { productLocator } from '../../descriptions';

export const description = updateDisplayOptions({ show: { resource: ['product'], operation: ['get'] } }, [
	productLocator,
]);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const id = readProductId(this, itemIndex);
	return { records: [await apiRequest(this, 'productGet', { pathParams: { id }, itemIndex })] };
}

export const option: INodePropertyOptions = { name: 'Get', value: 'get', description: 'Get a product by its productId', action: 'Get a product' };
