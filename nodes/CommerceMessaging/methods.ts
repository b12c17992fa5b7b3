import type { INodeType } from 'n8n-workflow';

import { asTemplate } from '../../transport/answers';
import { listRecords } from '../../transport/pagination';
import { apiRequest } from '../../transport/request';
import { placeholdersOf } from './helpers/template';

/**
 * The pickers and the variables mapper, loaded from the service through the same transport as the operations. The
 * lists have no server-side search: each reads every page (rule L3) and keeps what matches the typed text.
 */

const matches = (filter: string | undefined, ...texts: string[]) =>
	texts.some((text) => text.toLowerCase().includes((filter ?? '').trim().toLowerCase()));

export const methods: INodeType['methods'] = {
	listSearch: {
		/** Templates whose name holds the typed text (or whose id it is), by name: `order_confirmation (APPROVED, en)`. */
		async templateSearch(filter) {
			return {
				results: (await listRecords(this, 'templateList'))
					.map(asTemplate)
					.filter(
						({ id, name }) =>
							id != null && (matches(filter, String(name ?? '')) || String(id) === filter?.trim()),
					)
					.map(({ id, name, state, language }) => {
						const details = [state, language]
							.filter((part) => typeof part === 'string' && part !== '')
							.join(', ');
						const label = name ? String(name) : `Template ${id}`;
						return {
							name: details ? `${label} (${details})` : label,
							value: String(id),
						};
					})
					.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })),
			};
		},

		/** Products whose name, id or SKU holds the typed text: `name (id)`, the value being the shop's productId. */
		async productSearch(filter) {
			return {
				results: (await listRecords(this, 'productList')).flatMap((product) => {
					const id = String(product.id ?? '');
					const name = typeof product.name === 'string' ? product.name.trim() : '';
					// A product without an id cannot be picked.
					return id && matches(filter, name, id, typeof product.sku === 'string' ? product.sku : '')
						? [{ name: name ? `${name} (${id})` : id, value: id }]
						: [];
				}),
			};
		},
	},
	resourceMapping: {
		/**
		 * Template > Send's variables: one required field per placeholder of the chosen template, in order, labelled with
		 * the text around it, loaded when a template is picked (and again when it changes). None before a template is
		 * picked, when it is given by an expression the editor cannot resolve, or when its record holds no text: the
		 * manual list and JSON remain.
		 */
		async templateVariables() {
			let id: unknown;
			try {
				id = this.getNodeParameter('templateId', undefined, { extractValue: true });
			} catch {
				// An expression the editor cannot resolve: no template to read.
			}
			// Read as an item's ID is (helpers/parameters.ts): a number as its digits, text trimmed.
			const templateId =
				typeof id === 'number' ? String(id) : typeof id === 'string' ? id.trim() : '';
			const template = templateId
				? await apiRequest(this, 'templateGet', { pathParams: { id: templateId } })
				: {};
			return {
				fields: (placeholdersOf(template) ?? []).map(({ id: field, label }) => ({
					id: field,
					displayName: label,
					required: true,
					defaultMatch: false,
					canBeUsedToMatch: false,
					display: true,
					type: 'string',
				})),
				emptyFieldsNotice:
					'No variables to map: the template has none, or its text could not be read here (an expression, or a record without text). Give them under Options > Variables (List) or Variables (JSON) if it has some.',
			};
		},
	},
};
