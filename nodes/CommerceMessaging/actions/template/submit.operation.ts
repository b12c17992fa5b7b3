import type { IExecuteFunctions } from 'n8n-workflow';

import { readTemplateId } from '../../helpers/template';
import { apiRequest } from '../../../../transport/request';
import { templateLocator } from '../../descriptions';

export const properties = [
	{ ...templateLocator, description: 'The DRAFT template to submit for WhatsApp review' },
];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return [
		await apiRequest(this, 'templateSubmit', {
			pathParams: { id: readTemplateId(this, itemIndex) },
			itemIndex,
		}),
	];
}

export const option = {
	name: 'Submit for Review',
	description: 'Submit a DRAFT template for WhatsApp review; it becomes PENDING',
	action: 'Submit a template for review',
};
