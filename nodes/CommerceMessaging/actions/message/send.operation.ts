import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { BatchPacer } from '../../helpers/batching';
import { compact, readBoolean, readNumber, readText, withCustomFields } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';
import { batchingOption, customFieldsOption, phoneField } from '../../descriptions';

/** WhatsApp's limit for the text of one message. */
export const MESSAGE_TEXT_MAX_LENGTH = 4096;

export const properties: INodeProperties[] = [
	phoneField({
		required: true,
		description: 'Mobile number of the recipient in international E.164 format (plus, country code, number)',
	}),
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
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Contact ID',
				name: 'contactId',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1,
				placeholder: '42',
				description: 'ID of the contact in the service this message belongs to (integer)',
			},
			customFieldsOption('message', 'campaign'),
			{
				displayName: 'External ID',
				name: 'externalId',
				type: 'string',
				default: '',
				placeholder: 'ORD-1001',
				description: 'Your own reference for this message, e.g. the order it is about',
			},
			{
				displayName: 'Preview URL',
				name: 'previewUrl',
				type: 'boolean',
				default: false,
				description: 'Whether WhatsApp shows a preview of the first link in the message',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [batchingOption],
	},
];

/** Rule L2: even without options, items go out in batches of 50 with a one-second pause. */
export async function prepare(this: IExecuteFunctions): Promise<BatchPacer> {
	return new BatchPacer(this);
}

export const hints = (batches: BatchPacer) => batches.hints();

/** One recipient's messages reach the service in input order, never overlapping (the key is the E.164 phone). */
export function orderingKey(this: IExecuteFunctions, itemIndex: number): string {
	return readText(this, 'phone', itemIndex, { label: 'phone', phone: true, required: true });
}

export async function execute(this: IExecuteFunctions, itemIndex: number, batches: BatchPacer, phone?: string) {
	await batches.waitTurn(itemIndex);
	const fields = compact({
		phone: phone ?? readText(this, 'phone', itemIndex, { label: 'phone', phone: true, required: true }),
		message: readText(this, 'message', itemIndex, {
			label: 'message text',
			required: true,
			keepSpaces: true,
			maxLength: MESSAGE_TEXT_MAX_LENGTH,
			description: 'Enter the text to send, or map it from a field of the input item that is not empty.',
		}),
		contact_id: readNumber(this, 'additionalFields.contactId', itemIndex, {
 label: 'contact ID', whole: true, min: 1 }),
		external_id: readText(this, 'additionalFields.externalId', itemIndex, { label: 'external ID' }),
		preview_url: readBoolean(this, 'additionalFields.previewUrl', itemIndex, { label: 'Preview URL' }),
	});
	const body = withCustomFields(this, 'additionalFields.customFields', itemIndex, fields);
	return { records: [await apiRequest(this, 'whatsappMessageSend', { body, itemIndex })] };
}

export const option = {
		name: 'Send WhatsApp',
		description:
			'Send a free-text WhatsApp message to one phone number (E.164). Use it to reply within a conversation; to start one, send an approved template.',
		// The brand is spelled WhatsApp; the rule's sentence case would turn it into "whats app".
		// eslint-disable-next-line n8n-nodes-base/node-param-operation-option-action-miscased
		action: 'Send a WhatsApp message',
	};
