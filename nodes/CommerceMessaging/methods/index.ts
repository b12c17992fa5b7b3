import type { ILoadOptionsFunctions, INodeType, ResourceMapperFields } from 'n8n-workflow';

import { apiRequest } from '../../../transport/request';
import { placeholdersOf } from '../helpers/template';
import { productSearch } from './productSearch';
import { templateSearch } from './templateSearch';

/**
 * Template > Send's variables: one required field per placeholder of the chosen template, in order, labelled with
 * the text around it, loaded when a template is picked (and again when it changes). None when the template is given
 * by an expression the editor cannot resolve, or its record holds no text: the manual list and JSON remain.
 */
async function templateVariables(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const emptyFieldsNotice =
		'No variables to map: the template has none, or its text could not be read here (an expression, or a record without text). Give them under Options > Variables (List) or Variables (JSON) if it has some.';
	let id: unknown;
	try {
		id = this.getNodeParameter('templateId', undefined, { extractValue: true });
	} catch {
		return { fields: [], emptyFieldsNotice };
	}
	if (typeof id !== 'string' && typeof id !== 'number') return { fields: [], emptyFieldsNotice };
	const placeholders = placeholdersOf(await apiRequest(this, 'templateGet', { pathParams: { id } })) ?? [];
	const fields = placeholders.map(({ id: field, label }) => ({ id: field, displayName: label, required: true, defaultMatch: false, canBeUsedToMatch: false, display: true, type: 'string' as const }));
	return { fields, emptyFieldsNotice };
}

/** Dropdowns, searchable lists and the variables mapper, loaded from the service through the same transport as the operations. */
export const methods: INodeType['methods'] = {
	listSearch: { templateSearch, productSearch },
	resourceMapping: { templateVariables },
};
