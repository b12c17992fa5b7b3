// @ts-check
'use strict';
/** Shared input checks: body shape, E.164 phones, required strings, pagination (L3). */
const { ApiError, validationError } = require('./jsend');

const E164 = /^\+[1-9]\d{6,14}$/;
/** Codes no country uses (ITU spare codes): the shape is E.164, but a real service cannot deliver there. */
const UNASSIGNED_COUNTRY_CODE = /^\+(28\d|80[1-7]|83\d|89\d|99[079])/;
const BLANK = 'This value should not be blank.';

/**
 * The JSON body as a plain object, or a 422 when it is something else (array, string...).
 * An empty body counts as {}.
 * @param {unknown} body
 * @returns {Record<string, any>}
 */
function objectBody(body) {
	if (body === undefined || body === null) return {};
	if (typeof body !== 'object' || Array.isArray(body)) {
		throw validationError([{ propertyPath: '', message: 'The request body must be a JSON object (Content-Type: application/json).' }]);
	}
	return /** @type {Record<string, any>} */ (body);
}

/** @param {unknown} v */
function isBlank(v) {
	return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/** @param {unknown} v */
function isPlainObject(v) {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks the listed fields are non-blank strings; throws one VALIDATION_ERROR listing every failure.
 * @param {Record<string, any>} body
 * @param {string[]} fields
 */
function requireStrings(body, fields) {
	/** @type {import('./jsend').Violation[]} */
	const violations = [];
	for (const f of fields) {
		if (isBlank(body[f])) violations.push({ propertyPath: f, message: BLANK });
		else if (typeof body[f] !== 'string') violations.push({ propertyPath: f, message: 'This value should be of type string.' });
	}
	if (violations.length) throw validationError(violations);
}

/**
 * Required E.164 phone: blank -> VALIDATION_ERROR, malformed -> INVALID_PHONE naming the number.
 * @param {unknown} phone
 * @param {string} [field]
 * @returns {string}
 */
function requirePhone(phone, field = 'phone') {
	if (isBlank(phone)) throw validationError([{ propertyPath: field, message: BLANK }]);
	checkPhone(phone, field);
	return /** @type {string} */ (phone);
}

/**
 * @param {unknown} phone
 * @param {string} field
 */
function checkPhone(phone, field) {
	if (typeof phone !== 'string' || !E164.test(phone) || UNASSIGNED_COUNTRY_CODE.test(phone)) {
		throw new ApiError(
			422,
			'INVALID_PHONE',
			`Invalid phone number "${String(phone)}": expected E.164 format, e.g. +33612345678.`,
			{ violations: [{ propertyPath: field, message: 'This value is not a valid phone number.' }] },
		);
	}
}

/**
 * @param {unknown} value
 * @param {string} name
 * @returns {number | undefined}
 */
function positiveInt(value, name) {
	if (value === undefined) return undefined;
	const v = Array.isArray(value) ? value[0] : value;
	if (typeof v !== 'string' || !/^[1-9]\d{0,8}$/.test(v)) {
		throw validationError([{ propertyPath: name, message: 'This value should be a positive integer.' }], 400);
	}
	return Number(v);
}

/**
 * Reads currentPage / page / limit (1-based; currentPage wins over page; limit capped at maxPageSize).
 * @param {Record<string, unknown>} query
 * @param {number} maxPageSize
 * @returns {{ page: number, limit: number, offset: number }}
 */
function pagination(query, maxPageSize) {
	const currentPage = positiveInt(query.currentPage, 'currentPage');
	const pageAlias = positiveInt(query.page, 'page');
	const rawLimit = positiveInt(query.limit, 'limit');
	const page = currentPage ?? pageAlias ?? 1;
	const limit = Math.min(rawLimit ?? 20, maxPageSize);
	return { page, limit, offset: (page - 1) * limit };
}

module.exports = { E164, BLANK, objectBody, isBlank, isPlainObject, requireStrings, requirePhone, checkPhone, pagination };
