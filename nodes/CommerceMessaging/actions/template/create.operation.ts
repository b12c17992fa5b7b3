import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { collection, phoneField } from '../../descriptions';
import {
	compact,
	itemError,
	phoneValue,
	readEntries,
	readOption,
	readText,
	textValue,
} from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';

const BUTTON_TYPES = ['PHONE_NUMBER', 'QUICK_REPLY', 'URL'];

/** The buttons as the service takes them, from `additionalFields.buttons`; undefined when there are none. */
function readButtons(ctx: IExecuteFunctions, itemIndex: number) {
	const entries = readEntries(ctx, 'additionalFields.buttons', itemIndex, 'Buttons', 'button');
	if (!entries.length) return undefined;
	return entries.map((entry, position) => {
		const button = `button ${position + 1}`;
		const read = (field: string, label: string) =>
			textValue(ctx, entry[field], itemIndex, { label: `${button} ${label}` });
		const type = read('type', 'type') ?? 'QUICK_REPLY';
		if (!BUTTON_TYPES.includes(type))
			throw itemError(
				ctx,
				itemIndex,
				`${button} has the type "${type}"`,
				`Use one of ${BUTTON_TYPES.join(', ')}.`,
			);
		const text = read('text', 'text');
		if (!text)
			throw itemError(
				ctx,
				itemIndex,
				`${button} has no text`,
				'Give every button the label it shows.',
			);
		if (type === 'URL') {
			const url = read('url', 'URL') ?? '';
			if (!/^https?:\/\/\S+$/i.test(url))
				throw itemError(
					ctx,
					itemIndex,
					`${button} needs an http(s) URL, got "${url}"`,
					'Use a full link, e.g. https://shop.example.com/orders/{{1}}.',
				);
			return { type, text, url };
		}
		if (type === 'PHONE_NUMBER')
			return {
				type,
				text,
				phone_number: phoneValue(ctx, read('phoneNumber', 'phone number') ?? '', itemIndex, button),
			};
		return { type, text };
	});
}

export const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'order_confirmation',
		hint: 'Lowercase letters, digits and underscores only',
		description: 'Unique name of the template',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		default: 'en',
		placeholder: 'en_US',
		description: 'Language code of the template text, e.g. en, en_US or de',
	},
	{
		displayName: 'Category',
		name: 'category',
		type: 'options',
		options: [
			{
				name: 'Authentication',
				value: 'AUTHENTICATION',
				description: 'One-time passwords and login codes',
			},
			{
				name: 'Marketing',
				value: 'MARKETING',
				description: 'Offers, announcements, cart reminders',
			},
			{
				name: 'Utility',
				value: 'UTILITY',
				description: 'Order confirmations, shipping and account updates',
			},
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
		hint: 'Variables are written {{1}}, {{2}}, ... and filled in by Send',
		description: 'Main text of the message',
	},
	collection('additionalFields', [
		{
			displayName: 'Buttons',
			name: 'buttons',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			default: {},
			placeholder: 'Add Button',
			description: 'Quick replies or call-to-action buttons under the message',
			options: [
				{
					displayName: 'Button',
					name: 'button',
					values: [
						{
							displayName: 'Type',
							name: 'type',
							type: 'options',
							options: [
								{ name: 'Phone Number', value: 'PHONE_NUMBER' },
								{ name: 'Quick Reply', value: 'QUICK_REPLY' },
								{ name: 'URL', value: 'URL' },
							],
							default: 'QUICK_REPLY',
						},
						{
							displayName: 'Text',
							name: 'text',
							type: 'string',
							default: '',
							placeholder: 'Track my order',
							description: 'Label of the button',
						},
						{
							displayName: 'URL',
							name: 'url',
							type: 'string',
							default: '',
							placeholder: 'https://shop.example.com/orders/{{1}}',
							description: 'The page the button opens',
							displayOptions: { show: { type: ['URL'] } },
						},
						{
							...phoneField,
							name: 'phoneNumber',
							displayName: 'Phone Number',
							description: 'The number the button calls, in E.164 format',
							displayOptions: { show: { type: ['PHONE_NUMBER'] } },
						},
					],
				},
			],
		},
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
			description: 'Kind of header above the body; a media header gets its file at each send',
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	// Empty name or body are left to the service, whose validation error names the field (rule E3).
	const name = readText(this, 'name', itemIndex, { label: 'template name' });
	const headerType = readOption(this, 'additionalFields.headerType', itemIndex, {
		label: 'Header Type',
		values: ['DOCUMENT', 'IMAGE', 'NONE', 'TEXT', 'VIDEO'],
		fallback: 'NONE',
	});
	const headerText = readText(this, 'additionalFields.headerText', itemIndex, {
		label: 'Header Text',
	});

	// WhatsApp refuses other names at review time; saying so now saves a draft that can never be approved.
	if (name && !/^[a-z0-9_]+$/.test(name))
		throw itemError(
			this,
			itemIndex,
			`"${name}" is not a valid template name`,
			'Use only lowercase letters, digits and underscores, e.g. order_confirmation.',
		);
	if (headerType === 'TEXT' && !headerText)
		throw itemError(
			this,
			itemIndex,
			'Header Type "Text" needs a Header Text',
			'Add a Header Text, or pick another Header Type.',
		);
	if (headerText && headerType !== 'TEXT')
		throw itemError(
			this,
			itemIndex,
			`a Header Text needs Header Type "Text" (it is "${headerType}")`,
			'Set Header Type to "Text", or remove the Header Text.',
		);

	return [
		await apiRequest(this, 'templateCreate', {
			body: compact({
				name,
				language: readText(this, 'language', itemIndex, { label: 'language' }),
				category: readOption(this, 'category', itemIndex, {
					label: 'category',
					values: ['AUTHENTICATION', 'MARKETING', 'UTILITY'],
					fallback: 'MARKETING',
				}),
				body: readText(this, 'body', itemIndex, { label: 'body', keepSpaces: true }),
				header_type: headerType === 'NONE' ? undefined : headerType,
				header_text: headerText,
				footer: readText(this, 'additionalFields.footer', itemIndex, { label: 'footer' }),
				buttons: readButtons(this, itemIndex),
			}),
			itemIndex,
		}),
	];
}

export const option = {
	name: 'Create Draft',
	description: 'Create a WhatsApp template (v2) as a DRAFT',
	action: 'Create a template draft',
};
