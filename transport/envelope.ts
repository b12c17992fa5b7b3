import type { IDataObject } from 'n8n-workflow';

/**
 * The one place that reads the service's answers (rules E1-E5): the JSend envelope, a failure classified, and the
 * parsers each route of routes.ts names for its `data`. Everything is parsed from raw text, so an HTML error page
 * or a truncated JSON body becomes a readable failure instead of a parse exception.
 */

export type FailureKind =
	| 'rateLimit'
	/** Any refusal of the token itself: expired, revoked, signed with a rotated key, missing (rule A3). */
	| 'tokenRefused'
	| 'apiAccess'
	/** The products area's plugin headers are missing or wrong (rule A5). */
	| 'pluginAuth'
	| 'validation'
	| 'templateNotApproved'
	/** HTTP 5xx: a failure on the service's side that may pass. */
	| 'unavailable'
	| 'service';

export interface ServiceFailure {
	kind: FailureKind;
	httpStatus: number;
	message: string;
	code?: string;
	data?: unknown;
	/** From the Retry-After header, in ms (either of its forms). */
	retryAfterMs?: number;
	/** Field names a validation failure points at (rule E3). */
	fields?: string[];
	/** The template state an E4 answer carries. */
	state?: string;
}

export type Envelope =
	| { ok: true; data: unknown; message?: string }
	| { ok: false; failure: ServiceFailure };

export interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

export function readEnvelope(response: RawResponse, now = Date.now()): Envelope {
	const { statusCode } = response;
	const parsed = parseBody(response.body);
	const retryAfterMs = parseRetryAfter(header(response.headers, 'retry-after'), now);

	if (parsed === undefined) {
		const text = typeof response.body === 'string' ? response.body : '';
		const looksHtml = /^\s*</.test(text);
		return {
			ok: false,
			failure: {
				kind: statusCode === 429 ? 'rateLimit' : statusCode >= 500 ? 'unavailable' : 'service',
				httpStatus: statusCode,
				message:
					statusCode >= 200 && statusCode < 300
						? 'The service answered with a body that is not valid JSON'
						: `The service answered HTTP ${statusCode} with ${looksHtml ? 'an HTML page' : 'a body that is not JSON'}${snippet(text)}`,
				retryAfterMs,
			},
		};
	}

	const envelope = (parsed && typeof parsed === 'object' ? parsed : {}) as IDataObject;
	const status = typeof envelope.status === 'string' ? envelope.status.toLowerCase() : undefined;
	// Rule E1: the body's status decides together with the HTTP status. A 2xx is a success unless its status says
	// error or fail: servers write "success", "ok" or nothing at all.
	const success = statusCode >= 200 && statusCode < 300 && !(status !== undefined && /^(error|fail)/.test(status));
	if (success && status !== undefined) {
		// JSend without `data` (e.g. {"status":"success","media_id":"..."}): the other keys are the data.
		const rest = Object.fromEntries(Object.entries(envelope).filter(([key]) => key !== 'status' && key !== 'message'));
		const data = 'data' in envelope ? envelope.data : Object.keys(rest).length ? rest : undefined;
		return { ok: true, data, message: stringOrUndefined(envelope.message) };
	}
	if (success) {
		// A 2xx without a status: accept the body as data (e.g. a list answered as a bare array).
		return { ok: true, data: 'data' in envelope ? envelope.data : parsed };
	}

	const code = envelope.code === undefined || envelope.code === null ? undefined : String(envelope.code);
	const message =
		stringOrUndefined(envelope.message) ??
		stringOrUndefined((envelope.error as IDataObject | undefined)?.message) ??
		(statusCode >= 200 && statusCode < 300
			? `The service reported status "${status}"`
			: `The service answered HTTP ${statusCode}`);
	const failure: ServiceFailure = {
		kind: classify(statusCode, code, message, envelope.data),
		httpStatus: statusCode,
		message,
		code,
		data: envelope.data,
		retryAfterMs,
	};
	if (failure.kind === 'validation') failure.fields = validationFields(envelope.data);
	if (failure.kind === 'templateNotApproved') failure.state = templateState(envelope.data, message);
	return { ok: false, failure };
}

function classify(statusCode: number, code: string | undefined, message: string, data: unknown): FailureKind {
	const upperCode = (code ?? '').toUpperCase();
	const refusal = statusCode === 401 || statusCode === 403 || upperCode === '401' || upperCode === '403';
	if (statusCode === 429 || upperCode === '429' || /RATE_?LIMIT|TOO_MANY/.test(upperCode)) return 'rateLimit';
	if (upperCode === 'API_ACCESS_DISABLED' || (refusal && /api.?access/i.test(message))) return 'apiAccess';
	if (upperCode === 'PLUGIN_AUTH_REQUIRED' || (refusal && /x-api-key|x-platform-type|x-base-uri|plugin/i.test(message))) {
		return 'pluginAuth';
	}
	// Any other 401 is about the token (expired, revoked, rotated signing key, "JWT Token not found", no body).
	if (statusCode === 401 || upperCode === '401' || /^JWT_|TOKEN_EXPIRED|TOKEN_INVALID/.test(upperCode)) return 'tokenRefused';
	// Rule E4 names no code, only HTTP 400 with the current state: a service whose codes are numbers is read by that.
	if (upperCode === 'TEMPLATE_NOT_APPROVED' || (statusCode === 400 && notSendableState(data))) return 'templateNotApproved';
	if (/VALIDATION|INVALID_PHONE/.test(upperCode) || statusCode === 422) return 'validation';
	// Decided by the status alone: a 5xx with a JSON body is as passing as one with an HTML page.
	if (statusCode >= 500) return 'unavailable';
	return 'service';
}

/** Field names from the likely validation shapes: violations[], errors{} / errors[], fields, or a plain map. */
export function validationFields(data: unknown): string[] {
	if (!data || typeof data !== 'object') return [];
	const source = data as IDataObject;
	const fromList = (list: unknown[]) =>
		list
			.map((entry) => {
				if (typeof entry === 'string') return entry;
				const item = (entry ?? {}) as IDataObject;
				return stringOrUndefined(item.propertyPath) ?? stringOrUndefined(item.field) ?? stringOrUndefined(item.name);
			})
			.filter((name): name is string => !!name);
	for (const key of ['violations', 'errors', 'fields']) {
		const value = source[key];
		if (Array.isArray(value)) return fromList(value);
		if (value && typeof value === 'object') return Object.keys(value);
	}
	if (Array.isArray(data)) return fromList(data);
	return Object.keys(source).filter((key) => key !== 'state');
}

function notSendableState(data: unknown): boolean {
	const state = data && typeof data === 'object' ? (data as IDataObject).state : undefined;
	return typeof state === 'string' && /^(DRAFT|PENDING|REJECTED)$/i.test(state);
}

function templateState(data: unknown, message: string): string | undefined {
	const state = data && typeof data === 'object' ? (data as IDataObject).state : undefined;
	if (typeof state === 'string') return state;
	return /\b(DRAFT|PENDING|REJECTED|APPROVED)\b/.exec(message)?.[1];
}

function parseBody(body: unknown): unknown {
	if (body === undefined || body === null || body === '') return {};
	if (Buffer.isBuffer(body)) return parseBody(body.toString('utf8'));
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body);
	} catch {
		return undefined;
	}
}

/**
 * Retry-After is either delay-seconds (digits only) or an HTTP date (a day name first). Anything else ("-5",
 * "12, 13") is ignored, so the caller falls back to its own backoff instead of retrying at once.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined) return undefined;
	const trimmed = value.trim();
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /.test(trimmed)) return undefined;
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

function stringOrUndefined(value: unknown): string | undefined {
	return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function snippet(text: string): string {
	const plain = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
	return plain ? `: "${plain.slice(0, 120)}"` : '';
}

// The parsers of `data`, one per kind of answer. The API document shows few answer shapes (docs/api-assumptions.md),
// so every parser accepts the likely variants and none throws: an unexpected shape becomes an empty or wrapped value
// that the caller reports in its own words.

/** Any JSON value the service may put in a record. */
type JsonValue = IDataObject[string];

function isObject(data: unknown): data is IDataObject {
	return data !== null && typeof data === 'object' && !Array.isArray(data);
}

/** One record (a contact, a product, a send receipt): an object as it is; no data is an empty record; any other value is kept under `data`. */
export function asRecord(data: unknown): IDataObject {
	if (isObject(data)) return data;
	if (data === undefined || data === null) return {};
	return { data: data as JsonValue };
}

/** A record the service may leave out (order and cart events: their `data` is not shown): undefined unless an object. */
export function asOptionalRecord(data: unknown): IDataObject | undefined {
	return isObject(data) ? data : undefined;
}

/** Any answer as records, one per output item (Other Endpoint): a list gives one per entry, a plain value is put under `data`. */
export function asRecords(data: unknown): IDataObject[] {
	if (Array.isArray(data)) return data.map((entry) => (isObject(entry) ? entry : { value: entry as JsonValue }));
	if (isObject(data)) return [data];
	return [{ data: (data ?? null) as JsonValue }];
}

export interface ListPage {
	records: IDataObject[];
	total?: number;
}

function readTotal(object: unknown): number | undefined {
	if (!isObject(object)) return undefined;
	const value = object.total ?? object.totalItems ?? object.total_count ?? object.count;
	if (value === undefined || value === null || value === '') return undefined;
	const total = typeof value === 'number' ? value : Number(value);
	return Number.isFinite(total) && total >= 0 ? total : undefined;
}

/**
 * One page of a list. The list shape is not shown: accept `data` as an array, or `{items|results|data|records: [...]}`
 * with an optional total, on the list object itself or nested under `pagination` or `meta`. A page read once reads
 * back unchanged (`{records, total}` is one of those shapes), so a caller may pass either.
 */
export function readListPage(data: unknown): ListPage {
	if (Array.isArray(data)) return { records: data as IDataObject[] };
	if (isObject(data)) {
		for (const key of ['items', 'results', 'data', 'records']) {
			if (Array.isArray(data[key])) {
				const total = readTotal(data) ?? readTotal(data.pagination) ?? readTotal(data.meta);
				return { records: data[key] as IDataObject[], total };
			}
		}
	}
	return { records: [] };
}

/** What the node reads of a template; the service may send more fields, which are passed through untouched. */
export interface TemplateRecord extends IDataObject {
	id?: string | number;
	name?: string;
	language?: string;
	state?: string;
	reason?: IDataObject | string | null;
}

/** The service's answer as a template (its shape beyond the state is not shown: rule T1); anything else is empty. */
export function asTemplate(data: unknown): TemplateRecord {
	return isObject(data) ? (data as TemplateRecord) : {};
}

/** A media upload or delete answer: the media id wherever it is, and the answer's own fields. */
export interface MediaAnswer {
	/** Undefined when the answer carries no id where one is expected. */
	mediaId?: string;
	/** The answer's fields when it is an object, else none. */
	fields: IDataObject;
	/** The answer as received, for a message when the id is missing. */
	data: unknown;
}

/**
 * The media id's position is not shown in the API document (rule M2), so every plausible place is read, most
 * specific first: `media_id`, `id`, `mediaId`, `media.id` / `media.media_id`, or the data itself when it is a bare id.
 */
export function asMediaAnswer(data: unknown): MediaAnswer {
	if (!isObject(data)) {
		return { mediaId: typeof data === 'string' || typeof data === 'number' ? asId(data) : undefined, fields: {}, data };
	}
	const media = data.media;
	const nested = isObject(media) ? media : {};
	const mediaId =
		asId(data.media_id) ??
		asId(data.id) ??
		asId(data.mediaId) ??
		asId(nested.id) ??
		asId(nested.media_id) ??
		asId(typeof media === 'string' ? media : undefined);
	return { mediaId, fields: data, data };
}

function asId(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value.trim()) return value.trim();
	return undefined;
}
