import type { IExecuteFunctions } from 'n8n-workflow';

import { isObject, type TemplateRecord } from '../../../transport/answers';
import { formatQuoted } from '../../../transport/format';
import { readLocatorId } from './parameters';

/** The chosen template's id, checked before any API call. */
export const readTemplateId = (ctx: IExecuteFunctions, itemIndex: number) =>
	readLocatorId(ctx, 'templateId', itemIndex, {
		label: 'template ID',
		description: 'Pick a template from the list, or give its ID (e.g. 42 or {{ $json.id }}).',
	});

/** `"order_confirmation" (ID 42)`, for messages and hints: the service's name quoted on one line, cut short. */
export const templateTitle = (template: TemplateRecord, fallbackId: string) =>
	template.name
		? `${formatQuoted(template.name)} (ID ${template.id ?? fallbackId})`
		: `ID ${template.id ?? fallbackId}`;

/** Why a REJECTED template was rejected: the document puts it in `data`; the assumptions name it `reason`. */
export const rejectionReason = (template: TemplateRecord) =>
	[template.reason, template.data]
		.map((candidate) => (isObject(candidate) ? (candidate.reason ?? candidate.message) : candidate))
		.find((reason): reason is string => typeof reason === 'string' && reason.trim() !== '')
		?.trim();

/** Placeholders by name: positional ones (`1`, `2`) in number order; undefined when one is named. */
const inNumberOrder = (entries: Array<[string, string]>) =>
	entries.every(([name]) => /^\d+$/.test(name))
		? entries.sort(([a], [b]) => Number(a) - Number(b))
		: undefined;
const PLACEHOLDER = /\{\{\s*(\d+|[a-z][a-z0-9_]*)\s*\}\}/g;
/** The end or the start of a text, up to `max` characters, cut at a space or a slash, never in a word. */
const tail = (before: string, max: number) =>
	before.length > max ? before.slice(-max - 1).replace(/^[^\s/]*[\s/]?/, '') : before;
const head = (after: string, max: number) =>
	after.length > max ? after.slice(0, max + 1).replace(/[\s/]?[^\s/]*$/, '') : after;

/**
 * The distinct placeholders of a template, in order (header, body, buttons; numbers ascending), or undefined when it
 * holds no text. A placeholder is `{{1}}` (positional) or `{{customer_name}}` (named), in the header text, the body or
 * a URL button (`button` is its position among all the template's buttons); each part is numbered on its own. `id`
 * (`body:1`, `header:order_id`, `button1:1`) keys its value, and placeholderTitle names it in messages (`Header
 * {{1}}`); `label` shows it in the editor with the words around it (`Hello {{1}}, your`), short enough for the panel's
 * narrow labels. A positional placeholder's number is read without leading zeros.
 *
 * The texts of a template record are read in either plausible shape (its fields are not shown): flat (`body`,
 * `header_text` or `header`, `buttons`) or Meta's (`components: [{type: HEADER|BODY|BUTTONS, format, text,
 * buttons}]`), in any letter case; fields it does not know are ignored. No body text: the record holds no text.
 */
export function placeholdersOf(template: TemplateRecord) {
	const components = (Array.isArray(template.components) ? template.components : []).filter(
		isObject,
	);
	const component = (type: string) =>
		components.find((entry) => String(entry.type).toLowerCase() === type);
	const header = component('header');
	const body = component('body')?.text ?? template.body;
	if (typeof body !== 'string' || !body.trim()) return undefined;
	const headerText =
		String(header?.format ?? template.header_type ?? 'text').toLowerCase() === 'text' &&
		(header?.text ??
			(isObject(template.header)
				? template.header.text
				: (template.header ?? template.header_text)));
	const buttons = component('buttons')?.buttons ?? template.buttons;
	// Each part: the prefix of its ids, where it is for the labels, its text.
	return [
		['header', 'Header', headerText] as const,
		['body', '', body] as const,
		...(Array.isArray(buttons) ? buttons : []).map(
			(button, n) => [`button${n}`, `Button ${n + 1}`, isObject(button) && button.url] as const,
		),
	].flatMap(([part, where, value]) => {
		const content = typeof value === 'string' ? value : '';
		// Each distinct placeholder with the words around its first use.
		const found = new Map<string, string>();
		for (const match of content.matchAll(PLACEHOLDER)) {
			const name = /^\d+$/.test(match[1]) ? String(Number(match[1])) : match[1];
			// The words around it, short enough for the editor's labels (about 24 characters show), without the word that
			// holds another placeholder: `Dear {{1}} {{2}}` labels `Dear {{1}}` and `{{2}}`.
			const before = tail(
				content.slice(0, match.index).replace(/^[\s\S]*\}\}[^\s/]*[\s/]?/, ''),
				16,
			).trimStart();
			const after = head(
				content.slice(match.index + match[0].length).replace(/[\s/]?[^\s/]*\{\{[\s\S]*$/, ''),
				before ? 6 : 16,
			);
			if (!found.has(name)) found.set(name, `${before}${match[0]}${after}`.trimEnd());
		}
		return (inNumberOrder([...found]) ?? [...found]).map(([name, words]) => ({
			id: `${part}:${name}`,
			label: where ? `${where}: ${words}` : words,
		}));
	});
}

/**
 * How messages name the placeholder of an id: `header:1` is `Header {{1}}`, `body:1` `{{1}}`, `button0:1`
 * `Button 1 URL {{1}}`.
 */
export function placeholderTitle(id: string) {
	const [part, name] = id.split(':');
	const button = /^button(\d+)$/.exec(part);
	const where =
		part === 'header' ? 'Header ' : button ? `Button ${Number(button[1]) + 1} URL ` : '';
	return `${where}{{${name}}}`;
}

/**
 * The send's fields for the values of the placeholders (by id): rule T5's body as assumed (docs/api-assumptions.md):
 * `variables` for the body, `header_variables` for the header text, `button_variables: [{index, variables}]` for URL
 * buttons; positional values as a list in number order, named ones as an object.
 */
export function sendFields(values: Map<string, string>) {
	const groups: Record<string, Array<[string, string]>> = {};
	for (const [id, value] of values)
		(groups[id.slice(0, id.indexOf(':'))] ??= []).push([id.slice(id.indexOf(':') + 1), value]);
	const shaped = (entries: Array<[string, string]>) =>
		inNumberOrder(entries)?.map(([, value]) => value) ?? Object.fromEntries(entries);
	const { body, header, ...buttons } = groups;
	const buttonVariables = Object.entries(buttons)
		.map(([part, entries]) => ({ index: Number(part.slice(6)), variables: shaped(entries) }))
		.sort((a, b) => a.index - b.index);
	return {
		variables: body && shaped(body),
		header_variables: header && shaped(header),
		button_variables: buttonVariables.length ? buttonVariables : undefined,
	};
}
