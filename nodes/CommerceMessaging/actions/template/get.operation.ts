import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateIdParameter } from '../../helpers/template';
import { apiRequest } from '../../../../transport/request';
import type { OperationResult } from '../operation';
import { templateLocator } from '../../descriptions';

export const description = updateDisplayOptions({ show: { resource: ['template'], operation: ['get'] } }, [
	{ ...templateLocator, description: 'The template to read, with its state (DRAFT, PENDING, APPROVED or REJECTED)' },
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const id = templateIdParameter(this, itemIndex);
	return { records: [await apiRequest(this, 'templateGet', { pathParams: { id }, itemIndex })] };
}
