import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { listRecords } from '../../../transport/pagination';

/**
 * The product picker: the whole catalogue (all pages, read like the template picker and Return All: listRecords,
 * rule L3), narrowed to the products whose name, id or SKU contains the typed text. The API has no search
 * parameter for products.
 */
export async function productSearch(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const products = await listRecords(this, 'productList');
	return { results: productSearchResults(products, filter) };
}

/** "name (id)" entries whose value is the productId, filtered case-insensitively; no text keeps them all. */
export function productSearchResults(products: IDataObject[], filter?: string): INodeListSearchItems[] {
	const needle = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchItems[] = [];
	for (const product of products) {
		if (product.id === undefined || product.id === null || product.id === '') continue;
		const id = String(product.id);
		const name = typeof product.name === 'string' ? product.name.trim() : '';
		const sku = typeof product.sku === 'string' ? product.sku : '';
		if (needle && ![name, id, sku].some((text) => text.toLowerCase().includes(needle))) continue;
		results.push({ name: name ? `${name} (${id})` : id, value: id });
	}
	return results;
}
