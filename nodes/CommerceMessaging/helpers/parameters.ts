import {
	type IDataObject,
	type IExecuteFunctions,
	type IGetNodeParameterOptions,
	type INodeProperties,
	type IPollFunctions,
	NodeOperationError,
	tryToParseDateTime,
} from 'n8n-workflow';

import { isObject } from '../../../transport/answers';
import { cutShort, formatCount } from '../../../transport/format';
import { withContext, type ErrorContext } from '../../../transport/messages';
import {
	DEFAULT_RUN_SETTINGS,
	MAX_ATTEMPTS,
	MAX_CONCURRENCY,
	MAX_WAIT_MS,
	MIN_TIMEOUT_MS,
	type RunSettings,
} from '../../../transport/settings';
import { requestOptions } from '../descriptions';

/**
 * The readers of both nodes: every parameter is read here by its kind, and a value of the wrong kind fails its item
 * before any API call, naming the field and what it got. An object or a list given to a text or number field never
 * goes out as "[object Object]" or "1,2"; a number given to text (an id) goes out as its digits. `required`: an empty
 * value fails; otherwise it is left out (undefined). A fallback applies only where the parameter is not set at all.
 */

type ParameterContext = IExecuteFunctions | IPollFunctions;

const isPoll = (ctx: ParameterContext): ctx is IPollFunctions => !('getInputData' in ctx);

/** A parameter as n8n gives it; `name` may be a field of a collection (`additionalFields.total`). */
const valueOf = (
	ctx: ParameterContext,
	name: string,
	itemIndex: number,
	fallback: unknown = null,
	options?: IGetNodeParameterOptions,
) =>
	isPoll(ctx)
		? ctx.getNodeParameter(name, fallback, options)
		: ctx.getNodeParameter(name, itemIndex, fallback, options);

/** An error of one item ("Item N: ..."; a poll has no items). `context` goes to the Continue On Fail item. */
export function itemError(
	ctx: ParameterContext,
	itemIndex: number,
	message: string,
	description?: string,
	context: ErrorContext = {},
) {
	// A poll's message is a sentence of its own; an item's says which item.
	return withContext(
		new NodeOperationError(
			ctx.getNode(),
			isPoll(ctx)
				? message.charAt(0).toUpperCase() + message.slice(1)
				: `Item ${itemIndex}: ${message}`,
			{ itemIndex, description },
		),
		context,
	);
}

/** A value as messages show it: numbers bare, the rest as JSON, cut short. */
const shown = (value: unknown) =>
	cutShort(typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)));

/** A decimal as people type it: a dot as the separator; no hex, exponents or commas. */
const DECIMAL = /^\s*-?\d+(\.\d+)?\s*$/;
const isEmpty = (value: unknown) =>
	value == null || (typeof value === 'string' && value.trim() === '');
/** A number, or text `pattern` takes as one (else NaN); undefined for any other kind. */
const toNumber = (value: unknown, pattern = DECIMAL) =>
	typeof value === 'number'
		? value
		: typeof value === 'string'
			? pattern.test(value)
				? Number(value)
				: NaN
			: undefined;
const KINDS: Record<string, string> = { string: 'text', object: 'an object' };
const kindOf = (value: unknown) =>
	value === null
		? 'null'
		: Array.isArray(value)
			? 'an array'
			: (KINDS[typeof value] ?? `a ${typeof value}`);

const wrongKind = (
	ctx: ParameterContext,
	itemIndex: number,
	label: string,
	expected: string,
	value: unknown,
) =>
	itemError(
		ctx,
		itemIndex,
		`the ${label} must be ${expected}, not ${kindOf(value)} (${shown(value)})`,
		'An expression gave a value of another kind. Map a single value, e.g. {{ $json.order.id }} rather than {{ $json.order }}.',
	);

/** `label` names the field in messages; `required`: empty fails, else it is left out. */
interface Field {
	label: string;
	required?: boolean;
	description?: string;
}

/** What a reader answers: the value, or undefined unless it is required. */
type Read<T, O> = O extends { required: true } ? T : T | undefined;

/**
 * What every reader does first: an empty value fails when required, else it is undefined; `accept` takes the rest
 * as the reader's kind, or answers undefined for another kind, which fails as not `expected`.
 */
function check<T>(
	ctx: ParameterContext,
	itemIndex: number,
	raw: unknown,
	field: Field,
	expected: string,
	accept: (raw: unknown) => T | undefined,
) {
	if (isEmpty(raw)) {
		if (!field.required) return undefined;
		throw itemError(
			ctx,
			itemIndex,
			`the ${field.label} is empty`,
			field.description ?? `Set the ${field.label}; it is required by the service.`,
		);
	}
	const value = accept(raw);
	if (value === undefined) throw wrongKind(ctx, itemIndex, field.label, expected, raw);
	return value;
}

/** `keepSpaces`: not trimmed; `maxLength` in characters as people count them; `phone`: an E.164 number. */
type TextField = Field & { keepSpaces?: boolean; maxLength?: number; phone?: boolean };

/** Text as typed (trimmed unless `keepSpaces`), or a number as its digits; an object, a list or a boolean fails. */
export const readText = <O extends TextField>(
	ctx: ParameterContext,
	name: string,
	itemIndex: number,
	field: O,
) => textValue(ctx, valueOf(ctx, name, itemIndex), itemIndex, field);

/** readText for a value that is not a parameter of its own (a field of a list entry). */
export function textValue<O extends TextField>(
	ctx: ParameterContext,
	raw: unknown,
	itemIndex: number,
	field: O,
): Read<string, O> {
	const { label, maxLength = Infinity } = field;
	const text = check(ctx, itemIndex, raw, field, 'text or a number', (value) =>
		typeof value === 'string'
			? field.keepSpaces
				? value
				: value.trim()
			: Number.isFinite(value)
				? String(value)
				: undefined,
	);
	if (text && field.phone) return phoneValue(ctx, text, itemIndex);
	// Characters as people count them: an emoji is one, not two UTF-16 units.
	const length = text && maxLength < Infinity ? Array.from(text).length : 0;
	if (length <= maxLength) return text as string;
	throw itemError(
		ctx,
		itemIndex,
		`the ${label} is ${formatCount(length)} characters long, over the limit of ${formatCount(maxLength)}`,
		`Shorten the ${label} by ${formatCount(length - maxLength)} characters, or send it as several messages.`,
	);
}

/** The id a resource locator holds (picked from the list or typed), as text; always required. */
export const readLocatorId = (
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	field: Field,
) =>
	textValue(ctx, valueOf(ctx, name, itemIndex, '', { extractValue: true }), itemIndex, {
		...field,
		required: true,
	});

/**
 * A phone number as E.164, checked before any call (rules C2 and E3 cost no request when it is wrong); `where`: whose.
 * E.164: a plus, a country code that does not start with 0, at most 15 digits. Spaces, dots, dashes, slashes and
 * brackets people type are dropped, and a `(0)` after the country code; a leading 00 is the international prefix.
 */
export function phoneValue(ctx: ParameterContext, raw: string, itemIndex: number, where?: string) {
	// Invisible marks copied from contact apps go first; a trunk 0 in brackets after the country code (`+44 (0)20`)
	// is not dialled from abroad.
	const phone = raw
		.replace(/\p{Cf}/gu, '')
		.trim()
		.replace(/^((?:\+|00)\d{1,3})\s*\(0\)/, '$1')
		.replace(/[\s.\-()/]/g, '')
		.replace(/^00/, '+');
	if (/^\+[1-9]\d{6,14}$/.test(phone)) return phone;
	throw itemError(
		ctx,
		itemIndex,
		`${where ? `${where}: ` : ''}"${raw}" is not an international phone number`,
		'Use the E.164 format: a plus, the country code and the number, e.g. +4915123456789.',
	);
}

/**
 * A number of `min` or more, or its text from an expression: a decimal (money, hours; hex, exponents and commas
 * refused), or with `whole` an integer (an id, a count). Empty is undefined unless required.
 */
export function readNumber<O extends Field & { min: number; whole?: boolean; fallback?: number }>(
	ctx: ParameterContext,
	name: string,
	itemIndex: number,
	field: O,
) {
	const { whole, min, label } = field;
	const raw = valueOf(ctx, name, itemIndex, field.fallback);
	const value = check(ctx, itemIndex, raw, field, 'a number', (given) =>
		toNumber(given, whole ? /^\s*\d+\s*$/ : DECIMAL),
	);
	if (
		value === undefined ||
		((whole ? Number.isSafeInteger : Number.isFinite)(value) && value >= min)
	)
		return value as Read<number, O>;
	// A number of the right kind (an integer is finite) that is still refused is too small, or past exact integers.
	const problem = !(whole ? Number.isInteger : Number.isFinite)(value)
		? `is not ${whole ? 'a whole' : 'a decimal'} number`
		: value < min
			? `is below the minimum of ${min}`
			: 'is too large';
	throw itemError(
		ctx,
		itemIndex,
		`the ${label} ${shown(raw)} ${problem}`,
		field.description ??
			(whole
				? `Use a whole number of ${min} or more.`
				: `Use a decimal number of ${min} or more with a dot as the decimal separator, e.g. 49.90.`),
	);
}

/** Return All + Limit: no limit for Return All, else a whole number of 1 or more. */
export const readListLimit = (ctx: IExecuteFunctions, itemIndex: number) =>
	readBoolean(ctx, 'returnAll', itemIndex, { label: 'Return All', fallback: false })
		? {}
		: {
				limit: readNumber(ctx, 'limit', itemIndex, {
					label: 'Limit',
					whole: true,
					min: 1,
					fallback: 50,
					required: true,
					description:
						'Set Limit to how many results to return at most, a whole number such as 50, or turn on Return All.',
				}),
			};

/** A switch: true or false (also as the text "true" or "false"); not set gives `fallback`. */
export function readBoolean<F extends boolean | undefined>(
	ctx: ParameterContext,
	name: string,
	itemIndex: number,
	field: { label: string; fallback?: F },
) {
	const raw = valueOf(ctx, name, itemIndex, field.fallback);
	return (
		check(ctx, itemIndex, raw, field, 'true or false', (given) =>
			typeof given === 'boolean'
				? given
				: typeof given === 'string' && /^\s*(true|false)\s*$/i.test(given)
					? /true/i.test(given)
					: undefined,
		) ?? (field.fallback as F)
	);
}

/** One of a list of values (an options parameter, or an expression that should give one); not set gives `fallback`. */
export function readOption<T extends string>(
	ctx: ParameterContext,
	name: string,
	itemIndex: number,
	field: { label: string; values: readonly T[]; fallback: T },
) {
	const values = field.values.join(', ');
	const raw = valueOf(ctx, name, itemIndex, field.fallback);
	const chosen = check(ctx, itemIndex, raw, field, `one of ${values}`, (given) =>
		typeof given === 'string' ? (given as T) : undefined,
	);
	if (chosen === undefined || field.values.includes(chosen)) return chosen ?? field.fallback;
	throw itemError(
		ctx,
		itemIndex,
		`the ${field.label} ${shown(raw)} is not one of ${values}`,
		`Choose one of ${values}.`,
	);
}

/**
 * A date and time from the picker or an expression (text, epoch ms, or the date itself: `{{ $now }}` gives a Luxon
 * DateTime, `{{ new Date() }}` a JavaScript Date), as ISO 8601 in UTC (no zone: the workflow's); empty is undefined.
 */
export function readDate(ctx: IExecuteFunctions, name: string, itemIndex: number, label: string) {
	const raw = check(ctx, itemIndex, valueOf(ctx, name, itemIndex), { label }, 'a date', (given) =>
		typeof given === 'string' ||
		typeof given === 'number' ||
		given instanceof Date ||
		(isObject(given) && given.isLuxonDateTime === true)
			? given
			: undefined,
	);
	if (raw === undefined) return undefined;
	try {
		// A number is epoch milliseconds: n8n's parser would read it as text (0 as the year 2000).
		const iso = tryToParseDateTime(typeof raw === 'number' ? new Date(raw) : raw, ctx.getTimezone())
			.toUTC()
			.toISO();
		// Years 0000 to 9999 only: beyond, ISO 8601 needs a sign (`+055840-…`), which no service reads.
		if (iso && /^\d{4}-/.test(iso)) return iso;
	} catch {
		// Reported below with the item and the value.
	}
	throw itemError(
		ctx,
		itemIndex,
		`the ${label} ${shown(raw)} is not a valid date`,
		'Use an ISO 8601 date and time, e.g. 2025-01-31T18:30:00Z.',
	);
}

/** The entries of a list of fields (a fixedCollection such as `additionalFields.customFields`, entries under `entry`). */
export function readEntries(
	ctx: ParameterContext,
	name: string,
	itemIndex: number,
	label: string,
	entry: string,
) {
	const collection = valueOf(ctx, name, itemIndex);
	if (isEmpty(collection)) return [];
	// Not a collection at all: the value itself is what is wrong.
	const list = isObject(collection) ? [collection[entry] ?? []].flat() : [collection];
	const wrong = list.find((value) => !isObject(value));
	if (wrong !== undefined) throw wrongKind(ctx, itemIndex, label, 'a list of fields', wrong);
	return list as IDataObject[];
}

/**
 * A JSON field: JSON text as typed, or the value an expression gave, of the kind the service expects. Empty is
 * undefined. `example`: the right form, for the message; `showValue`: say what it got rather than its kind.
 */
export function readJson(
	ctx: ParameterContext,
	name: string,
	itemIndex: number,
	field: {
		label: string;
		expect: 'object' | 'array' | 'objectOrArray';
		example: string;
		plural?: boolean;
		showValue?: boolean;
	},
) {
	let value = valueOf(ctx, name, itemIndex);
	if (isEmpty(value)) return undefined;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch (error) {
			throw itemError(
				ctx,
				itemIndex,
				`${field.label} ${field.plural ? 'are' : 'is'} not valid JSON`,
				`${(error as Error).message}. ${field.example}`,
			);
		}
	}
	// Of the kind the service expects.
	if (
		(field.expect !== 'object' && Array.isArray(value)) ||
		(field.expect !== 'array' && isObject(value))
	)
		return value as IDataObject | IDataObject[];
	const kind = field.expect === 'objectOrArray' ? 'object or array' : field.expect;
	const got = field.showValue
		? `got ${shown(value)}`
		: `not ${typeof value === 'string' ? 'a string' : kindOf(value)}`;
	throw itemError(ctx, itemIndex, `${field.label} must be a JSON ${kind}, ${got}`, field.example);
}

/** Drops the empty values n8n collections leave behind, so the service never sees "". */
export const compact = (fields: IDataObject) =>
	Object.fromEntries(
		Object.entries(fields).filter(
			([, value]) =>
				value !== '' && value != null && !(isObject(value) && Object.keys(value).length === 0),
		),
	);

/**
 * A body of the item's fields without the empty ones, with "Custom Fields" of `collection` merged in (a named field
 * wins): a name is text, a value goes as the JSON it is.
 */
export function withCustomFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	collection = 'additionalFields',
) {
	return {
		...(Object.fromEntries(
			readEntries(ctx, `${collection}.customFields`, itemIndex, 'Custom Fields', 'field')
				.map((pair) => [
					textValue(ctx, pair.name, itemIndex, { label: 'custom field name' }),
					pair.value,
				])
				// A field without a name is left out.
				.filter(([name]) => name),
		) as IDataObject),
		...compact(body),
	};
}

/**
 * A run-wide setting (Request Options, Batching: from the first item, as n8n's HTTP Request node does), at least
 * `min` (`rule` says so); undefined when not set. Another kind, a value below, or a failing expression fails the run
 * naming the setting as the panel labels it: never a silent default.
 */
export function readSetting(
	ctx: ParameterContext,
	name: string,
	label: string,
	min: number,
	rule: string,
) {
	const fail = (message: string, fix: string) =>
		new NodeOperationError(ctx.getNode(), message, {
			description: `${fix}, or remove the option to use its default.`,
		});
	let raw: unknown;
	try {
		// The field alone (options defeat the collection read whole): a failing expression in another is not this one's.
		raw = valueOf(ctx, name, 0, null, {});
	} catch (error) {
		throw fail(
			`${label}: ${(error as Error).message}`,
			`The expression of ${label} failed. Fix it`,
		);
	}
	if (isEmpty(raw)) return undefined;
	const value = toNumber(raw) ?? NaN;
	if (!Number.isFinite(value))
		throw fail(
			`${label} must be a number, not ${typeof raw === 'number' ? raw : `${kindOf(raw)} (${shown(raw)})`}`,
			`Set ${label} to a number`,
		);
	if (value < min) throw fail(`${label} must be ${rule} (got ${value})`, `Set ${label} to ${rule}`);
	return value;
}

/** For readSetting: a count (a concurrency, a batch size) is rounded, so 1 or more once rounded. */
export const ONE_OR_MORE = [0.5, '1 or more'] as const;

/** A setting in whole units (ms, bytes, counts), capped to `max`. */
const rounded = (value: number, max = Infinity) => Math.min(max, Math.round(value));

/**
 * Each field of the Request Options panel (descriptions.ts) mapped onto the transport's settings: its lowest value,
 * where it lands (ms, bytes, counts), and which setting messages name with its label. Fractions are rounded; values
 * past a bound the panel shows are capped to it.
 */
const REQUEST_OPTION_FIELDS: Record<
	string,
	[
		min: number,
		rule: string,
		apply: (s: RunSettings, value: number) => unknown,
		named: keyof RunSettings['names'],
	]
> = {
	concurrency: [
		...ONE_OR_MORE,
		(s, value) => (s.concurrency = rounded(value, MAX_CONCURRENCY)),
		'sendLess',
	],
	maxAttempts: [
		...ONE_OR_MORE,
		(s, value) => (s.retry.maxAttempts = rounded(value, MAX_ATTEMPTS)),
		'maxAttempts',
	],
	maxListMegabytes: [
		0.001,
		'above 0 (at least 0.001)',
		(s, value) => (s.maxListBytes = rounded(value * 1024 * 1024)),
		'maxListBytes',
	],
	maxRecords: [...ONE_OR_MORE, (s, value) => (s.maxRecords = rounded(value)), 'maxRecords'],
	maxRetryWaitSeconds: [
		0,
		'0 or more (0: no retries)',
		(s, value) => (s.retry.maxTotalWaitMs = rounded(value * 1000, MAX_WAIT_MS)),
		'retryBudget',
	],
	// The least that rounds to MIN_TIMEOUT_MS.
	timeoutSeconds: [
		(MIN_TIMEOUT_MS - 0.5) / 1000,
		`above 0 (at least ${MIN_TIMEOUT_MS / 1000})`,
		(s, value) => (s.retry.timeoutMs = rounded(value * 1000, MAX_WAIT_MS)),
		'timeout',
	],
};

/** The run's Request Options, read once (from the first item); a poll reads one page at a time, so no Concurrency. */
export function readRequestOptions(ctx: ParameterContext) {
	const settings = structuredClone(DEFAULT_RUN_SETTINGS);
	for (const { name, displayName } of requestOptions.options as INodeProperties[]) {
		const [min, rule, apply, named] = REQUEST_OPTION_FIELDS[name];
		const label = `Request Options > ${displayName}`;
		if (isPoll(ctx) && name === 'concurrency') {
			apply(settings, 1);
			continue;
		}
		settings.names[named] =
			named === 'sendLess'
				? `lower ${label}, or the batch size (Options > Batching) where there is one`
				: label;
		const value = readSetting(ctx, `requestOptions.${name}`, label, min, rule);
		if (value !== undefined) apply(settings, value);
	}
	return settings;
}

/**
 * The customer's contact references of a shop event (docs/api-assumptions.md: `customer: {phone?, email?,
 * contact_id?}`), those given; the other arguments name the parameters. None given leaves it empty, and the body's
 * compact (withCustomFields) leaves it out.
 */
export const readCustomer = (
	ctx: IExecuteFunctions,
	itemIndex: number,
	phone: string,
	email: string,
	contactId: string,
) =>
	compact({
		phone: readText(ctx, phone, itemIndex, { label: 'customer phone', phone: true }),
		email: readText(ctx, email, itemIndex, { label: 'customer email' }),
		// The service's contact ids are integers.
		contact_id: readNumber(ctx, contactId, itemIndex, {
			label: 'contact ID',
			whole: true,
			min: 0,
			description: 'A contact ID is a whole number, e.g. 123.',
		}),
	});
