import type { IExecuteFunctions } from 'n8n-workflow';

import { readListLimit } from '../../helpers/parameters';
import { listRecords } from '../../../../transport/pagination';
import { returnAllOrLimit } from '../../descriptions';

export const properties = returnAllOrLimit;

/** A whole list per item: its pages are what runs several at a time (Request Options > Concurrency). */
export const oneItemAtATime = true;

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return await listRecords(this, 'productList', { ...readListLimit(this, itemIndex), itemIndex });
}

export const option = {
	name: 'Get Many',
	description: 'List the products of the catalogue',
	action: 'Get many products',
};
