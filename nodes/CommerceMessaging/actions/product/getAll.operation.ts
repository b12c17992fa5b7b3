import { type IExecuteFunctions, type INodePropertyOptions, updateDisplayOptions } from 'n8n-workflow';

import { readListLimit } from '../../helpers/parameters';
import { listRecords } from '../../../../transport/pagination';
import { returnAllOrLimit } from '../../descriptions';

export const description = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['getAll'] } },
	returnAllOrLimit,
);

/** A whole list per item: its pages are what runs several at a time (Request Options > Concurrency). */
export const oneItemAtATime = true;

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return { records: await listRecords(this, 'productList', { ...readListLimit(this, itemIndex), itemIndex }) };
}

export const option: INodePropertyOptions = { name: 'Get Many', value: 'getAll', description: 'List the products of the catalogue', action: 'Get many products' };
