import type { IDataObject } from 'n8n-workflow';

import { isEmpty, isPlainObject, itemError, kindOf, shown, valueOf, type ParameterContext } from './parameters';

/**
 * A JSON field of the reading layer (parameters.ts): JSON text as typed, or the value an expression gave, checked
 * for the kind the service expects, so broken JSON or the wrong kind fails its item naming the field.
 */

const JSON_KINDS = { object: 'a JSON object', array: 'a JSON array', objectOrArray: 'a JSON object or array' } as const;

/** `plural`: "the line items are"; `example`: the right form; `showValue`: "got {...}" rather than "not an array". */
export interface JsonOptions<K extends keyof typeof JSON_KINDS> {
	expect: K;
	label: string;
	plural?: boolean;
	example: string;
	showValue?: boolean;
}

type JsonOf<K> = K extends 'object' ? IDataObject : K extends 'array' ? unknown[] : IDataObject | unknown[];

/** Empty is undefined; broken JSON and the wrong kind fail. */
export function readJson<K extends keyof typeof JSON_KINDS>(ctx: ParameterContext, name: string, itemIndex: number, options: JsonOptions<K>): JsonOf<K> | undefined {
	const raw = valueOf(ctx, name, itemIndex, null);
	if (isEmpty(raw)) return undefined;
	let value = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw itemError(ctx, itemIndex, `${options.label} ${options.plural ? 'are' : 'is'} not valid JSON`, `${(error as Error).message}. ${options.example}`);
		}
	}
	const isArray = Array.isArray(value);
	const fits = options.expect === 'array' ? isArray : options.expect === 'object' ? isPlainObject(value) : isArray || isPlainObject(value);
	if (fits) return value as JsonOf<K>;
	const kind = typeof value === 'string' ? 'a string' : kindOf(value);
	throw itemError(ctx, itemIndex, `${options.label} must be ${JSON_KINDS[options.expect]}, ${options.showValue ? `got ${shown(value)}` : `not ${kind}`}`, options.example);
}
