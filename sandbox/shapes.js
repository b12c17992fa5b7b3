// @ts-check
'use strict';
/**
 * Answer shapes the API document leaves open, one variant mode each (sandbox/README.md): the login answer
 * (loginAnswer), the media upload answer (mediaAnswer), where a list sits in its answer (listShape), whether
 * error codes are strings or the HTTP status as a number (errorCodes) and a template record (templateShape).
 */
const { success } = require('./jsend');
const { placeholdersOf, isPositional, buttonsOf, fillPlaceholders } = require('./placeholders');

/**
 * The login answer ("Body and response of /api/login_check: not shown").
 * @param {import('./context').LoginAnswer} mode
 * @param {string} token
 * @param {number} ttlSeconds
 */
function loginAnswer(mode, token, ttlSeconds) {
	switch (mode) {
		// LexikJWT with a refresh-token bundle beside it.
		case 'token-refresh': return { token, refresh_token: `rt_${token.slice(-16)}` };
		// LexikJWT with the user's data beside the token (an AUTHENTICATION_SUCCESS listener adds it).
		case 'token-user': return { token, data: { roles: ['ROLE_USER'] } };
		// An OAuth2-style token endpoint.
		case 'access_token': return { access_token: token, token_type: 'Bearer', expires_in: Math.round(ttlSeconds) };
		case 'jwt': return { jwt: token };
		case 'jsend-token': return success({ token });
		case 'data-access_token': return { data: { access_token: token } };
		default: return { token };
	}
}

/**
 * The media upload answer ("Position of media_id inside the upload response: not shown").
 * @param {import('./context').MediaAnswer} mode
 * @param {string} mediaId
 * @param {{ filename: string, mimetype: string, size: number }} file
 */
function mediaAnswer(mode, mediaId, file) {
	const message = 'Media uploaded.';
	switch (mode) {
		case 'data.id': return success({ id: mediaId }, message);
		case 'data.mediaId': return success({ mediaId }, message);
		case 'data.media.id': return success({ media: { id: mediaId, filename: file.filename, mimetype: file.mimetype, size: file.size } }, message);
		// JSend without `data`: the id beside status and message.
		case 'top-level': return { status: 'success', message, media_id: mediaId };
		default: return success({ media_id: mediaId }, message);
	}
}

/**
 * A list answer: its data under `data` (default), the list under `items`, `results` or `records` at the top of the
 * envelope beside `status` (the data's other fields, a total for one, beside it), or the bare JSON array of records
 * (no envelope, no total).
 * @param {import('./context').ListShape} shape
 * @param {unknown} data the list's data as the route builds it: an array, or an object holding `items` or `results`
 */
function listAnswer(shape, data) {
	if (shape === 'data') return success(data);
	const object = /** @type {Record<string, unknown>} */ (Array.isArray(data) ? {} : data);
	const list = Array.isArray(data) ? data : (object.items ?? object.results ?? []);
	if (shape === 'bare-array') return list;
	const { items: _items, results: _results, ...rest } = object;
	const key = shape === 'top-results' ? 'results' : shape === 'top-records' ? 'records' : 'items';
	return { status: 'success', [key]: list, ...rest };
}

/** What a numeric code is for an error answered with HTTP 200 (a business error in the body, rule E5). */
const STATUS_OF_CODE = /** @type {Record<string, number>} */ ({
	RATE_LIMIT_EXCEEDED: 429, JWT_EXPIRED: 401, JWT_INVALID: 401, JWT_MISSING: 401, INVALID_CREDENTIALS: 401,
	API_ACCESS_DISABLED: 403, PLUGIN_AUTH_REQUIRED: 403, MEDIA_NOT_OWNED: 403, FORBIDDEN: 403, NOT_FOUND: 404,
	INVALID_STATE: 409, MEDIA_IN_USE: 409, CONFLICT: 409, VALIDATION_ERROR: 422, INVALID_PHONE: 422,
});

/**
 * errorCodes 'http-status': an error body's string code becomes a number, the HTTP status (code 422, 400, 429, 403,
 * as many Symfony APIs answer); on an error answered with HTTP 200 it is the status the error stands for.
 * @param {import('./context').ErrorCodes} mode
 * @param {number} statusCode
 * @param {unknown} payload
 */
function errorCodes(mode, statusCode, payload) {
	if (mode === 'string' || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
	const body = /** @type {Record<string, unknown>} */ (payload);
	const failed = statusCode >= 400 || body.status === 'error' || body.status === 'fail';
	if (!failed || typeof body.code !== 'string') return payload;
	const code = statusCode >= 400 ? statusCode : (STATUS_OF_CODE[body.code] ?? 500);
	return { ...body, code };
}

const TEMPLATE_SERVER_FIELDS = ['state', 'reason', 'created_at', 'updated_at', 'submitted_at', 'reviewed_at'];

/** @param {string} name a sample value for a placeholder, usable in a URL too */
const sample = (name) => `example_${name}`;

/**
 * Meta's `example` of a text with placeholders (harmless extra: a client must ignore it), or undefined.
 * @param {'header_text' | 'body_text'} key
 * @param {string[]} names
 */
function textExample(key, names) {
	if (!names.length) return undefined;
	if (isPositional(names)) return { [key]: key === 'body_text' ? [names.map(sample)] : names.map(sample) };
	return { [`${key}_named_params`]: names.map((n) => ({ param_name: n, example: sample(n) })) };
}

/**
 * The template's content as Meta's WhatsApp Cloud API writes it: parameter_format and components.
 * @param {import('./store').Template} tpl
 */
function metaComponents(tpl) {
	/** @type {Array<Record<string, any>>} */
	const components = [];
	const headerText = typeof tpl.header_text === 'string' ? tpl.header_text : undefined;
	const format = tpl.header_type ? String(tpl.header_type).toUpperCase() : headerText !== undefined ? 'TEXT' : 'NONE';
	if (format !== 'NONE') {
		const example = headerText !== undefined ? textExample('header_text', placeholdersOf(headerText))
			: { header_handle: ['https://scontent.whatsapp.net/v/t61/sample-header'] };
		components.push({
			type: 'HEADER', format, ...(headerText !== undefined ? { text: headerText } : {}), ...(example ? { example } : {}),
		});
	}
	const bodyExample = textExample('body_text', placeholdersOf(tpl.body));
	components.push({ type: 'BODY', text: tpl.body, ...(bodyExample ? { example: bodyExample } : {}) });
	if (typeof tpl.footer === 'string' && tpl.footer !== '') components.push({ type: 'FOOTER', text: tpl.footer });
	const buttons = buttonsOf(tpl).map((b) => {
		const type = b.type ? String(b.type).toUpperCase()
			: b.url !== undefined ? 'URL' : b.phone_number !== undefined ? 'PHONE_NUMBER' : 'QUICK_REPLY';
		const url = typeof b.url === 'string' ? b.url : undefined;
		const names = placeholdersOf(url);
		return {
			type, text: b.text,
			...(url !== undefined ? { url } : {}),
			...(b.phone_number !== undefined ? { phone_number: b.phone_number } : {}),
			...(url !== undefined && names.length ? { example: [fillPlaceholders(url, sample)] } : {}),
		};
	});
	if (buttons.length) components.push({ type: 'BUTTONS', buttons });
	const all = [headerText, tpl.body, ...buttonsOf(tpl).map((b) => b.url)].flatMap(placeholdersOf);
	return { parameter_format: isPositional(all) ? 'POSITIONAL' : 'NAMED', components };
}

/** @param {Record<string, any>} c components-lowercase: every type and format in lower case */
function lowerTypes(c) {
	/** @type {Record<string, any>} */
	const out = { ...c, type: String(c.type).toLowerCase() };
	if (typeof c.format === 'string') out.format = c.format.toLowerCase();
	if (Array.isArray(c.buttons)) out.buttons = c.buttons.map(lowerTypes);
	return out;
}

/**
 * A template record as the service answers it ("Fields of a template: not shown beyond its state"): the stored
 * fields as created ('flat'), Meta's components, the same in lower case, or no text at all ('no-text'). The store
 * keeps the flat record either way.
 * @param {import('./context').TemplateShape} mode
 * @param {import('./store').Template} tpl
 */
function templateRecord(mode, tpl) {
	if (mode === 'flat') return tpl;
	/** @type {Record<string, any>} */
	const record = { id: tpl.id, name: tpl.name, language: tpl.language, category: tpl.category };
	for (const k of TEMPLATE_SERVER_FIELDS) if (tpl[k] !== undefined) record[k] = tpl[k];
	if (mode === 'no-text') return record;
	const { parameter_format, components } = metaComponents(tpl);
	return {
		...record, parameter_format, components: mode === 'components-lowercase' ? components.map(lowerTypes) : components,
	};
}

module.exports = { loginAnswer, mediaAnswer, listAnswer, errorCodes, templateRecord };
