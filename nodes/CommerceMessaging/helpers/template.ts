import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isObject, type TemplateRecord } from '../../../transport/answers';
import { readLocatorId } from './parameters';

/** The chosen template's id, checked before any API call. */
export const readTemplateId = (ctx: IExecuteFunctions, itemIndex: number) =>
	readLocatorId(ctx, 'templateId', itemIndex, { label: 'template ID', description: 'Pick a template from the list, or give its ID (e.g. 42 or {{ $json.id }}).' });

/** `"order_confirmation" (ID 42)`, for messages. */
export const templateTitle = (template: TemplateRecord, fallbackId: string) => (template.name ? `"${template.name}" (ID ${template.id ?? fallbackId})` : `ID ${template.id ?? fallbackId}`);

/** Why a REJECTED template was rejected: the document puts it in `data`; the assumptions name it `reason`. */
export function rejectionReason(template: TemplateRecord): string | undefined {
	for (const candidate of [template.reason, template.data]) {
		const reason = isObject(candidate) ? (candidate.reason ?? candidate.message) : candidate;
		if (typeof reason === 'string' && reason.trim()) return reason.trim();
	}
	return undefined;
}

/**
 * One placeholder of a template: `{{1}}` (positional) or `{{customer_name}}` (named), in the header text, the body or
 * a URL button (`button` is its position among all the template's buttons). Each of them is numbered on its own.
 */
export interface Placeholder {
	/** `body:1`, `header:order_id`, `button1:1`: the key of its value. */
	id: string;
	part: 'header' | 'body' | 'button';
	name: string;
	button?: number;
	/** `{{1}} — "Hi {{1}}, your order"`: the placeholder and the text around it. */
	label: string;
}

const PLACEHOLDER = /\{\{\s*(\d+|[a-z][a-z0-9_]*)\s*\}\}/g;
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);

/**
 * The texts of a template record, in either plausible shape (its fields are not shown): flat (`body`, `header_text` or
 * `header`, `buttons`) or Meta's (`components: [{type: HEADER|BODY|BUTTONS, format, text, buttons}]`), in any letter
 * case; fields it does not know are ignored. No body text: undefined (the record holds no text).
 */
function partsOf(template: TemplateRecord): Array<{ part: Placeholder['part']; text?: string; button?: number }> | undefined {
	const components = (Array.isArray(template.components) ? template.components : []).filter(isObject);
	const component = (type: string) => components.find((entry) => String(entry.type).toLowerCase() === type);
	const header = component('header');
	const headerIsText = String(header?.format ?? template.header_type ?? 'text').toLowerCase() === 'text';
	const flatHeader = isObject(template.header) ? template.header.text : (template.header ?? template.header_text);
	const body = text(component('body')?.text ?? template.body);
	if (!body) return undefined;
	const buttons = component('buttons')?.buttons ?? template.buttons;
	return [
		{ part: 'header', text: headerIsText ? text(header?.text ?? flatHeader) : undefined },
		{ part: 'body', text: body },
		...(Array.isArray(buttons) ? buttons : []).map((button: unknown, index) => ({ part: 'button' as const, text: isObject(button) ? text(button.url) : undefined, button: index })),
	];
}

/** The distinct placeholders of a template, in order (header, body, buttons; numbers ascending), or undefined when it holds no text. */
export function placeholdersOf(template: TemplateRecord): Placeholder[] | undefined {
	const parts = partsOf(template);
	if (!parts) return undefined;
	return parts.flatMap(({ part, text: content, button }) => {
		const found = new Map<string, Placeholder>();
		for (const match of (content ?? '').matchAll(PLACEHOLDER)) {
			const name = /^\d+$/.test(match[1]) ? String(Number(match[1])) : match[1];
			// A few words (or URL segments) either side, never one cut in two.
			const start = Math.max(0, match.index - 24);
			const end = match.index + match[0].length;
			const before = content!.slice(start, match.index).replace(start > 0 ? /^[^\s/]*[\s/]?/ : /^/, '');
			const after = content!.slice(end, end + 24).replace(end + 24 < content!.length ? /[\s/]?[^\s/]*$/ : /$/, '');
			const around = `${before}${match[0]}${after}`;
			const where = part === 'body' ? '' : part === 'header' ? 'Header ' : `Button ${button! + 1} URL `;
			const id = `${part}${button ?? ''}:${name}`;
			if (!found.has(id)) found.set(id, { id, part, name, button, label: `${where}{{${name}}} — "${around.trim()}"` });
		}
		const placeholders = [...found.values()];
		return placeholders.every((placeholder) => /^\d+$/.test(placeholder.name)) ? placeholders.sort((a, b) => Number(a.name) - Number(b.name)) : placeholders;
	});
}

/**
 * The send's fields for the values of the placeholders (by id): rule T5's body as assumed (docs/api-assumptions.md):
 * `variables` for the body, `header_variables` for the header text, `button_variables: [{index, variables}]` for URL
 * buttons; positional values as a list in number order, named ones as an object.
 */
export function sendFields(values: Map<string, string>): IDataObject {
	const groups = new Map<string, Array<[string, string]>>();
	for (const [id, value] of values) {
		const [part, name] = [id.slice(0, id.indexOf(':')), id.slice(id.indexOf(':') + 1)];
		groups.set(part, [...(groups.get(part) ?? []), [name, value]]);
	}
	const shaped = (entries: Array<[string, string]>) =>
		entries.every(([name]) => /^\d+$/.test(name)) ? entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, value]) => value) : Object.fromEntries(entries);
	const fields: IDataObject = {};
	const buttons: IDataObject[] = [];
	for (const [part, entries] of groups) {
		if (part === 'body') fields.variables = shaped(entries);
		else if (part === 'header') fields.header_variables = shaped(entries);
		else buttons.push({ index: Number(part.slice('button'.length)), variables: shaped(entries) });
	}
	if (buttons.length) fields.button_variables = buttons.sort((a, b) => Number(a.index) - Number(b.index));
	return fields;
}
