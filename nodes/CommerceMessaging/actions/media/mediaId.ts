import type { IDataObject } from 'n8n-workflow';

/**
 * The media id in an upload (or delete) answer. Its position is not shown in the API document (rule M2), so
 * every plausible place is read, most specific first: `media_id`, `id`, `mediaId`, `media.id` /
 * `media.media_id`, or the data itself when it is a bare id.
 */
export function readMediaId(data: unknown): string | undefined {
	if (typeof data === 'string' || typeof data === 'number') return asId(data);
	if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
	const record = data as IDataObject;
	const media = record.media;
	const nested = media && typeof media === 'object' && !Array.isArray(media) ? (media as IDataObject) : {};
	return (
		asId(record.media_id) ??
		asId(record.id) ??
		asId(record.mediaId) ??
		asId(nested.id) ??
		asId(nested.media_id) ??
		asId(typeof media === 'string' ? media : undefined)
	);
}

function asId(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value.trim()) return value.trim();
	return undefined;
}
