import { type IExecuteFunctions, type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import { compact, itemError, readOption, readText } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';
import { buttonsOption, readButtons } from './buttons';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'order_confirmation',
		hint: 'Lowercase letters, digits and underscores only',
		description: 'Unique name of the template, as WhatsApp shows it to reviewers',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		default: 'en',
		placeholder: 'en_US',
		description: 'Language code of the template text, e.g. en, en_US, de or fr',
	},
	{
		displayName: 'Category',
		name: 'category',
		type: 'options',
		options: [
			{ name: 'Authentication', value: 'AUTHENTICATION', description: 'One-time passwords and login codes' },
			{ name: 'Marketing', value: 'MARKETING', description: 'Offers, announcements, cart reminders' },
			{ name: 'Utility', value: 'UTILITY', description: 'Order confirmations, shipping and account updates' },
		],
		default: 'MARKETING',
		description: 'WhatsApp category the template is reviewed under',
	},
	{
		displayName: 'Body',
		name: 'body',
		type: 'string',
		required: true,
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'Hello {{1}}, your order {{2}} is confirmed.',
		hint: 'Variables are written {{1}}, {{2}}, ... and filled in per recipient by Send',
		description: 'Main text of the message',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			buttonsOption,
			{
				displayName: 'Footer',
				name: 'footer',
				type: 'string',
				default: '',
				placeholder: 'Reply STOP to unsubscribe',
				description: 'Short grey text under the body',
			},
			{
				displayName: 'Header Text',
				name: 'headerText',
				type: 'string',
				default: '',
				placeholder: 'Your order is confirmed',
				description: 'Text of the header; only with Header Type "Text"',
			},
			{
				displayName: 'Header Type',
				name: 'headerType',
				type: 'options',
				options: [
					{ name: 'Document', value: 'DOCUMENT' },
					{ name: 'Image', value: 'IMAGE' },
					{ name: 'None', value: 'NONE' },
					{ name: 'Text', value: 'TEXT' },
					{ name: 'Video', value: 'VIDEO' },
				],
				default: 'NONE',
				description:
					'Kind of header above the body. For Image, Video or Document, each send passes the file as Header Media ID (from Media > Upload).',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['create'] } },
	properties,
);

const NAME_PATTERN = /^[a-z0-9_]+$/;
const CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'] as const;
const HEADER_TYPES = ['DOCUMENT', 'IMAGE', 'NONE', 'TEXT', 'VIDEO'] as const;

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	// Empty name or body are left to the service, whose validation error names the field (rule E3).
	const name = readText(this, 'name', itemIndex, { label: 'template name' });
	const headerType = readOption(this, 'additionalFields.headerType', itemIndex, { label: 'Header Type', values: HEADER_TYPES, fallback: 'NONE' });
	const headerText = readText(this, 'additionalFields.headerText', itemIndex, { label: 'Header Text' });

	// WhatsApp refuses other names at review time; saying so now saves a draft that can never be approved.
	if (name && !NAME_PATTERN.test(name)) {
		throw itemError(
			this,
			itemIndex,
			`"${name}" is not a valid template name`,
			'Use only lowercase letters, digits and underscores, e.g. order_confirmation.',
		);
	}
	if (headerType === 'TEXT' && !headerText) {
		throw itemError(this, itemIndex, 'Header Type "Text" needs a Header Text', 'Add a Header Text, or pick another Header Type.');
	}
	if (headerText && headerType !== 'TEXT') {
		throw itemError(
			this,
			itemIndex,
			`a Header Text needs Header Type "Text" (it is "${headerType}")`,
			'Set Header Type to "Text", or remove the Header Text.',
		);
	}

	const body = compact({
		name,
		language: readText(this, 'language', itemIndex, { label: 'language' }),
		category: readOption(this, 'category', itemIndex, { label: 'category', values: CATEGORIES, fallback: 'MARKETING' }),
		body: readText(this, 'body', itemIndex, { label: 'body', keepSpaces: true }),
		header_type: headerType === 'NONE' ? undefined : headerType,
		header_text: headerText,
		footer: readText(this, 'additionalFields.footer', itemIndex, { label: 'footer' }),
		buttons: readButtons(this, itemIndex),
	});
	return { records: [await apiRequest(this, 'templateCreate', { body, itemIndex })] };
}
