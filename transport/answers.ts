import type { IDataObject } from 'n8n-workflow';

import { readFailure } from './failures';

/**
 * Reads the service's answers (rules E1, E2): the JSend envelope from raw text (an HTML page or broken JSON becomes a
 * failure to classify, never an exception), and the parser each route names for its `data`. The document shows few
 * answer shapes (docs/api-assumptions.md), so each parser accepts the likely variants and none throws.
 */

export function readEnvelope(
	status: number,
	headers: Record<string, unknown>,
	body: string,
	redact: (text: string) => string,
) {
	const failed = (envelope?: IDataObject) => ({
		ok: false as const,
		failure: readFailure(status, envelope, body, header(headers, 'retry-after'), redact),
	});
	let parsed: unknown;
	try {
		parsed = body === '' ? {} : JSON.parse(body);
	} catch {
		return failed();
	}
	const envelope = isObject(parsed) ? parsed : {};
	const jsendStatus =
		typeof envelope.status === 'string' ? envelope.status.toLowerCase() : undefined;
	// Rule E1: the body's status decides with the HTTP status; servers write "success", "ok" or nothing at all.
	if (status < 200 || status >= 300 || /^(error|fail)/.test(jsendStatus ?? ''))
		return failed(envelope);
	// An answer without `data`: a 2xx without a status has the body as its data (e.g. a bare array), JSend (e.g.
	// {"status":"success","media_id":"..."}) its other keys.
	const rest = Object.entries(envelope).filter(([key]) => key !== 'status' && key !== 'message');
	const implied =
		jsendStatus === undefined ? parsed : rest.length ? Object.fromEntries(rest) : undefined;
	// `body`: the answer as it came, for a caller that wants it whole.
	return { ok: true as const, data: 'data' in envelope ? envelope.data : implied, body: parsed };
}

export function header(headers: Record<string, unknown>, name: string) {
	const value = [headers[name]].flat()[0];
	return value == null ? undefined : String(value);
}

export const isObject = (data: unknown): data is IDataObject =>
	data !== null && typeof data === 'object' && !Array.isArray(data);

/** One record: an object as it is; no data is an empty record; any other value is kept under `data`. */
export const asRecord = (data: unknown): IDataObject =>
	isObject(data) ? data : data == null ? {} : { data: data as IDataObject[string] };

/** A record the service may leave out (order and cart events: their answer is not shown). */
export const asOptionalRecord = (data: unknown) => (isObject(data) ? data : undefined);

/** Any answer as records, one per output item: a list gives one per entry. */
export const asRecords = (data: unknown): IDataObject[] =>
	Array.isArray(data)
		? data.map((entry) => (isObject(entry) ? entry : { value: entry as IDataObject[string] }))
		: [isObject(data) ? data : { data: (data ?? null) as IDataObject[string] }];

export interface ListPage {
	records: IDataObject[];
	total?: number;
	/** The answer holds something, but no list: not a page at all (no data is an empty page). */
	notAList?: boolean;
}

function readTotal(object: unknown) {
	if (!isObject(object)) return undefined;
	const value = object.total ?? object.totalItems ?? object.total_count ?? object.count;
	const total = value === null || value === '' ? NaN : Number(value);
	return Number.isFinite(total) && total >= 0 ? total : undefined;
}

/**
 * One page of a list. Its shape is not shown: `data` as an array, or `{items|results|data|records: [...]}` (or the
 * object's only list under another name, alone or beside a total), with an optional total on the list object itself
 * or under `pagination` or `meta`.
 */
export function readListPage(data: unknown): ListPage {
	// Entries that are no object (a list of keys, a null) become records too, as asRecords makes them.
	if (Array.isArray(data)) return { records: asRecords(data) };
	const list = isObject(data) ? data : {};
	const lists = Object.keys(list).filter((name) => Array.isArray(list[name]));
	const total = readTotal(list) ?? readTotal(list.pagination) ?? readTotal(list.meta);
	// The areas whose answers the document does not show may name their list otherwise: an answer's only list, alone
	// or beside a total (a record with one list among its fields is no page).
	const key =
		['items', 'results', 'data', 'records'].find((name) => lists.includes(name)) ??
		(lists.length === 1 && (total !== undefined || Object.keys(list).length === 1)
			? lists[0]
			: undefined);
	if (!key)
		return data == null || (isObject(data) && !Object.keys(data).length)
			? { records: [] }
			: { records: [], notAList: true };
	return { records: asRecords(list[key]), total };
}

/** What the node reads of a template (its shape beyond the state is not shown: rule T1); other fields pass through. */
export interface TemplateRecord extends IDataObject {
	id?: string | number;
	name?: string;
	state?: string;
}

export const asTemplate = (data: unknown) => (isObject(data) ? data : {}) as TemplateRecord;

const asId = (value: unknown) =>
	typeof value === 'number' && Number.isFinite(value)
		? String(value)
		: typeof value === 'string' && value.trim()
			? value.trim()
			: undefined;

/**
 * Epoch milliseconds of an ISO 8601 string or epoch number; undefined when the value is no usable time (not one, or
 * past the range of a date, such as epoch nanoseconds).
 */
export function timeOf(value: unknown) {
	const ms =
		typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
	return Number.isNaN(new Date(ms).getTime()) ? undefined : ms;
}

/** A media answer: its fields and its id, whose place is not shown (rule M2): `media_id`, `id`, `mediaId`, `media.id` / `media.media_id`, or a bare id. */
export function asMediaAnswer(data: unknown) {
	if (!isObject(data)) return { mediaId: asId(data), fields: {} };
	const media = isObject(data.media) ? data.media : { id: data.media };
	return {
		mediaId: [data.media_id, data.id, data.mediaId, media.id, media.media_id]
			.map(asId)
			.find(Boolean),
		fields: data,
	};
}
