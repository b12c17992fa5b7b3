// @ts-check
'use strict';
/**
 * JSend envelope helpers and the error type every handler throws.
 * Success: {status:'success', message?, data}. Failure: {status:'error', message, code, data}.
 */

/** @typedef {{ propertyPath: string, message: string }} Violation */

class ApiError extends Error {
	/**
	 * @param {number} statusCode HTTP status
	 * @param {string} code JSend error code (docs/api-assumptions.md)
	 * @param {string} message human-readable cause
	 * @param {unknown} [data] extra detail (null when none)
	 * @param {Record<string, string>} [headers] extra response headers (e.g. Retry-After)
	 */
	constructor(statusCode, code, message, data = null, headers = undefined) {
		super(message);
		this.name = 'ApiError';
		this.statusCode = statusCode;
		this.code = code;
		this.data = data;
		this.headers = headers;
		/** @type {Record<string, unknown> | undefined} sent verbatim instead of the JSend error (bareError) */
		this.body = undefined;
	}
}

/**
 * An error answered with exactly this body, not the usual envelope (a server built differently: no code, no data).
 * @param {number} statusCode
 * @param {Record<string, unknown>} body
 */
function bareError(statusCode, body) {
	const err = new ApiError(statusCode, typeof body.code === 'string' ? body.code : '', String(body.message ?? ''));
	err.body = body;
	return err;
}

/**
 * @param {unknown} data
 * @param {string} [message]
 */
function success(data, message) {
	return message === undefined ? { status: 'success', data } : { status: 'success', message, data };
}

/**
 * @param {string} code
 * @param {string} message
 * @param {unknown} [data]
 */
function errorBody(code, message, data = null) {
	return { status: 'error', message, code, data };
}

/**
 * A 422 VALIDATION_ERROR carrying data.violations (E3).
 * @param {Violation[]} violations
 * @param {number} [statusCode]
 */
function validationError(violations, statusCode = 422) {
	const text = violations.map((v) => (v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message)).join('; ');
	return new ApiError(statusCode, 'VALIDATION_ERROR', `Validation failed: ${text}`, { violations });
}

/** @param {string} message */
function notFound(message) {
	return new ApiError(404, 'NOT_FOUND', message);
}

module.exports = { ApiError, bareError, success, errorBody, validationError, notFound };
