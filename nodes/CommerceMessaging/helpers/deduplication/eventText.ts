import { HASH_LENGTH } from './eventKey';

/**
 * The saved form of a node's accepted events, for its workflow's static data, which n8n writes whole after every
 * execution that recorded one: so it is as small as it can be read back. Oldest first, each event is its hash
 * (10 characters of base64url) preceded by the seconds since the event before it, in base 16 written with 16
 * characters that base64url does not use (and `~` before a time earlier than the one before, after a clock was
 * set back), no digit at all for the same second: 10-13 characters per event, exact to the second. `first` is the
 * send time of the first event.
 */
export interface EventText {
	first: number;
	events: string;
}

const DELTA_DIGITS = '!$%&()*+,.:;<=>?';
const EARLIER = '~';

/** Seconds after the event before, as the digits written before an event's hash ('' for the same second). */
export function deltaText(seconds: number): string {
	let text = '';
	for (let left = Math.abs(Math.round(seconds)); left > 0; left = Math.floor(left / 16)) text = DELTA_DIGITS[left % 16] + text;
	return seconds < 0 && text ? EARLIER + text : text;
}

/** The delta written at `from` in `text`: its value and how many characters it takes. */
export function readDelta(text: string, from: number): { seconds: number; length: number } {
	const earlier = text[from] === EARLIER;
	let seconds = 0;
	let at = earlier ? from + 1 : from;
	for (let digit = DELTA_DIGITS.indexOf(text[at]); at < text.length && digit >= 0; digit = DELTA_DIGITS.indexOf(text[++at])) {
		seconds = seconds * 16 + digit;
	}
	return { seconds: earlier ? -seconds : seconds, length: at - from };
}

export function encodeEntries(entries: Iterable<[string, number]>): EventText {
	let events = '';
	let first = 0;
	let last = Number.NaN;
	for (const [hash, sentAt] of entries) {
		if (Number.isNaN(last)) {
			first = last = sentAt;
			events = hash;
			continue;
		}
		events += deltaText(sentAt - last) + hash;
		last = sentAt;
	}
	return { first, events };
}

const HASH = /^[A-Za-z0-9_-]+$/;

/** The entries of `encodeEntries`, or undefined when the saved value is not such a text (edited or damaged state). */
export function decodeEntries(saved: Partial<EventText> | undefined): Array<[string, number]> | undefined {
	const { first, events } = saved ?? {};
	if (typeof events !== 'string' || typeof first !== 'number' || !Number.isFinite(first)) return undefined;
	const entries: Array<[string, number]> = [];
	let sentAt = first;
	for (let at = 0; at < events.length; ) {
		const delta = entries.length > 0 ? readDelta(events, at) : { seconds: 0, length: 0 };
		sentAt += delta.seconds;
		at += delta.length;
		const hash = events.slice(at, at + HASH_LENGTH);
		if (hash.length !== HASH_LENGTH || !HASH.test(hash)) return undefined;
		entries.push([hash, sentAt]);
		at += HASH_LENGTH;
	}
	return entries;
}
