import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError, phoneValue, readEntries, textValue } from '../../helpers/parameters';
import { phoneField } from '../../descriptions';

/** The buttons of Create Draft: their field, and their values read and checked before any call. */
export const buttonsOption: INodeProperties = {
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
					...phoneField({
						name: 'phoneNumber',
						displayName: 'Phone Number',
						description: 'For a Phone Number button: the number it calls, in E.164 format',
						inCollection: true,
					}),
					displayOptions: { show: { type: ['PHONE_NUMBER'] } },
				},
			],
		},
	],
};

const BUTTON_TYPES = ['PHONE_NUMBER', 'QUICK_REPLY', 'URL'] as const;

/** The buttons as the service takes them, from `additionalFields.buttons`; undefined when there are none. */
export function readButtons(ctx: IExecuteFunctions, itemIndex: number): IDataObject[] | undefined {
	const entries = readEntries(ctx, 'additionalFields.buttons', itemIndex, { label: 'Buttons', entry: 'button' });
	if (!entries.length) return undefined;
	return entries.map((entry, position) => {
		const button = `button ${position + 1}`;
		const type = textValue(ctx, entry.type, itemIndex, { label: `${button} type` }) ?? 'QUICK_REPLY';
		if (!(BUTTON_TYPES as readonly string[]).includes(type)) {
			throw itemError(ctx, itemIndex, `${button} has the type "${type}"`, `Use one of ${BUTTON_TYPES.join(', ')}.`);
		}
		const text = textValue(ctx, entry.text, itemIndex, { label: `${button} text` });
		if (!text) throw itemError(ctx, itemIndex, `${button} has no text`, 'Give every button the label it shows.');
		if (type === 'URL') {
			const url = textValue(ctx, entry.url, itemIndex, { label: `${button} URL` }) ?? '';
			if (!/^https?:\/\/\S+$/i.test(url)) {
				throw itemError(ctx, itemIndex, `${button} needs an http(s) URL, got "${url}"`, 'Use a full link, e.g. https://shop.example.com/orders/{{1}}.');
			}
			return { type, text, url };
		}
		if (type === 'PHONE_NUMBER') {
			const phone = textValue(ctx, entry.phoneNumber, itemIndex, { label: `${button} phone number` }) ?? '';
			return { type, text, phone_number: phoneValue(ctx, phone, itemIndex, button) };
		}
		return { type, text };
	});
}
