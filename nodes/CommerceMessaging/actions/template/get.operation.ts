import type { IExecuteFunctions } from 'n8n-workflow';

import { readTemplateId } from '../../helpers/template';
import { apiRequest } from '../../../../transport/request';
import { templateLocator } from '../../descriptions';

export const properties = [{ ...templateLocator, description: 'The template to read' }];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return [
		await apiRequest(this, 'templateGet', {
			pathParams: { id: readTemplateId(this, itemIndex) },
			itemIndex,
		}),
	];
}

export const option = {
	name: 'Get',
	description: 'Get a template with its state',
	action: 'Get a template',
};
