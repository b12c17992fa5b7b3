import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listRecords } from '../../../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import type { OperationResult } from '../operation';

export const description = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['getAll'] } },
	returnAllOrLimit(),
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number);
	return await listRecords(this, 'productList', { limit, itemIndex });
}
