import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readText, withCustomFields } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';
import { collection, customFieldsOption, phoneField } from '../../descriptions';

export const properties: INodeProperties[] = [
	{ ...phoneField, required: true },
	{
		displayName: 'First Name',
		name: 'firstname',
		type: 'string',
		default: '',
	},
	{
		displayName: 'Last Name',
		name: 'lastname',
		type: 'string',
		default: '',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
	},
	collection('additionalFields', [
		customFieldsOption('contact', 'city'),
		{
			displayName: 'Language',
			name: 'language',
			type: 'string',
			default: '',
			placeholder: 'en',
			description: 'Preferred language of the contact, as an ISO 639-1 code',
		},
		{
			displayName: 'Tags',
			name: 'tags',
			type: 'string',
			default: '',
			placeholder: 'vip, newsletter',
			description: 'Comma-separated tags to put on the contact',
		},
	]),
];

/** Two creates of one phone number never race each other (nor those without one, which the service refuses). */
export function orderingKey(this: IExecuteFunctions, itemIndex: number) {
	return readText(this, 'phone', itemIndex, { label: 'phone', phone: true }) ?? '';
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	_state: unknown,
	phone?: string,
) {
	const tags = readText(this, 'additionalFields.tags', itemIndex, { label: 'tags' });
	return [
		await apiRequest(this, 'contactCreate', {
			body: withCustomFields(this, itemIndex, {
				// An empty phone is left to the service, whose validation error names the field (rule E3).
				phone: phone ?? orderingKey.call(this, itemIndex),
				firstname: readText(this, 'firstname', itemIndex, { label: 'first name' }),
				lastname: readText(this, 'lastname', itemIndex, { label: 'last name' }),
				email: readText(this, 'email', itemIndex, { label: 'email' }),
				language: readText(this, 'additionalFields.language', itemIndex, { label: 'language' }),
				tags: tags
					?.split(',')
					.map((tag) => tag.trim())
					.filter(Boolean),
			}),
			itemIndex,
		}),
	];
}

export const option = {
	name: 'Create',
	description: 'Create a contact',
	action: 'Create a contact',
};
