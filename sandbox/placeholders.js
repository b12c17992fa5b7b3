// @ts-check
'use strict';
/**
 * Template placeholders ({{1}} positional, {{customer_name}} named) and the check of a send's values against them:
 * WhatsApp refuses a send whose parameters do not fill every placeholder (Meta's error #132000), so the emulator
 * does too, whatever the node believes. Placeholders sit in the header text, the body and each button's url; each
 * component is numbered on its own.
 */
const { ApiError } = require('./jsend');
const { isPlainObject } = require('./validate');

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const POSITIONAL = /^\d+$/;
const NAMED = /^[a-z][a-z0-9_]*$/;
const MISMATCH = '(#132000) Number of parameters does not match the expected number of params';

/**
 * The distinct placeholders of a text: '1', '2' (ascending) or 'customer_name' (order of appearance).
 * Anything else between braces ({{Name}}, {{ }}) is plain text, as WhatsApp reads it.
 * @param {unknown} text
 * @returns {string[]}
 */
function placeholdersOf(text) {
	if (typeof text !== 'string') return [];
	/** @type {Set<string>} */
	const names = new Set();
	for (const m of text.matchAll(PLACEHOLDER)) {
		if (POSITIONAL.test(m[1])) names.add(String(Number(m[1])));
		else if (NAMED.test(m[1])) names.add(m[1]);
	}
	const list = [...names];
	return isPositional(list) ? list.sort((a, b) => Number(a) - Number(b)) : list;
}

/**
 * The text with each placeholder replaced.
 * @param {string} text
 * @param {(name: string) => string} fill
 */
function fillPlaceholders(text, fill) {
	return text.replace(PLACEHOLDER, (all, /** @type {string} */ name) =>
		(POSITIONAL.test(name) ? fill(String(Number(name))) : NAMED.test(name) ? fill(name) : all));
}

/** @param {string[]} names true when every placeholder is a number (and for none) */
function isPositional(names) {
	return names.every((n) => POSITIONAL.test(n));
}

/**
 * The template's buttons (anything but a list is none; an entry that is not an object is a button without a url).
 * @param {import('./store').Template} tpl
 * @returns {Array<Record<string, any>>}
 */
function buttonsOf(tpl) {
	return Array.isArray(tpl.buttons) ? tpl.buttons.map((b) => (isPlainObject(b) ? b : {})) : [];
}

/** @param {string} name */
const brace = (name) => `{{${name}}}`;
/** @param {number} n */
const values = (n) => (n === 0 ? 'no value' : n === 1 ? '1 value' : `${n} values`);

/**
 * @param {string} component 'header', 'body', 'button N' or 'buttons'
 * @param {unknown} expected
 * @param {unknown} got
 * @param {string} detail
 */
function mismatch(component, expected, got, detail) {
	return new ApiError(400, 'TEMPLATE_PARAMS_MISMATCH', `${MISMATCH}: ${detail}`, { component, expected, got: got ?? null });
}

/**
 * One component's values: a list for positional placeholders, an object keyed by name for named ones; nothing
 * (absent, null, [] or {}) for a component without placeholders.
 * @param {string} component
 * @param {string[]} names
 * @param {unknown} given
 * @param {string} field the body field, for the message
 */
function checkComponent(component, names, given, field) {
	const expected = names.map(brace);
	/** @param {string} detail */
	const fail = (detail) => mismatch(component, expected, given, detail);
	const label = component.startsWith('button') ? component : `the ${component}`;
	const wants = names.length ? `${label} expects ${expected.join(', ')}` : `${label} has no placeholders`;
	/**
	 * @param {unknown} v
	 * @param {string} placeholder
	 */
	const checkValue = (v, placeholder) => {
		if (typeof v === 'string' && v.trim() === '') throw fail(`${label}'s value for ${placeholder} is empty`);
		if (typeof v !== 'string' && typeof v !== 'number') {
			const kind = v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v;
			throw fail(`${label}'s value for ${placeholder} is not a string or a number (${kind})`);
		}
	};
	if (given === undefined || given === null) {
		if (names.length) throw fail(`${wants}; got no value`);
		return;
	}
	if (Array.isArray(given)) {
		if (names.length && !isPositional(names)) throw fail(`${wants}: named placeholders take an object keyed by name, got a list`);
		if (given.length !== names.length) throw fail(`${wants}; got ${values(given.length)}`);
		given.forEach((v, i) => checkValue(v, expected[i]));
		return;
	}
	if (!isPlainObject(given)) throw fail(`${field} must be a list or an object; got ${typeof given}`);
	const obj = /** @type {Record<string, unknown>} */ (given);
	const keys = Object.keys(obj);
	if (names.length && isPositional(names)) throw fail(`${wants}: positional placeholders take a list, got an object`);
	const unknown = keys.filter((k) => !names.includes(k));
	if (unknown.length) {
		throw fail(`${wants}; got ${unknown.map((k) => `"${k}"`).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not among them`);
	}
	const missing = names.filter((n) => !keys.includes(n));
	if (missing.length) throw fail(`${wants}; got no value for ${missing.map(brace).join(', ')}`);
	for (const n of names) checkValue(obj[n], brace(n));
}

/**
 * button_variables: [{index, variables}], index the button's position among ALL the template's buttons (0-based).
 * @param {Array<Record<string, any>>} buttons
 * @param {unknown} given
 */
function checkButtons(buttons, given) {
	const slots = buttons.map((b) => placeholdersOf(b.url));
	const expected = slots.flatMap((names, index) => (names.length ? [{ index, expected: names.map(brace) }] : []));
	/** @param {string} detail */
	const fail = (detail) => mismatch('buttons', expected, given, detail);
	/** @type {Map<number, unknown>} */
	const byIndex = new Map();
	if (given !== undefined && given !== null) {
		if (!Array.isArray(given)) throw fail(`button_variables must be a list of {index, variables}; got ${typeof given}`);
		for (const entry of given) {
			if (!isPlainObject(entry) || !Number.isInteger(entry.index) || entry.index < 0) {
				throw fail('button_variables must be a list of {index, variables}, index the button\'s position (an integer >= 0)');
			}
			const component = `button ${entry.index}`;
			if (byIndex.has(entry.index)) {
				throw mismatch(component, slots[entry.index]?.map(brace) ?? [], entry.variables, `${component} is given twice`);
			}
			if (entry.index >= buttons.length) {
				throw mismatch(component, [], entry.variables,
					`the template has ${buttons.length} button${buttons.length === 1 ? '' : 's'}; got values for ${component}`);
			}
			byIndex.set(entry.index, entry.variables);
		}
	}
	slots.forEach((names, i) => checkComponent(`button ${i}`, names, byIndex.get(i), `the variables of button ${i}`));
}

/**
 * Refuses (400 TEMPLATE_PARAMS_MISMATCH) a send whose values do not fill exactly the template's placeholders.
 * @param {import('./store').Template} tpl
 * @param {Record<string, any>} body
 */
function checkSendValues(tpl, body) {
	checkComponent('header', placeholdersOf(tpl.header_text), body.header_variables, 'header_variables');
	checkComponent('body', placeholdersOf(tpl.body), body.variables, 'variables');
	checkButtons(buttonsOf(tpl), body.button_variables);
}

module.exports = { placeholdersOf, fillPlaceholders, isPositional, buttonsOf, checkSendValues };
