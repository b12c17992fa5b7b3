import type { IExecuteFunctions } from 'n8n-workflow';

import { readTemplateId } from '../../helpers/template';
import { apiRequest } from '../../../../transport/request';
import { templateLocator } from '../../descriptions';

export const properties = [{ ...templateLocator, description: 'The template to read' }];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const id = readTemplateId(this, itemIndex);
	return [await apiRequest(this, 'templateGet', { pathParams: { id }, itemIndex })];
}

export const option = {
	name: 'Get',
	description: 'Get a template with its state',
	action: 'Get a template',
};
