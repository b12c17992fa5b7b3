/**
 * E.164: a plus, a country code that does not start with 0, at most 15 digits in all. Spaces, dots, dashes and
 * brackets people type are dropped; a leading 00 is read as the international prefix.
 */
export function toE164(input: string): string | undefined {
	const compact = input.trim().replace(/[\s.\-()/]/g, '');
	const withPlus = compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
	return /^\+[1-9]\d{6,14}$/.test(withPlus) ? withPlus : undefined;
}
