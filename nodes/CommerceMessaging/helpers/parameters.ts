import type { IDataObject, IExecuteFunctions, IGetNodeParameterOptions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError, tryToParseDateTime } from 'n8n-workflow';

import { setErrorContext, type ServiceErrorContext } from '../../../transport/errors';
import { toE164 } from './phone';

/**
 * The one reading layer of both nodes: every parameter is read here by its kind, and a value of the wrong kind fails
 * its item before any API call naming the field and what it got. So an object or a list given to a text or number
 * field never goes out as "[object Object]" or "1,2"; a number given to text (an id) goes out as its digits.
 */

export type ParameterContext = IExecuteFunctions | IPollFunctions;

type ReadParameter = (name: string, itemIndex: number, fallback?: unknown, options?: IGetNodeParameterOptions) => unknown;

const isPoll = (ctx: ParameterContext): ctx is IPollFunctions => !('getInputData' in ctx);

/** A parameter as n8n gives it; `name` may name a field of a collection (`additionalFields.total`). */
export function valueOf(ctx: ParameterContext, name: string, itemIndex: number, fallback: unknown, options?: IGetNodeParameterOptions): unknown {
	if (isPoll(ctx)) return ctx.getNodeParameter(name, fallback, options);
	return (ctx.getNodeParameter as ReadParameter)(name, itemIndex, fallback, options);
}

/**
 * The run's context, evaluating each parameter of each item once (n8n evaluates at every read; an item's parameters
 * serve its ordering key, its deduplication key and its body); a collection's field comes from the collection read whole.
 */
export function readingParametersOnce(ctx: IExecuteFunctions): IExecuteFunctions {
	const read = ctx.getNodeParameter.bind(ctx) as ReadParameter;
	// Per item, by name (and options); a dotted name's collection and field path, split once per name.
	const kept: Array<Map<string, unknown> | undefined> = [];
	const paths = new Map<string, string[]>();
	const getNodeParameter: ReadParameter = (name, itemIndex, fallback, options) => {
		const key = options === undefined ? name : `${name}\u0000${JSON.stringify(options)}`;
		const itemKept = (kept[itemIndex] ??= new Map());
		if (itemKept.has(key)) return itemKept.get(key);
		let value: unknown;
		if (options === undefined && name.includes('.')) {
			let path = paths.get(name);
			if (!path) paths.set(name, (path = name.split('.')));
			value = getNodeParameter(path[0], itemIndex, {});
			for (let part = 1; part < path.length; part++) value = isPlainObject(value) ? value[path[part]] : undefined;
			if (value === undefined) value = fallback;
		} else {
			value = read(name, itemIndex, fallback, options);
		}
		itemKept.set(key, value);
		return value;
	};
	return Object.create(ctx, { getNodeParameter: { value: getNodeParameter } }) as IExecuteFunctions;
}

/** An error of one item ("Item N: ..."; a trigger's poll has no items). `context` goes to the Continue On Fail item. */
export function itemError(ctx: ParameterContext, itemIndex: number, message: string, description?: string, context?: ServiceErrorContext) {
	const text = isPoll(ctx) ? message.charAt(0).toUpperCase() + message.slice(1) : `Item ${itemIndex}: ${message}`;
	const error = new NodeOperationError(ctx.getNode(), text, { itemIndex, description });
	if (context) setErrorContext(error, context);
	return error;
}

/** A value as messages show it: text in quotes, numbers bare, objects as JSON, cut after 80 characters. */
export function shown(value: unknown): string {
	const text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
	return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}

export const isPlainObject = (value: unknown): value is IDataObject => value !== null && typeof value === 'object' && !Array.isArray(value);
export const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** How messages name what a value is: "an object", "an array", "a boolean", "text", "a number". */
export function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'string') return 'text';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A value of the wrong kind: the field, what it must be, and what it got. */
const wrongKind = (ctx: ParameterContext, itemIndex: number, label: string, expected: string, value: unknown) =>
	itemError(
		ctx,
		itemIndex,
		`the ${label} must be ${expected}, not ${kindOf(value)} (${shown(value)})`,
		'An expression gave a value of another kind. Map a single value, e.g. {{ $json.order.id }} rather than {{ $json.order }}.',
	);

const count = (value: number) => value.toLocaleString('en-US');

/** `label` names the field in messages; `required`: empty fails (else is left out); `keepSpaces`: a message, not an id. */
export interface TextOptions {
	label: string;
	required?: boolean;
	description?: string;
	keepSpaces?: boolean;
	maxLength?: number;
}

type Read<T, O> = {
	(ctx: ParameterContext, name: string, itemIndex: number, options: O & { required: true }): T;
	(ctx: ParameterContext, name: string, itemIndex: number, options: O): T | undefined;
};

/** Text: as typed, or a number as its digits; an object, a list or a boolean fails; empty is left out unless required. */
export const readText: Read<string, TextOptions> = (ctx, name, itemIndex, options) =>
	textValue(ctx, valueOf(ctx, name, itemIndex, ''), itemIndex, options) as string;

/** readText for a value that is not a parameter of its own (a field of a list entry, a resource locator's value). */
export function textValue(ctx: ParameterContext, raw: unknown, itemIndex: number, options: TextOptions): string | undefined {
	let text: string;
	if (typeof raw === 'string') text = options.keepSpaces ? raw : raw.trim();
	else if (typeof raw === 'number' && Number.isFinite(raw)) text = String(raw);
	else if (raw === undefined || raw === null) text = '';
	else throw wrongKind(ctx, itemIndex, options.label, 'text or a number', raw);
	if (!text.trim()) {
		if (!options.required) return undefined;
		throw itemError(ctx, itemIndex, `the ${options.label} is empty`, options.description ?? `Set the ${options.label}; it is required by the service.`);
	}
	// Characters as people count them: an emoji is one, not two UTF-16 units.
	const length = options.maxLength === undefined ? 0 : Array.from(text).length;
	if (options.maxLength !== undefined && length > options.maxLength) {
		throw itemError(
			ctx,
			itemIndex,
			`the ${options.label} is ${count(length)} characters long, over the limit of ${count(options.maxLength)}`,
			`Shorten the ${options.label} by ${count(length - options.maxLength)} characters, or send it as several messages.`,
		);
	}
	return text;
}

/** The id a resource locator holds (picked from the list or typed), required, as text. */
export function readLocatorId(ctx: IExecuteFunctions, name: string, itemIndex: number, options: TextOptions): string {
	return textValue(ctx, valueOf(ctx, name, itemIndex, '', { extractValue: true }), itemIndex, { ...options, required: true }) as string;
}

/** A phone number as E.164, checked before any call (rules C2 and E3 cost no request when it is wrong). */
export const readPhone: Read<string, { label: string }> = (ctx, name, itemIndex, options: { label: string; required?: boolean }) => {
	const raw = textValue(ctx, valueOf(ctx, name, itemIndex, ''), itemIndex, { label: options.label });
	return (raw === undefined && !options.required ? undefined : phoneValue(ctx, raw ?? '', itemIndex)) as string;
};

/** A phone number that is not a parameter of its own (e.g. a button's); `where` says which one. */
export function phoneValue(ctx: ParameterContext, raw: string, itemIndex: number, where?: string): string {
	const phone = toE164(raw);
	if (phone) return phone;
	throw itemError(
		ctx,
		itemIndex,
		`${where ? `${where}: ` : ''}"${raw}" is not an international phone number`,
		'Use the E.164 format: a plus, the country code and the number, e.g. +4915123456789.',
	);
}

/** `optional`: empty is undefined; `phrasing`: `"forty" is not a valid cart total` or `the price "12,90" is not a decimal number`. */
export interface NumberOptions {
	label: string;
	min?: number;
	optional?: boolean;
	phrasing?: 'value' | 'field';
	description?: string;
	fallback?: number;
}

function numberInput(ctx: ParameterContext, name: string, itemIndex: number, options: NumberOptions): number | string | undefined {
	const raw = valueOf(ctx, name, itemIndex, options.fallback ?? null);
	if (typeof raw === 'number' || typeof raw === 'string') return raw;
	if (raw === undefined || raw === null) return undefined;
	throw wrongKind(ctx, itemIndex, options.label, 'a number', raw);
}

type ReadNumber = {
	(ctx: ParameterContext, name: string, itemIndex: number, options: NumberOptions & { optional: true }): number | undefined;
	(ctx: ParameterContext, name: string, itemIndex: number, options: NumberOptions): number;
};

/** A number, or decimal text such as "12.50" (spaces around allowed); hex, exponents and commas give NaN. */
const decimalValue = (raw: unknown) => (typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN);

/** A decimal number (money, hours, seconds): a number, or "12.50" from an expression; hex, exponents and commas are refused. */
export const readDecimal: ReadNumber = (ctx: ParameterContext, name: string, itemIndex: number, options: NumberOptions) => {
	const raw = numberInput(ctx, name, itemIndex, options);
	if (options.optional && isEmpty(raw)) return undefined as never;
	const value = decimalValue(raw);
	if (Number.isFinite(value) && (options.min === undefined || value >= options.min)) return value;
	const min = options.min === 0 ? ' of 0 or more' : options.min !== undefined ? ` of ${options.min} or more` : '';
	const quoted = typeof raw === 'string' ? shown(raw) : `"${shown(raw ?? '')}"`;
	throw itemError(
		ctx,
		itemIndex,
		options.phrasing === 'field'
			? `the ${options.label} ${quoted} is not a decimal number${options.min !== undefined && Number.isFinite(value) ? min : ''}`
			: `${quoted} is not a valid ${options.label}`,
		options.description ?? `Use a decimal number${min} with a dot as the decimal separator, e.g. 49.90.`,
	);
};

/** A whole number such as an id or a limit: an integer, or digits as text; 1.5, "abc" and numbers below `min` fail. */
export const readWholeNumber: ReadNumber = (ctx: ParameterContext, name: string, itemIndex: number, options: NumberOptions) => {
	const raw = numberInput(ctx, name, itemIndex, options);
	if (options.optional && isEmpty(raw)) return undefined as never;
	const value = typeof raw === 'number' ? raw : /^\d+$/.test(raw?.trim() ?? '') ? Number(raw) : NaN;
	const min = options.min ?? 0;
	if (Number.isSafeInteger(value) && value >= min) return value;
	// 0 for a field that starts at 1 is named as below the minimum.
	const problem = Number.isSafeInteger(value) && value >= 0 ? `is below the minimum of ${min}` : 'is not a whole number';
	throw itemError(ctx, itemIndex, `the ${options.label} ${shown(raw ?? null)} ${problem}`, options.description ?? `Use a whole number of ${min} or more.`);
};

/** Return All + Limit (descriptions/ returnAllOrLimit): no limit for Return All, else a whole number >= 1. */
export function readListLimit(ctx: IExecuteFunctions, itemIndex: number): { limit?: number } {
	if (readBoolean(ctx, 'returnAll', itemIndex, { label: 'Return All', fallback: false })) return {};
	const description = 'Set Limit to how many results to return at most, a whole number such as 50, or turn on Return All.';
	return { limit: readWholeNumber(ctx, 'limit', itemIndex, { label: 'Limit', min: 1, fallback: 50, description }) };
}

/** A switch: true or false (also as the text "true" or "false"); not set gives `fallback`. */
export function readBoolean<F extends boolean | undefined>(ctx: ParameterContext, name: string, itemIndex: number, options: { label: string; fallback?: F }): boolean | F {
	const raw = valueOf(ctx, name, itemIndex, options.fallback ?? null);
	if (typeof raw === 'boolean') return raw;
	if (isEmpty(raw)) return options.fallback as F;
	if (typeof raw === 'string' && /^(true|false)$/i.test(raw.trim())) return raw.trim().toLowerCase() === 'true';
	throw wrongKind(ctx, itemIndex, options.label, 'true or false', raw);
}

/** One of a list of values (an options parameter, or an expression that should give one); not set gives `fallback`. */
export function readOption<T extends string>(ctx: ParameterContext, name: string, itemIndex: number, options: { label: string; values: readonly T[]; fallback: T }): T {
	const raw = valueOf(ctx, name, itemIndex, options.fallback);
	if (isEmpty(raw)) return options.fallback;
	if (typeof raw === 'string' && (options.values as readonly string[]).includes(raw)) return raw as T;
	const values = options.values.join(', ');
	if (typeof raw !== 'string') throw wrongKind(ctx, itemIndex, options.label, `one of ${values}`, raw);
	throw itemError(ctx, itemIndex, `the ${options.label} ${shown(raw)} is not one of ${values}`, `Choose one of ${values}.`);
}

/** A date and time from the picker or an expression, as ISO 8601 in UTC (no zone: the workflow's); empty is undefined. */
export function readDate(ctx: IExecuteFunctions, name: string, itemIndex: number, options: { label: string }): string | undefined {
	const raw = valueOf(ctx, name, itemIndex, null);
	if (isEmpty(raw)) return undefined;
	if (typeof raw !== 'string' && typeof raw !== 'number') throw wrongKind(ctx, itemIndex, options.label, 'a date', raw);
	try {
		const iso = tryToParseDateTime(raw, ctx.getTimezone()).toUTC().toISO();
		if (iso) return iso;
	} catch {
		// Reported below with the item and the value.
	}
	const quoted = typeof raw === 'string' ? shown(raw) : `"${shown(raw)}"`;
	throw itemError(ctx, itemIndex, `${quoted} is not a valid ${options.label}`, 'Use an ISO 8601 date and time, e.g. 2025-01-31T18:30:00Z.');
}

/** The entries of a list of fields (a fixedCollection: `additionalFields.customFields`, entries under `field`). */
export function readEntries(ctx: ParameterContext, name: string, itemIndex: number, options: { label: string; entry: string }): IDataObject[] {
	const collection = valueOf(ctx, name, itemIndex, {});
	if (isEmpty(collection)) return [];
	if (!isPlainObject(collection)) throw wrongKind(ctx, itemIndex, options.label, 'a list of fields', collection);
	const entries = collection[options.entry] ?? [];
	const list = Array.isArray(entries) ? entries : [entries];
	const wrong = list.find((entry) => !isPlainObject(entry));
	if (wrong !== undefined) throw wrongKind(ctx, itemIndex, options.label, 'a list of fields', wrong);
	return list as IDataObject[];
}

/** Drops empty strings and empty objects that n8n collections leave behind, so the service never sees "". */
export function compact(fields: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) {
		if (value === '' || value === undefined || value === null) continue;
		if (isPlainObject(value) && Object.keys(value).length === 0) continue;
		result[key] = value;
	}
	return result;
}

/** "Custom Fields" merged into a body (a named parameter wins): a name is text, a value goes as the JSON it is. */
export function withCustomFields(ctx: IExecuteFunctions, name: string, itemIndex: number, body: IDataObject): IDataObject {
	const fields: IDataObject = {};
	for (const pair of readEntries(ctx, name, itemIndex, { label: 'Custom Fields', entry: 'field' })) {
		const fieldName = textValue(ctx, pair.name, itemIndex, { label: 'custom field name' });
		if (fieldName !== undefined) fields[fieldName] = pair.value;
	}
	return { ...fields, ...body };
}

/**
 * A run-wide setting's number (Request Options, Batching: from the first item); undefined when not set. Another kind,
 * or a failing expression, fails the run naming the setting as the panel labels it: never a silent default.
 */
export function readSettingNumber(ctx: ParameterContext, name: string, label: string): number | undefined {
	let raw: unknown;
	try {
		// The field alone (options bypass the collection read whole): a failing expression in another is not this one's.
		raw = valueOf(ctx, name, 0, null, {});
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), `${label}: ${(error as Error).message}`, {
			description: `The expression of ${label} failed. Fix it, or remove the option to use its default.`,
		});
	}
	if (isEmpty(raw)) return undefined;
	const value = decimalValue(raw);
	if (Number.isFinite(value)) return value;
	throw new NodeOperationError(ctx.getNode(), `${label} must be a number, not ${kindOf(raw)} (${shown(raw)})`, {
		description: `Set ${label} to a number, or remove the option to use its default.`,
	});
}

/** A run-wide count (a concurrency, a batch size): rounded, and 1 or more. */
export function settingCount(value: number, fail: (rule: string) => Error): number {
	if (Math.round(value) < 1) throw fail('1 or more');
	return Math.round(value);
}

/** A run-wide setting whose value cannot work (negative, or zero where zero means nothing). */
export function settingError(ctx: ParameterContext, label: string, value: number, rule: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${label} must be ${rule} (got ${value})`, {
		description: `Set ${label} to ${rule}, or remove the option to use its default.`,
	});
}
