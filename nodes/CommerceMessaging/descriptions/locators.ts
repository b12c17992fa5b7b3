import type { INodeProperties } from 'n8n-workflow';

/** The template picker shared by every operation that acts on one existing template (read by helpers/template.ts). */
export const templateLocator: INodeProperties = {
	displayName: 'Template',
	name: 'templateId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The WhatsApp template (v2) to use',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a template...',
			typeOptions: { searchListMethod: 'templateSearch', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 42',
			hint: 'The template ID returned by Create Draft or Get Many, e.g. {{ $json.id }}',
		},
	],
};

/** The product to act on: picked from the shop's catalogue (searchable) or typed as the shop's productId. */
export const productLocator: INodeProperties = {
	displayName: 'Product',
	name: 'productId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The product, by the productId the shop gave it',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a product...',
			typeOptions: { searchListMethod: 'productSearch', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 1001',
			hint: "The shop's productId, as used when the product was created",
		},
	],
};
