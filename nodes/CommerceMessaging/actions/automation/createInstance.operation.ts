import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readBoolean, readJson, readNumber } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';

export const properties: INodeProperties[] = [
	{
		displayName: 'Automation ID',
		name: 'automationId',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		placeholder: '12',
		description: 'The numeric ID of the automation to start',
		hint: "A whole number, e.g. 12. Automations cannot be listed through the API: copy the ID from the automation in the service's app.",
	},
	{
		displayName: 'Use Input Item as Payload',
		name: 'useInputAsPayload',
		type: 'boolean',
		default: false,
		description: "Whether to send the input item's JSON as the payload",
	},
	{
		displayName: 'Payload',
		name: 'payload',
		type: 'json',
		default: '{}',
		placeholder: '{"order_id": "ORD-1001", "phone": "+4915123456789"}',
		description: 'Context data for the automation, as a JSON object',
		displayOptions: { show: { useInputAsPayload: [false] } },
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	// Rule V3: automation_id is an integer (digits as text from an expression are read as the number they spell)
	// and payload an object; anything else is refused before any call.
	return [
		await apiRequest(this, 'automationInstanceCreate', {
			body: {
				automation_id: readNumber(this, 'automationId', itemIndex, {
					label: 'automation ID',
					whole: true,
					min: 1,
					required: true,
					description: "Use the automation's numeric ID, a positive whole number such as 12.",
				}),
				payload: readBoolean(this, 'useInputAsPayload', itemIndex, {
					label: 'Use Input Item as Payload',
				})
					? this.getInputData()[itemIndex].json
					: (readJson(this, 'payload', itemIndex, {
							expect: 'object',
							label: 'the payload',
							example: 'Enter a JSON object with named keys, e.g. {"order_id": "ORD-1001"}.',
						}) ?? {}),
			},
			itemIndex,
		}),
	];
}

export const option = {
	name: 'Create Instance',
	description: 'Start an automation flow for an external event, with a JSON payload',
	action: 'Start an automation instance',
};
