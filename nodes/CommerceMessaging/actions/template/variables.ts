import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readJson } from '../../helpers/jsonParameter';
import { itemError, readEntries, textValue } from '../../helpers/parameters';

/**
 * The body variables of Send, in order, from the Template Variables list or from the Variables (JSON) option (not
 * both), checked before any call: WhatsApp refuses a template message with an empty variable.
 */
export function readVariables(ctx: IExecuteFunctions, itemIndex: number): string[] | IDataObject | undefined {
	const listed = readEntries(ctx, 'templateVariables', itemIndex, { label: 'Template Variables', entry: 'variable' });
	const json = readJson(ctx, 'options.variablesJson', itemIndex, {
		expect: 'objectOrArray',
		label: 'Variables (JSON)',
		showValue: true,
		example: 'Write an array such as ["Ada", "A-1001"] or an object such as {"1": "Ada", "2": "A-1001"}.',
	});
	// An empty array or object means no variables, like an empty field.
	const fromJson = json && Object.keys(json).length ? json : undefined;
	const nested = Array.isArray(fromJson) ? fromJson.findIndex((entry) => entry !== null && typeof entry === 'object') : -1;
	if (nested !== -1) {
		throw itemError(ctx, itemIndex, `variable {{${nested + 1}}} in Variables (JSON) is an object or a list, not a text`);
	}
	if (listed.length && fromJson !== undefined) {
		throw itemError(
			ctx,
			itemIndex,
			'the variables are given twice, in Template Variables and in Variables (JSON)',
			'Use one of the two and leave the other empty.',
		);
	}
	if (fromJson !== undefined && !Array.isArray(fromJson)) {
		const named = Object.entries(fromJson).map(([key, value]) => [key, textValue(ctx, value, itemIndex, { label: `variable ${key}`, required: true, keepSpaces: true })]);
		return Object.fromEntries(named) as IDataObject;
	}
	const values = fromJson ?? listed.map((entry) => entry.value);
	// Each value is text (a number from an expression as its digits); an object or a list fails naming the variable.
	const strings = values.map((value, position) => textValue(ctx, value, itemIndex, { label: `variable {{${position + 1}}}`, keepSpaces: true }) ?? '');
	const empty = strings.findIndex((value) => value.trim() === '');
	if (empty !== -1) {
		throw itemError(
			ctx,
			itemIndex,
			`variable {{${empty + 1}}} is empty`,
			'WhatsApp refuses a template message with an empty variable. Check the expression that fills it.',
		);
	}
	return strings.length ? strings : undefined;
}
