import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { compact, phoneParameter, withCustomFields } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport';
import type { OperationResult } from '../operation';
import { customFieldsOption, phoneField } from '../../descriptions';

const properties: INodeProperties[] = [
	phoneField({ required: true }),
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
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['create'] } },
	properties,
);

/** Two creates of one phone number never race each other. */
export function orderingKey(this: IExecuteFunctions, itemIndex: number): string | undefined {
	return phoneParameter(this, 'phone', itemIndex, { optional: true }) || undefined;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const { customFields, tags, ...rest } = additional;
	const body = withCustomFields(
		compact({
			// An empty phone is left to the service, whose validation error names the field (rule E3).
			phone: phoneParameter(this, 'phone', itemIndex, { optional: true }),
			firstname: this.getNodeParameter('firstname', itemIndex, '') as string,
			lastname: this.getNodeParameter('lastname', itemIndex, '') as string,
			email: this.getNodeParameter('email', itemIndex, '') as string,
			tags: typeof tags === 'string' && tags.trim() ? tags.split(',').map((tag) => tag.trim()).filter(Boolean) : undefined,
			...rest,
		}),
		customFields,
	);
	return { records: [await apiRequest(this, 'contactCreate', { body, itemIndex })] };
}
