/** How messages write durations, sizes and counts: one way each, for the transport and the nodes. */

/** 0.12 s, 1.5 s, 30 s, 2 min, 12 min 3 s, 1 h, 2 h 5 min. */
export function formatDuration(ms: number) {
	const seconds = Math.max(0, ms) / 1000;
	if (seconds < 60) return `${Number(seconds.toFixed(seconds < 1 ? 2 : seconds < 10 ? 1 : 0))} s`;
	// In the large unit's seconds; the small unit is a sixtieth of it.
	const [unit, largeUnit, smallUnit] = seconds < 3600 ? [60, 'min', 's'] : [3600, 'h', 'min'];
	const rest = Math.floor((seconds % unit) / (unit / 60));
	return `${Math.floor(seconds / unit)} ${largeUnit}${rest ? ` ${rest} ${smallUnit}` : ''}`;
}

/** 5 MB, 1.5 MB, 1,024 MB; under 1 MB to the thousandth (0.004 MB), so a small ceiling never reads 0 MB. */
export const formatMegabytes = (bytes: number) =>
	`${formatCount(Number((bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 3 : 1)))} MB`;

/** 100,000. */
export const formatCount = (count: number) => count.toLocaleString('en-US');

/** The first ten of a list, then how many more: "3, 5, 8 and 12 more". */
export const formatFirstTen = (values: unknown[]) =>
	`${values.slice(0, 10).join(', ')}${values.length > 10 ? ` and ${values.length - 10} more` : ''}`;

/** A value as a message or a log line shows it: cut short, so a long one cannot flood either. */
export const cutShort = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}...` : text);

/** A service's text for a log line or a hint: quoted, on one line (control characters escaped), cut short. */
export function formatQuoted(value: unknown) {
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	// JSON leaves DEL, the C1 controls (NEL among them), U+2028 and U+2029 as they are: a log reader may break lines at them.
	return JSON.stringify(cutShort(text)).replace(
		/[\u007f-\u009f\u2028\u2029]/g,
		(character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}
