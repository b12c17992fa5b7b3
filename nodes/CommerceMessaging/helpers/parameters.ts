import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toE164 } from './phone';

/** A phone number parameter, checked before any API call (rules C2 and E3 cost no request when the number is wrong). */
export function phoneParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const raw = String(ctx.getNodeParameter(name, itemIndex, '') ?? '');
	const phone = toE164(raw);
	if (!phone) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Item ${itemIndex}: "${raw}" is not an international phone number`,
			{
				itemIndex,
				description: 'Use the E.164 format: a plus, the country code and the number, e.g. +4915123456789.',
			},
		);
	}
	return phone;
}

/** Drops empty strings and empty objects that n8n collections leave behind, so the service never sees "". */
export function compact(fields: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) {
		if (value === '' || value === undefined || value === null) continue;
		if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) continue;
		result[key] = value;
	}
	return result;
}

/** "Custom Fields" (name/value pairs) merged into a body; a name already set by a named parameter wins. */
export function withCustomFields(body: IDataObject, customFields: unknown): IDataObject {
	const pairs = ((customFields as IDataObject | undefined)?.field ?? []) as IDataObject[];
	const extra: IDataObject = {};
	for (const pair of pairs) {
		const name = String(pair.name ?? '').trim();
		if (name) extra[name] = pair.value as IDataObject[keyof IDataObject];
	}
	return { ...extra, ...body };
}
