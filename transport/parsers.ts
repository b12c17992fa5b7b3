import type { IDataObject } from 'n8n-workflow';

/**
 * The service's answers read into the types the node uses, once, at the edge: each route in routes.ts names its
 * parser and apiRequest returns what that parser gives. The API document shows few answer shapes
 * (docs/api-assumptions.md), so every parser accepts the likely variants and none throws: an unexpected shape
 * becomes an empty or wrapped value that the caller reports in its own words.
 */

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
