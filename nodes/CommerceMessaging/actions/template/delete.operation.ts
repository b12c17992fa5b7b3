import type { IExecuteFunctions } from 'n8n-workflow';

import { readTemplateId } from '../../helpers/template';
import { apiRequest } from '../../../../transport/request';
import { templateLocator } from '../../descriptions';

export const properties = [
	{
		...templateLocator,
		description: 'The template to delete, in any state; this cannot be undone',
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const id = readTemplateId(this, itemIndex);
	const answer = await apiRequest(this, 'templateDelete', { pathParams: { id }, itemIndex });
	// A success answer means it is gone, whatever else the service says about it.
	return [{ id: answer.id ?? id, deleted: true }];
}

export const option = {
	name: 'Delete',
	description: 'Delete a template from the service and from WhatsApp',
	action: 'Delete a template',
};
