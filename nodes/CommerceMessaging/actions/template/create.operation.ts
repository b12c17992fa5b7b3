import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { compact } from '../../helpers/parameters';
import { toE164 } from '../../helpers/phone';
import { asTemplate } from '../../helpers/template';
import { apiRequest } from '../../../../transport';
import type { OperationResult } from '../operation';

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
			{
				displayName: 'Buttons',
				name: 'buttons',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true, sortable: true },
				default: {},
				placeholder: 'Add Button',
				description: 'Buttons under the message (WhatsApp allows a few quick replies or call-to-action buttons)',
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
								description: 'For a URL button: the page it opens',
								displayOptions: { show: { type: ['URL'] } },
							},
							{
								displayName: 'Phone Number',
								name: 'phoneNumber',
								type: 'string',
								default: '',
								placeholder: '+4915123456789',
								description: 'For a Phone Number button: the number it calls, in E.164 format',
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

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const name = String(this.getNodeParameter('name', itemIndex, '') ?? '').trim();
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const headerType = String(additional.headerType ?? 'NONE');
	const headerText = String(additional.headerText ?? '').trim();

	// WhatsApp refuses other names at review time; saying so now saves a draft that can never be approved.
	if (name && !NAME_PATTERN.test(name)) {
		throw new NodeOperationError(
			this.getNode(),
			`Item ${itemIndex}: "${name}" is not a valid template name`,
			{
				itemIndex,
				description: 'Use only lowercase letters, digits and underscores, e.g. order_confirmation.',
			},
		);
	}
	if (headerType === 'TEXT' && !headerText) {
		throw new NodeOperationError(this.getNode(), `Item ${itemIndex}: Header Type "Text" needs a Header Text`, {
			itemIndex,
		});
	}
	if (headerText && headerType !== 'TEXT') {
		throw new NodeOperationError(
			this.getNode(),
			`Item ${itemIndex}: a Header Text needs Header Type "Text" (it is "${headerType}")`,
			{ itemIndex },
		);
	}

	const body = compact({
		// Empty name or body are left to the service, whose validation error names the field (rule E3).
		name,
		language: String(this.getNodeParameter('language', itemIndex, 'en') ?? '').trim(),
		category: this.getNodeParameter('category', itemIndex, 'MARKETING') as string,
		body: this.getNodeParameter('body', itemIndex, '') as string,
		header_type: headerType === 'NONE' ? undefined : headerType,
		header_text: headerText,
		footer: String(additional.footer ?? '').trim(),
		buttons: readButtons(this, additional.buttons, itemIndex),
	});
	return asTemplate(await apiRequest(this, 'templateCreate', { body, itemIndex }));
}

function readButtons(ctx: IExecuteFunctions, value: unknown, itemIndex: number): IDataObject[] | undefined {
	const entries = ((value as IDataObject | undefined)?.button ?? []) as IDataObject[];
	if (!entries.length) return undefined;
	return entries.map((entry, position) => {
		const type = String(entry.type ?? 'QUICK_REPLY');
		const text = String(entry.text ?? '').trim();
		const fail = (problem: string) =>
			new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: button ${position + 1} ${problem}`, { itemIndex });
		if (!text) throw fail('has no text');
		if (type === 'URL') {
			const url = String(entry.url ?? '').trim();
			if (!/^https?:\/\/\S+$/i.test(url)) throw fail(`needs an http(s) URL, got "${url}"`);
			return { type, text, url };
		}
		if (type === 'PHONE_NUMBER') {
			const raw = String(entry.phoneNumber ?? '');
			const phone = toE164(raw);
			if (!phone) throw fail(`needs a phone number in E.164 format (e.g. +4915123456789), got "${raw}"`);
			return { type, text, phone_number: phone };
		}
		return { type, text };
	});
}
