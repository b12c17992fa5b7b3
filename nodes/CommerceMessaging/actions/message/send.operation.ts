import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { BatchPacer } from '../../helpers/batching';
import { readBoolean, readNumber, readText, withCustomFields } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';
import { batchingOption, collection, customFieldsOption, phoneField } from '../../descriptions';

export const properties: INodeProperties[] = [
	{ ...phoneField, required: true },
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'Hello Ada, your order ORD-1001 has shipped.',
		description: 'Text of the WhatsApp message, at most 4,096 characters',
	},
	collection('additionalFields', [
		{
			displayName: 'Contact ID',
			name: 'contactId',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			placeholder: '42',
			description: 'ID of the contact in the service this message belongs to',
		},
		customFieldsOption('message', 'campaign'),
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			placeholder: 'ORD-1001',
			description: 'Your own reference for this message, e.g. an order ID',
		},
		{
			displayName: 'Preview URL',
			name: 'previewUrl',
			type: 'boolean',
			default: false,
			description: 'Whether WhatsApp shows a preview of the first link in the message',
		},
	]),
	collection('options', [batchingOption]),
];

/** Rule L2: even without options, items go out in batches (helpers/batching.ts), at the defaults the panel shows. */
export async function prepare(this: IExecuteFunctions) {
	return new BatchPacer(this);
}

export const hints = (batches: BatchPacer) => batches.hints();

/** One recipient's messages reach the service in input order, never overlapping (the key is the E.164 phone). */
export function orderingKey(this: IExecuteFunctions, itemIndex: number) {
	return readText(this, 'phone', itemIndex, { label: 'phone', phone: true, required: true });
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	batches: BatchPacer,
	phone?: string,
) {
	// Rule L2: a bulk send is spread out in batches with a pause between them, even without the option.
	return await batches.send(itemIndex, async () => [
		await apiRequest(this, 'whatsappMessageSend', {
			body: withCustomFields(this, itemIndex, {
				phone: phone ?? orderingKey.call(this, itemIndex),
				message: readText(this, 'message', itemIndex, {
					label: 'message text',
					required: true,
					keepSpaces: true,
					// WhatsApp's limit for the text of one message.
					maxLength: 4096,
					description:
						'Enter the text to send, or map it from a field of the input item that is not empty.',
				}),
				contact_id: readNumber(this, 'additionalFields.contactId', itemIndex, {
					label: 'contact ID',
					whole: true,
					min: 1,
				}),
				external_id: readText(this, 'additionalFields.externalId', itemIndex, {
					label: 'external ID',
				}),
				preview_url: readBoolean(this, 'additionalFields.previewUrl', itemIndex, {
					label: 'Preview URL',
				}),
			}),
			itemIndex,
		}),
	]);
}

export const option = {
	name: 'Send WhatsApp',
	description:
		'Reply with a free-text WhatsApp message; to start a conversation, send an approved template',
	action: 'Send a WhatsApp message',
};
