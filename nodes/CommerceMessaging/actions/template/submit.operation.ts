import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateIdParameter } from '../../helpers/template';
import { apiRequest } from '../../../../transport/request';
import type { OperationResult } from '../operation';
import { templateLocator } from '../../descriptions';

export const description = updateDisplayOptions({ show: { resource: ['template'], operation: ['submit'] } }, [
	{
		...templateLocator,
		description:
			'The DRAFT template to submit for review by WhatsApp. It becomes PENDING; use Wait for Approval to continue once it is APPROVED.',
	},
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const id = templateIdParameter(this, itemIndex);
	return { records: [await apiRequest(this, 'templateSubmit', { pathParams: { id }, itemIndex })] };
}
