import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateIdParameter } from '../../helpers/template';
import { apiRequest } from '../../../../transport/request';
import type { OperationResult } from '../operation';
import { templateLocator } from '../../descriptions';

export const description = updateDisplayOptions({ show: { resource: ['template'], operation: ['delete'] } }, [
	{
		...templateLocator,
		description:
			'The template to delete, in any state. It is removed from the service and from WhatsApp; this cannot be undone.',
	},
]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const id = templateIdParameter(this, itemIndex);
	const answer = await apiRequest(this, 'templateDelete', { pathParams: { id }, itemIndex });
	// A success answer means it is gone, whatever else the service says about it.
	return { records: [{ id: answer.id ?? id, deleted: true }] };
}
