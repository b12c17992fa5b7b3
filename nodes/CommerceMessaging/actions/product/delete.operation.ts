import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../../transport/request';
import { readProductId } from './shared';
import { productLocator } from '../../descriptions';

export const properties = [productLocator];

/** Writes to one product reach the service in input order, never overlapping. */
export { readProductId as orderingKey };

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	_state: unknown,
	id = readProductId.call(this, itemIndex),
) {
	// The answer's payload is not shown: whatever it holds, the item says which product is gone.
	const answer = await apiRequest(this, 'productDelete', { pathParams: { id }, itemIndex });
	return [{ ...answer, id: answer.id ?? id, deleted: true }];
}

export const option = {
	name: 'Delete',
	description: 'Remove a product from the catalogue',
	action: 'Delete a product',
};
