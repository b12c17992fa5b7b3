import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../../transport';
import type { OperationResult } from '../operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Automation ID',
		name: 'automationId',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		placeholder: '12',
		description: 'The numeric ID of the automation definition to start (a whole number)',
		hint: "A whole number, e.g. 12. Automations cannot be listed through the API: copy the ID from the automation in the service's app.",
	},
	{
		displayName: 'Use Input Item as Payload',
		name: 'useInputAsPayload',
		type: 'boolean',
		default: false,
		description:
			"Whether to send the whole JSON of the input item as the instance's payload, instead of the Payload field",
	},
	{
		displayName: 'Payload',
		name: 'payload',
		type: 'json',
		default: '{}',
		placeholder: '{"order_id": "ORD-1001", "phone": "+4915123456789"}',
		description:
			'Context data for the automation instance, as a JSON object (e.g. the order or cart that triggered it). Its keys are up to the automation.',
		displayOptions: { show: { useInputAsPayload: [false] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['automation'], operation: ['createInstance'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const automationId = readAutomationId(this, itemIndex);
	const useInput = this.getNodeParameter('useInputAsPayload', itemIndex, false) as boolean;
	const payload = useInput ? this.getInputData()[itemIndex].json : readPayload(this, itemIndex);
	const body: IDataObject = { automation_id: automationId, payload };
	return (await apiRequest(this, 'automationInstanceCreate', { body, itemIndex })) as IDataObject;
}

/** Rule V3: automation_id is an integer. Digits as text (from an expression) are read as the number they spell. */
function readAutomationId(ctx: IExecuteFunctions, itemIndex: number): number {
	const raw = ctx.getNodeParameter('automationId', itemIndex, undefined) as unknown;
	const text = typeof raw === 'string' ? raw.trim() : undefined;
	const value = typeof raw === 'number' ? raw : text !== undefined && /^\d+$/.test(text) ? Number(text) : NaN;
	if (!Number.isSafeInteger(value) || value < 1) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Item ${itemIndex}: the automation ID ${JSON.stringify(raw) ?? String(raw)} is not a whole number`,
			{ itemIndex, description: "Use the automation's numeric ID, a positive whole number such as 12." },
		);
	}
	return value;
}

/** Rule V3: payload is an object. An array, a plain value or broken JSON is refused before any call. */
function readPayload(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = ctx.getNodeParameter('payload', itemIndex, '{}') as unknown;
	let value: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return {};
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: the payload is not valid JSON`, {
				itemIndex,
				description: `${(error as Error).message}. Enter a JSON object, e.g. {"order_id": "ORD-1001"}.`,
			});
		}
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: the payload must be a JSON object, not ${kind}`, {
			itemIndex,
			description: 'Wrap the values in an object with named keys, e.g. {"items": [...]}.',
		});
	}
	return value as IDataObject;
}
