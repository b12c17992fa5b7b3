import type { IDataObject } from 'n8n-workflow';

import { readFailure, type ServiceFailure } from './errors';

/**
 * Reads the service's answers (rules E1, E2): the JSend envelope, from raw text (an HTML page or broken JSON becomes
 * a failure errors.ts classifies, not an exception), and the parser each route of routes.ts names for its `data`.
 */

export type Envelope = { ok: true; data: unknown; message?: string } | { ok: false; failure: ServiceFailure };

export interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: string;
}

export function readEnvelope(response: RawResponse, now = Date.now()): Envelope {
	const { statusCode, body } = response;
	let parsed: unknown;
	try {
		parsed = body === '' ? {} : JSON.parse(body);
	} catch {
		return { ok: false, failure: readFailure(statusCode, undefined, body, header(response.headers, 'retry-after'), now) };
	}
	const envelope = (parsed && typeof parsed === 'object' ? parsed : {}) as IDataObject;
	const status = typeof envelope.status === 'string' ? envelope.status.toLowerCase() : undefined;
	// Rule E1: the body's status decides with the HTTP status; servers write "success", "ok" or nothing at all.
	const success = statusCode >= 200 && statusCode < 300 && !(status !== undefined && /^(error|fail)/.test(status));
	if (!success) return { ok: false, failure: readFailure(statusCode, envelope, body, header(response.headers, 'retry-after'), now) };
	// A 2xx without a status: the body is the data (e.g. a bare array).
	if (status === undefined) return { ok: true, data: 'data' in envelope ? envelope.data : parsed };
	const data = 'data' in envelope ? envelope.data : dataBesideStatus(envelope);
	return { ok: true, data, message: typeof envelope.message === 'string' && envelope.message ? envelope.message : undefined };
}

/** JSend without `data` (e.g. {"status":"success","media_id":"..."}): the other keys are the data. */
function dataBesideStatus(envelope: IDataObject): IDataObject | undefined {
	const rest = Object.fromEntries(Object.entries(envelope).filter(([key]) => key !== 'status' && key !== 'message'));
	return Object.keys(rest).length ? rest : undefined;
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

// The parsers of `data`: the document shows few answer shapes (docs/api-assumptions.md), so each accepts the likely
// variants and none throws; an unexpected shape becomes an empty or wrapped value the caller reports.

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

/** A media answer: its id if it has one, its fields when it is an object, and the answer as received (for a message). */
export interface MediaAnswer {
	mediaId?: string;
	fields: IDataObject;
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
