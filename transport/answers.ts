import type { IDataObject } from 'n8n-workflow';

import { readFailure, type ServiceFailure } from './failures';

/**
 * Reads the service's answers (rules E1, E2): the JSend envelope from raw text (an HTML page or broken JSON becomes a
 * failure to classify, never an exception), and the parser each route names for its `data`. The document shows few
 * answer shapes (docs/api-assumptions.md), so each parser accepts the likely variants and none throws.
 */

export type Envelope = { ok: true; data: unknown; message?: string } | { ok: false; failure: ServiceFailure };

export function readEnvelope(status: number, headers: Record<string, unknown>, body: string): Envelope {
	let parsed: unknown;
	try {
		parsed = body === '' ? {} : JSON.parse(body);
	} catch {
		return { ok: false, failure: readFailure(status, undefined, body, header(headers, 'retry-after')) };
	}
	const envelope = isObject(parsed) ? parsed : {};
	const jsendStatus = typeof envelope.status === 'string' ? envelope.status.toLowerCase() : undefined;
	// Rule E1: the body's status decides with the HTTP status; servers write "success", "ok" or nothing at all.
	if (status < 200 || status >= 300 || /^(error|fail)/.test(jsendStatus ?? '')) {
		return { ok: false, failure: readFailure(status, envelope, body, header(headers, 'retry-after')) };
	}
	// A 2xx without a status: the body is the data (e.g. a bare array).
	if (jsendStatus === undefined) return { ok: true, data: 'data' in envelope ? envelope.data : parsed };
	const message = typeof envelope.message === 'string' && envelope.message ? envelope.message : undefined;
	if ('data' in envelope) return { ok: true, data: envelope.data, message };
	// JSend without `data` (e.g. {"status":"success","media_id":"..."}): the other keys are the data.
	const rest = Object.fromEntries(Object.entries(envelope).filter(([key]) => key !== 'status' && key !== 'message'));
	return { ok: true, data: Object.keys(rest).length ? rest : undefined, message };
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

export const isObject = (data: unknown): data is IDataObject => data !== null && typeof data === 'object' && !Array.isArray(data);

/** One record: an object as it is; no data is an empty record; any other value is kept under `data`. */
export function asRecord(data: unknown): IDataObject {
	if (isObject(data)) return data;
	return data === undefined || data === null ? {} : { data: data as IDataObject[string] };
}

/** A record the service may leave out (order and cart events: their answer is not shown). */
export const asOptionalRecord = (data: unknown): IDataObject | undefined => (isObject(data) ? data : undefined);

/** Any answer as records, one per output item: a list gives one per entry. */
export function asRecords(data: unknown): IDataObject[] {
	if (Array.isArray(data)) return data.map((entry) => (isObject(entry) ? entry : { value: entry as IDataObject[string] }));
	return [isObject(data) ? data : { data: (data ?? null) as IDataObject[string] }];
}

export interface ListPage {
	records: IDataObject[];
	total?: number;
}

function readTotal(object: unknown): number | undefined {
	if (!isObject(object)) return undefined;
	const value = object.total ?? object.totalItems ?? object.total_count ?? object.count;
	const total = value === null || value === '' ? NaN : Number(value);
	return Number.isFinite(total) && total >= 0 ? total : undefined;
}

/**
 * One page of a list. Its shape is not shown: `data` as an array, or `{items|results|data|records: [...]}` with an
 * optional total on the list object itself or under `pagination` or `meta`.
 */
export function readListPage(data: unknown): ListPage {
	if (Array.isArray(data)) return { records: data as IDataObject[] };
	const key = isObject(data) ? ['items', 'results', 'data', 'records'].find((name) => Array.isArray(data[name])) : undefined;
	if (!key) return { records: [] };
	const list = data as IDataObject;
	return { records: list[key] as IDataObject[], total: readTotal(list) ?? readTotal(list.pagination) ?? readTotal(list.meta) };
}

/** What the node reads of a template (its shape beyond the state is not shown: rule T1); other fields pass through. */
export interface TemplateRecord extends IDataObject {
	id?: string | number;
	name?: string;
	language?: string;
	state?: string;
}

export const asTemplate = (data: unknown): TemplateRecord => (isObject(data) ? (data as TemplateRecord) : {});

/** A media answer: its id if it has one, and its fields. */
export interface MediaAnswer {
	mediaId?: string;
	fields: IDataObject;
	data: unknown;
}

/** The media id's place is not shown (rule M2): `media_id`, `id`, `mediaId`, `media.id` / `media.media_id`, or a bare id. */
export function asMediaAnswer(data: unknown): MediaAnswer {
	if (!isObject(data)) return { mediaId: asId(data), fields: {}, data };
	const media = isObject(data.media) ? data.media : { id: data.media };
	const mediaId = [data.media_id, data.id, data.mediaId, media.id, media.media_id].map(asId).find((id) => id !== undefined);
	return { mediaId, fields: data, data };
}

function asId(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
