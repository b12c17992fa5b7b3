import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, tryToParseDateTime } from 'n8n-workflow';

import { compact, phoneParameter } from './parameters';

/**
 * Input checks shared by the ecommerce events (order and cart): each one raises a NodeOperationError naming the
 * item and the bad value before any API call.
 */

function badValue(ctx: IExecuteFunctions, itemIndex: number, message: string, description: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: ${message}`, { itemIndex, description });
}

function shown(value: unknown): string {
	return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A required text identifier such as an order ID, trimmed (ids pasted from sheets often carry spaces). */
export function requiredText(ctx: IExecuteFunctions, name: string, label: string, itemIndex: number): string {
	const value = String(ctx.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!value) {
		throw badValue(ctx, itemIndex, `the ${label} is empty`, `Set the ${label}; it is required by the service.`);
	}
	return value;
}

/** A decimal amount: a number, or a string such as "49.90" from an expression; sent as a JSON number. */
export function decimalValue(ctx: IExecuteFunctions, value: unknown, label: string, itemIndex: number): number {
	const amount = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : NaN;
	if (!Number.isFinite(amount)) {
		throw badValue(
			ctx,
			itemIndex,
			`"${shown(value)}" is not a valid ${label}`,
			'Use a decimal number with a dot as decimal separator, e.g. 49.90.',
		);
	}
	return amount;
}

/** A date and time from the picker or an expression, sent as ISO 8601 in UTC; no zone means the workflow's. */
export function isoDateTime(ctx: IExecuteFunctions, value: unknown, label: string, itemIndex: number): string {
	try {
		const parsed = tryToParseDateTime(value, ctx.getTimezone());
		const iso = parsed.toUTC().toISO();
		if (iso) return iso;
	} catch {
		// Reported below with the item and the value.
	}
	throw badValue(
		ctx,
		itemIndex,
		`"${shown(value)}" is not a valid ${label}`,
		'Use an ISO 8601 date and time, e.g. 2025-01-31T18:30:00Z.',
	);
}

/** The service's contact ids are integers. */
function contactIdValue(ctx: IExecuteFunctions, value: unknown, itemIndex: number): number | undefined {
	const text = String(value ?? '').trim();
	if (!text) return undefined;
	if (!/^\d+$/.test(text)) {
		throw badValue(ctx, itemIndex, `"${text}" is not a contact ID`, 'A contact ID is a whole number, e.g. 123.');
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
	fields: { phone?: unknown; email?: unknown; contactId?: unknown },
	phoneParameterName: string,
): IDataObject | undefined {
	const customer = compact({
		phone: String(fields.phone ?? '').trim() ? phoneParameter(ctx, phoneParameterName, itemIndex) : undefined,
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
