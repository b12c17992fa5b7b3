import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, tryToParseDateTime } from 'n8n-workflow';

import { setErrorContext, type ServiceErrorContext } from '../../../transport';
import { toE164 } from './phone';

/**
 * The one input layer of the action node: every parameter that needs checking is read here, and every bad value
 * fails its item before any API call with a NodeOperationError that carries the itemIndex, a message starting
 * "Item N:" that names the field and the value, and a description of the right form.
 */

/** An error of one item. `context` goes to the Continue On Fail error item (e.g. a template's `state`). */
export function itemError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
	context?: ServiceErrorContext,
): NodeOperationError {
	const error = new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: ${message}`, { itemIndex, description });
	if (context) setErrorContext(error, context);
	return error;
}

/** A value as messages show it: text in quotes, numbers bare, objects as JSON, cut after 80 characters. */
export function shown(value: unknown): string {
	const text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
	return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** 4096 -> "4,096", for limits in messages. */
function count(value: number): string {
	return value.toLocaleString('en-US');
}

export interface TextOptions {
	/** How messages name the field, e.g. "order ID" -> "the order ID is empty". */
	label: string;
	/** What to do about an empty value; the default asks to set the field. */
	description?: string;
	/** Whether the value is sent as typed (a message text) rather than trimmed (ids pasted from sheets). */
	keepSpaces?: boolean;
	/** The most characters the service takes; a longer text fails with both numbers. */
	maxLength?: number;
}

/** A required text: empty (or only spaces) fails; ids are trimmed, message texts are kept as typed. */
export function readRequiredText(ctx: IExecuteFunctions, name: string, itemIndex: number, options: TextOptions): string {
	const raw = String(ctx.getNodeParameter(name, itemIndex, '') ?? '');
	const value = options.keepSpaces ? raw : raw.trim();
	if (!value.trim()) {
		throw itemError(
			ctx,
			itemIndex,
			`the ${options.label} is empty`,
			options.description ?? `Set the ${options.label}; it is required by the service.`,
		);
	}
	// Characters as people count them: an emoji is one, not two UTF-16 units.
	const length = Array.from(value).length;
	if (options.maxLength !== undefined && length > options.maxLength) {
		throw itemError(
			ctx,
			itemIndex,
			`the ${options.label} is ${count(length)} characters long, over the limit of ${count(options.maxLength)}`,
			`Shorten the ${options.label} by ${count(length - options.maxLength)} characters, or send it as several messages.`,
		);
	}
	return value;
}

/** A phone number, as E.164, checked before any API call (rules C2 and E3 cost no request when it is wrong). */
export function phoneParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): string;
/** With `optional`, an empty number gives undefined: the field is left out, or left to the service to name. */
export function phoneParameter(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	options: { optional: true },
): string | undefined;
export function phoneParameter(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	options: { optional?: boolean } = {},
): string | undefined {
	const raw = String(ctx.getNodeParameter(name, itemIndex, '') ?? '');
	if (options.optional && !raw.trim()) return undefined;
	return phoneValue(ctx, raw, itemIndex);
}

/** A phone number that is not a parameter of its own (e.g. one of a list of buttons); `where` says which one. */
export function phoneValue(ctx: IExecuteFunctions, raw: string, itemIndex: number, where?: string): string {
	const phone = toE164(raw);
	if (!phone) {
		throw itemError(
			ctx,
			itemIndex,
			`${where ? `${where}: ` : ''}"${raw}" is not an international phone number`,
			'Use the E.164 format: a plus, the country code and the number, e.g. +4915123456789.',
		);
	}
	return phone;
}

export interface NumberOptions {
	/** How messages name the field, e.g. "cart total". */
	label: string;
	/** Smallest value accepted. */
	min?: number;
	/** Whether an absent or empty value gives undefined (an optional field) instead of an error. */
	optional?: boolean;
	/**
	 * 'value' (the default): `"forty" is not a valid cart total`; 'field': `the price "12,90" is not a decimal number`.
	 */
	phrasing?: 'value' | 'field';
	/** Replaces the default description of the right form. */
	description?: string;
}

/**
 * A decimal amount (money): a number, or text such as "12" or "12.50" from an expression, sent as a JSON number.
 * Hex ("0x1F"), exponents ("1e3"), commas, "Infinity" and empty text are refused, though JavaScript would read
 * some of them as numbers: a shop never writes money that way, so it is a mapping mistake.
 */
export function readDecimal(ctx: IExecuteFunctions, name: string, itemIndex: number, options: NumberOptions & { optional: true }): number | undefined;
export function readDecimal(ctx: IExecuteFunctions, name: string, itemIndex: number, options: NumberOptions): number;
export function readDecimal(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	options: NumberOptions,
): number | undefined {
	const raw = ctx.getNodeParameter(name, itemIndex, null) as unknown;
	if (options.optional && isEmpty(raw)) return undefined;
	const text = typeof raw === 'string' ? raw.trim() : undefined;
	const value = typeof raw === 'number' ? raw : text !== undefined && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
	if (Number.isFinite(value) && (options.min === undefined || value >= options.min)) return value;
	const min = options.min === 0 ? ' of 0 or more' : options.min !== undefined ? ` of ${options.min} or more` : '';
	throw itemError(
		ctx,
		itemIndex,
		options.phrasing === 'field'
			? `the ${options.label} ${quoted(raw)} is not a decimal number${options.min !== undefined && Number.isFinite(value) ? min : ''}`
			: `${quoted(raw)} is not a valid ${options.label}`,
		options.description ?? `Use a decimal number${min} with a dot as the decimal separator, e.g. 49.90.`,
	);
}

/** Decimal messages always quote the value, as typed: "-5", "0x1F". */
function quoted(raw: unknown): string {
	return typeof raw === 'string' ? shown(raw) : `"${shown(raw)}"`;
}

/**
 * A whole number such as an id or a limit: an integer, or digits as text from an expression. 1.5, "abc", "" and
 * numbers below `min` fail.
 */
export function readWholeNumber(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	options: NumberOptions & { fallback?: number },
): number {
	const raw = ctx.getNodeParameter(name, itemIndex, options.fallback ?? null) as unknown;
	const text = typeof raw === 'string' ? raw.trim() : undefined;
	const value = typeof raw === 'number' ? raw : text !== undefined && /^\d+$/.test(text) ? Number(text) : NaN;
	const min = options.min ?? 0;
	if (Number.isSafeInteger(value) && value >= min) return value;
	// A whole number is 0, 1, 2...; 0 for a field that starts at 1 is named as below the minimum.
	const problem = Number.isSafeInteger(value) && value >= 0 ? `is below the minimum of ${min}` : 'is not a whole number';
	throw itemError(
		ctx,
		itemIndex,
		`the ${options.label} ${shown(raw)} ${problem}`,
		options.description ?? `Use a whole number of ${min} or more.`,
	);
}

/** Return All + Limit (descriptions/ returnAllOrLimit): no limit for Return All, else a whole number >= 1. */
export function readListLimit(ctx: IExecuteFunctions, itemIndex: number): { limit?: number } {
	if (ctx.getNodeParameter('returnAll', itemIndex, false)) return {};
	const limit = readWholeNumber(ctx, 'limit', itemIndex, {
		label: 'Limit',
		min: 1,
		fallback: 50,
		description: 'Set Limit to how many results to return at most, a whole number such as 50, or turn on Return All.',
	});
	return { limit };
}

/**
 * A date and time from the picker or an expression, as ISO 8601 in UTC; no zone means the workflow's. Empty is
 * undefined: every date of the node is optional.
 */
export function readDate(ctx: IExecuteFunctions, name: string, itemIndex: number, options: { label: string }): string | undefined {
	const raw = ctx.getNodeParameter(name, itemIndex, null) as unknown;
	if (isEmpty(raw)) return undefined;
	try {
		const iso = tryToParseDateTime(raw, ctx.getTimezone()).toUTC().toISO();
		if (iso) return iso;
	} catch {
		// Reported below with the item and the value.
	}
	throw itemError(
		ctx,
		itemIndex,
		`${typeof raw === 'string' ? shown(raw) : `"${shown(raw)}"`} is not a valid ${options.label}`,
		'Use an ISO 8601 date and time, e.g. 2025-01-31T18:30:00Z.',
	);
}

const JSON_KINDS = {
	object: 'a JSON object',
	array: 'a JSON array',
	objectOrArray: 'a JSON object or array',
} as const;

export interface JsonOptions<K extends keyof typeof JSON_KINDS> {
	expect: K;
	/** How messages name the parameter, e.g. "the payload" or "Variables (JSON)". */
	label: string;
	/** "the line items are", not "is". */
	plural?: boolean;
	/** The right form, for the description, e.g. `Enter a JSON object, e.g. {"order_id": "ORD-1001"}.` */
	example: string;
	/** Whether a value of the wrong kind is quoted in the message ("got {...}") rather than only named ("not an array"). */
	showValue?: boolean;
}

type JsonOf<K> = K extends 'object' ? IDataObject : K extends 'array' ? unknown[] : IDataObject | unknown[];

/**
 * A JSON parameter: JSON text as typed, or a value an expression already gave. Empty is undefined (callers pick
 * their default); broken JSON and values of the wrong kind fail.
 */
export function readJsonParameter<K extends keyof typeof JSON_KINDS>(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	options: JsonOptions<K>,
): JsonOf<K> | undefined {
	const raw = ctx.getNodeParameter(name, itemIndex, null) as unknown;
	if (isEmpty(raw)) return undefined;
	let value = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw itemError(
				ctx,
				itemIndex,
				`${options.label} ${options.plural ? 'are' : 'is'} not valid JSON`,
				`${(error as Error).message}. ${options.example}`,
			);
		}
	}
	const isArray = Array.isArray(value);
	const isObject = value !== null && typeof value === 'object' && !isArray;
	const fits = options.expect === 'array' ? isArray : options.expect === 'object' ? isObject : isArray || isObject;
	if (!fits) {
		const kind = isArray ? 'an array' : isObject ? 'an object' : value === null ? 'null' : `a ${typeof value}`;
		throw itemError(
			ctx,
			itemIndex,
			`${options.label} must be ${JSON_KINDS[options.expect]}, ${options.showValue ? `got ${shown(value)}` : `not ${kind}`}`,
			options.example,
		);
	}
	return value as JsonOf<K>;
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
