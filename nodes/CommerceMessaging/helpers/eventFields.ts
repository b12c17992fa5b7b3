import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { compact, itemError, phoneParameter } from './parameters';

/** Pieces shared by the ecommerce events (order and cart); their input is read by helpers/parameters.ts. */

/** The service's contact ids are integers. */
function contactIdValue(ctx: IExecuteFunctions, value: unknown, itemIndex: number): number | undefined {
	const text = String(value ?? '').trim();
	if (!text) return undefined;
	if (!/^\d+$/.test(text)) {
		throw itemError(ctx, itemIndex, `"${text}" is not a contact ID`, 'A contact ID is a whole number, e.g. 123.');
	}
	return Number(text);
}

/**
 * Customer contact references (docs/api-assumptions.md: `customer: {phone?, email?, contact_id?}`), or
 * undefined when none is given. `phoneParameterName` is the parameter path of the phone, checked as E.164.
 */
export function customerReference(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: { email?: unknown; contactId?: unknown },
	phoneParameterName: string,
): IDataObject | undefined {
	const customer = compact({
		phone: phoneParameter(ctx, phoneParameterName, itemIndex, { optional: true }),
		email: String(fields.email ?? '').trim(),
		contact_id: contactIdValue(ctx, fields.contactId, itemIndex),
	});
	return Object.keys(customer).length ? customer : undefined;
}

/** Text fields of a collection, trimmed; empty ones disappear through compact(). */
export function text(value: unknown): string | undefined {
	return value === undefined || value === null ? undefined : String(value).trim();
}

/** The JSend `data` of an accepted event; the document does not show it, so an empty answer gets the event's ids. */
export function acceptedOutput(data: unknown, identifiers: IDataObject): IDataObject {
	return data && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : { ...identifiers, accepted: true };
}
