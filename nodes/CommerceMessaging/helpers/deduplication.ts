import { createHash, randomBytes } from 'crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	NodeExecutionHint,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, normalizeBaseUrl, readCredentials } from '../../../transport/auth';
import { formatCount } from '../../../transport/format';
import { apiRequest, credentialDataOf } from '../../../transport/request';
import { DEFAULT_WINDOW_HOURS } from '../descriptions';
import { itemError, readBoolean, readNumber } from './parameters';
import { SharedClaims, type SharedHistory } from './sharedDeduplication';

/**
 * Rule V4: an order or cart event (order id + status; cart id + total) the service accepted through an account (Base
 * URL + username) is not sent through it again within the item's window; the item is output with `skipped: true`. An
 * event is recorded only once accepted, so a failed send goes out on the next try. It holds within and between runs
 * of one n8n process (its memory, below), across restarts (the memory's copy in the node's static data), and across
 * processes with Deduplicate Across Workers (sharedDeduplication.ts). The guarantee, its limits, its cost:
 * docs/deduplication.md.
 */

/** Characters of a stored hash: 60 bits, so among MAX_SENT_KEYS events kept a chance match is vanishingly rare. */
const HASH_LENGTH = 10;
/** Most accepted events one node keeps; beyond it the oldest go (reported when still inside their window). */
const MAX_SENT_KEYS = 10_000;
/** Events kept over all nodes' memories of the process: the bound on the memory they take. */
const MAX_DEDUPLICATION_EVENTS = 100_000;
/** How far ahead of this clock a saved send may lie (a small clock correction) before it is taken as bogus. */
export const FUTURE_TOLERANCE_SECONDS = 60;
/** The property of the node's static data that holds the saved copy of its memory. */
export const SAVED_PROPERTY = 'deduplication';

/** What makes two events the same (the account aside): the kind and the event's own ids. */
export interface EventIdentity {
	kind: 'order' | 'cart';
	parts: string[];
}

export const orderEvent = (orderId: string, status: string): EventIdentity => ({
	kind: 'order',
	parts: [orderId, status],
});

/** 49.9, 49.90 and 49.900000001 are one total: binary float noise never makes two keys. */
export const normaliseTotal = (total: number) => String(Number(total.toFixed(6)) + 0);

export const cartEvent = (cartId: string, total: number): EventIdentity => ({
	kind: 'cart',
	parts: [cartId, normaliseTotal(total)],
});

/** The first `length` characters of the SHA-256 of `values` as JSON, which keeps ("a:b","c") and ("a","b:c") apart. */
const hashOf = (values: unknown[], length: number) =>
	createHash('sha256').update(JSON.stringify(values)).digest('base64url').slice(0, length);

/** An event's label (on skipped items) and stored hash, account included. */
export const eventKey = (account: string, { kind, parts }: EventIdentity) => ({
	label: [kind, ...parts].join(':'),
	hash: hashOf([kind, account, ...parts], HASH_LENGTH),
});

/** The account a credential logs in to, hashed: Base URL (as URLs write it) and username; not the password, not the name. */
export function accountWithoutPasswordKey(data: ICredentialDataDecryptedObject) {
	const { baseUrl, username } = readCredentials(data);
	const url = URL.canParse(baseUrl) && new URL(baseUrl);
	const canonical = url ? normalizeBaseUrl(`${url.protocol}//${url.host}${url.pathname}`) : baseUrl;
	return hashOf([canonical, username], 16);
}

/**
 * A node's memory in this process: the events the service accepted (hash -> epoch seconds, oldest first) and the sends
 * in flight. n8n gives each execution its own copy of the workflow's static data (the last one saved wins), so
 * executions running at the same time see each other's sends only here; checking an event and claiming it happen
 * with no await between.
 */
export class NodeMemory {
	readonly sent = new Map<string, number>();
	/** Sends in flight, by event hash: settles once the send is over, accepted or not. */
	readonly inFlight = new Map<string, Promise<unknown>>();
	/** Tells the copies this memory saved from those of another (another process, or this one before a restart). */
	readonly copyId = randomBytes(6).toString('base64url');
	/** Events the size cap dropped while still inside the window they were judged by: they could go out twice. */
	droppedInWindow = 0;
	/**
	 * The longest window a run of the node asked for (seconds), saved with the copy: events are kept that long, so a
	 * run with a shorter window (set per item) never forgets an event another run's longer window still holds.
	 */
	longestWindow = 0;
	/** Deduplicate Across Workers: this process's part of n8n's shared row for the node (sharedDeduplication.ts). */
	readonly shared: SharedHistory = { writeBack: new Map(), removeAgain: new Map(), callTimes: [] };

	constructor(private readonly maxKeys = MAX_SENT_KEYS) {}

	/** When the event was accepted, if that was less than `windowSeconds` ago. */
	sentWithin(hash: string, windowSeconds: number, now: number) {
		const sentAt = this.sent.get(hash);
		return sentAt !== undefined && now - sentAt < windowSeconds ? sentAt : undefined;
	}

	/** An accepted event; a later acceptance starts its window again. Answers whether it was new. */
	record(hash: string, sentAt: number, now: number, windowSeconds: number) {
		if ((this.sent.get(hash) ?? -Infinity) >= sentAt) return false;
		this.sent.delete(hash);
		this.sent.set(hash, sentAt);
		this.cap(now, windowSeconds);
		return true;
	}

	/**
	 * Joins a saved copy (another process's, or this one's before a restart), keeping each event's later time. Events
	 * too old, malformed or dated in the future (a clock set back, edited state: they would block their event for longer
	 * than any window) are left out. Answers whether anything was new.
	 */
	merge(entries: Array<[string, number]>, now: number, maxAgeSeconds: number) {
		const fresh = entries.filter(
			([hash, sentAt]) =>
				now - sentAt < maxAgeSeconds &&
				sentAt <= now + FUTURE_TOLERANCE_SECONDS &&
				(this.sent.get(hash) ?? -Infinity) < sentAt,
		);
		if (!fresh.length) return false;
		// Oldest first: each event set again in time order lands after every older one, at its later time.
		for (const [hash, sentAt] of [...this.sent, ...fresh].sort((a, b) => a[1] - b[1])) {
			this.sent.delete(hash);
			this.sent.set(hash, sentAt);
		}
		this.cap(now, maxAgeSeconds);
		return true;
	}

	/** Forgets events older than `maxAgeSeconds` (the longest window asked for): the oldest, at the front. */
	prune(now: number, maxAgeSeconds: number) {
		for (const [hash, sentAt] of this.sent) {
			if (now - sentAt < maxAgeSeconds) break;
			this.sent.delete(hash);
		}
	}

	private cap(now: number, windowSeconds: number) {
		for (const [hash, sentAt] of this.sent) {
			if (this.sent.size <= this.maxKeys) break;
			this.sent.delete(hash);
			if (now - sentAt < windowSeconds) this.droppedInWindow++;
		}
	}
}

/**
 * Every deduplicating node's memory, by workflow id + node id: the only place executions running at the same time can
 * see each other's sends. Bound: MAX_DEDUPLICATION_EVENTS events over all nodes and 1,024 nodes; the least recently
 * used memories go whole (never one with a send in flight) and are read again from static data when their node next
 * runs.
 */
const memories = new Map<string, NodeMemory>();

export function memoryOf(nodeKey: string) {
	const memory = memories.get(nodeKey) ?? new NodeMemory();
	memories.delete(nodeKey);
	memories.set(nodeKey, memory);
	let events = [...memories.values()].reduce((sum, { sent }) => sum + sent.size, 0);
	for (const [key, old] of memories) {
		if ((events <= MAX_DEDUPLICATION_EVENTS && memories.size <= 1_024) || old === memory) break;
		if (old.inFlight.size === 0) {
			memories.delete(key);
			events -= old.sent.size;
		}
	}
	return memory;
}

/** Forgets everything this process holds: a restarted process, for tests. */
export const forgetProcessState = () => memories.clear();

/** A saved copy's events: each its hash and its send time (epoch seconds, 7 digits of base 36), oldest first. */
export const encodeEvents = (entries: Iterable<[string, number]>) =>
	[...entries]
		.map(([hash, sentAt]) => hash + Math.max(0, sentAt).toString(36).padStart(7, '0'))
		.join('');

/** The events of `encodeEvents`, or undefined when the text is not such a copy (edited or damaged state). */
export function decodeEvents(text: unknown) {
	const width = HASH_LENGTH + 7;
	if (typeof text !== 'string' || text.length % width !== 0 || !/^[\w-]*$/.test(text))
		return undefined;
	return Array.from({ length: text.length / width }, (_, i): [string, number] => [
		text.slice(i * width, i * width + HASH_LENGTH),
		parseInt(text.slice(i * width + HASH_LENGTH, (i + 1) * width), 36),
	]);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Tells this process's saved copies from another's (a queue-mode worker, or this n8n before a restart). */
const PROCESS = { id: randomBytes(6).toString('base64url'), startedAt: nowSeconds() };

const WINDOW_FORM = 'Use a number of hours above 0, e.g. 24.';

/** One item's deduplication options: a window of 0 seconds means Deduplicate is off. */
function readDedupSettings(ctx: IExecuteFunctions, itemIndex: number) {
	if (!readBoolean(ctx, 'options.deduplicate', itemIndex, { label: 'Deduplicate', fallback: true }))
		return { windowSeconds: 0 };
	const hours = readNumber(ctx, 'options.deduplicationWindowHours', itemIndex, {
		label: 'deduplication window',
		min: 0,
		required: true,
		fallback: DEFAULT_WINDOW_HOURS,
		description: WINDOW_FORM,
	});
	if (hours === 0)
		throw itemError(ctx, itemIndex, '0 is not a valid deduplication window', WINDOW_FORM);
	return {
		windowSeconds: hours * 3600,
		acrossProcesses: readBoolean(ctx, 'options.deduplicateAcrossWorkers', itemIndex, {
			label: 'Deduplicate Across Workers',
			fallback: false,
		}),
	};
}

/** One pushed event: what makes it the same as another, the fields shown on a skipped item, and its options. */
type PushedEvent = ReturnType<typeof readDedupSettings> & {
	identity: EventIdentity;
	identifiers: IDataObject;
};

/**
 * One run's push of shop events: each item's event, read once before any is sent, and its deduplication. Settings and
 * events come from the operation (one read per item); a bad one is that item's error, thrown when it runs.
 */
export class EventPush {
	/** Items answered with `skipped: true`: their event was sent before. */
	private skipped = 0;
	/** Events sent while n8n's shared store could not be reached: checked by this worker only. */
	private sentWithoutShared = 0;
	private recorded = false;
	private dropsBefore = 0;
	/** When another process saved this node's copy while this one was running (epoch seconds), if it did. */
	private otherProcessSavedAt?: number;
	private memory?: NodeMemory;
	private shared?: SharedClaims;
	private account = '';

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly events: ReadonlyArray<PushedEvent | Error>,
	) {}

	/**
	 * Reads each item's event (`readEvent`, the operation's) and options once, opens the memory when an item
	 * deduplicates (nothing is read or written otherwise), joins the saved copy of static data unless it is the
	 * memory's own, and claims at once in n8n's shared store the events of the items with Deduplicate Across Workers on.
	 */
	static async start(
		ctx: IExecuteFunctions,
		itemCount: number,
		readEvent: (itemIndex: number) => Pick<PushedEvent, 'identity' | 'identifiers'>,
	) {
		const push = new EventPush(
			ctx,
			Array.from({ length: itemCount }, (_, itemIndex) => {
				try {
					return { ...readEvent(itemIndex), ...readDedupSettings(ctx, itemIndex) };
				} catch (error) {
					return error as Error;
				}
			}),
		);
		const enabled = push.events.filter(
			(event): event is PushedEvent => !(event instanceof Error) && event.windowSeconds > 0,
		);
		const acrossProcesses = enabled.some((event) => event.acrossProcesses);
		try {
			// Claiming across processes pauses before the first request: a session opened before it would hold an ageing token.
			if (enabled.length)
				push.account = accountWithoutPasswordKey(
					await (acrossProcesses ? ctx.getCredentials(CREDENTIAL_TYPE) : credentialDataOf(ctx)),
				);
		} catch {
			// No readable credential: no event can be sent either, and the sends report why.
		}
		if (!push.account) return push;
		const node = ctx.getNode();
		const memory = (push.memory = memoryOf(
			JSON.stringify([ctx.getWorkflow().id ?? '', node.id ?? node.name]),
		));
		push.dropsBefore = memory.droppedInWindow;
		const saved = ctx.getWorkflowStaticData('node')[SAVED_PROPERTY] as IDataObject | undefined;
		memory.longestWindow = enabled.reduce(
			(longest, event) => Math.max(longest, event.windowSeconds),
			Math.max(memory.longestWindow, Number(saved?.window) || 0),
		);
		if (saved?.copy !== undefined && saved.copy !== memory.copyId) {
			memory.merge(decodeEvents(saved.events) ?? [], nowSeconds(), memory.longestWindow);
			if (saved.process !== PROCESS.id && Number(saved.at) >= PROCESS.startedAt)
				push.otherProcessSavedAt = Number(saved.at);
		}
		// n8n offers no shared store to a workflow without an id, nor on an engine without a database.
		if (
			!acrossProcesses ||
			!ctx.getWorkflow().id ||
			typeof ctx.helpers.checkProcessedAndRecord !== 'function'
		)
			return push;
		push.shared = new SharedClaims(ctx, memory.shared);
		const claims = enabled
			.map((event) => ({ ...event, hash: eventKey(push.account, event.identity).hash }))
			.filter(
				({ hash, windowSeconds, acrossProcesses }) =>
					acrossProcesses && memory.sentWithin(hash, windowSeconds, nowSeconds()) === undefined,
			);
		await push.shared.claimAll(claims).catch(async (error: unknown) => {
			// Cancelled while claiming: the router never reaches `finish`, so the claims go here.
			await push.finish();
			throw error;
		});
		return push;
	}

	/** The event of an item (its read error, thrown). */
	eventOf(itemIndex: number) {
		const event = this.events[itemIndex];
		if (event instanceof Error) throw event;
		return event;
	}

	/**
	 * Sends an item's event unless the same one was accepted through this account within the item's window (then
	 * answers a skipped item: nothing silently disappears), and records it once accepted. Sent without the shared store
	 * it asked for (unreachable, or this n8n has none), the item says so: `crossWorkerCheck: 'skipped'`.
	 */
	async send(itemIndex: number, route: 'orderEvent' | 'cartEvent', body: IDataObject) {
		const { identity, identifiers, windowSeconds, acrossProcesses } = this.eventOf(itemIndex);
		const { memory } = this;
		const deliver = async () =>
			(await apiRequest(this.ctx, route, { body, itemIndex })) ?? {
				...identifiers,
				accepted: true,
			};
		if (!windowSeconds || !memory) return await deliver();

		const { hash, label } = eventKey(this.account, identity);
		const skipped = (why: IDataObject) => {
			this.skipped++;
			return { ...identifiers, skipped: true, reason: 'duplicate', dedupKey: label, ...why };
		};
		const shared = acrossProcesses ? this.shared : undefined;
		let sentAt = memory.sentWithin(hash, windowSeconds, nowSeconds());
		while (sentAt === undefined && memory.inFlight.has(hash)) {
			// Another execution sends it now: accepted, it is a duplicate; failed, this run sends it.
			await memory.inFlight.get(hash);
			sentAt = memory.sentWithin(hash, windowSeconds, nowSeconds());
		}
		if (sentAt !== undefined) {
			// Sent through this process meanwhile: a shared claim this run holds for it is that send's record.
			shared?.accepted(hash);
			return skipped({ firstSentAt: new Date(sentAt * 1000).toISOString() });
		}
		let sendOver!: () => void;
		memory.inFlight.set(hash, new Promise<void>((resolve) => (sendOver = resolve)));
		try {
			if (shared && !(await shared.claim(hash, windowSeconds)))
				return skipped({ claimedBy: 'another execution' });
			const output = await deliver().catch(async (error: unknown) => {
				// Not accepted: the claim goes at once, so another execution or the next try sends the event.
				await shared?.release(hash);
				throw error;
			});
			if (memory.record(hash, nowSeconds(), nowSeconds(), windowSeconds)) this.recorded = true;
			shared?.accepted(hash);
			if (!acrossProcesses || (shared && !shared.unavailable)) return output;
			this.sentWithoutShared++;
			return { ...output, crossWorkerCheck: 'skipped' };
		} finally {
			memory.inFlight.delete(hash);
			sendOver();
		}
	}

	/** Saves the memory when the run recorded an event (assigning through static data marks it changed), drops the claims it holds. */
	async finish() {
		if (this.memory && this.recorded) {
			const now = nowSeconds();
			this.memory.prune(now, this.memory.longestWindow);
			this.ctx.getWorkflowStaticData('node')[SAVED_PROPERTY] = {
				process: PROCESS.id,
				copy: this.memory.copyId,
				at: now,
				window: this.memory.longestWindow,
				events: encodeEvents(this.memory.sent),
			};
		}
		await this.shared?.finish();
	}

	/** What the run did that its user should know: skips, events forgotten too soon, another process at work, a store out of reach. */
	hints() {
		const dropped = (this.memory?.droppedInWindow ?? 0) - this.dropsBefore;
		const hints: Array<NodeExecutionHint | false> = [
			dropped > 0 && {
				message: `Deduplication kept only the newest ${formatCount(MAX_SENT_KEYS)} sent events: ${dropped} older ${dropped === 1 ? 'one' : 'ones'} still inside the deduplication window ${dropped === 1 ? 'was' : 'were'} forgotten and would be sent again. Use a shorter window or split the events over several nodes.`,
				type: 'warning',
			},
			this.otherProcessSavedAt !== undefined &&
				!this.shared && {
					message: `Another n8n process (a queue-mode worker or another main instance) ran this node at ${new Date(this.otherProcessSavedAt * 1000).toISOString()}: deduplication reaches events sent by other processes only with the option Deduplicate Across Workers on.`,
					type: 'warning',
				},
			this.skipped > 0 && {
				message: `${this.skipped} of ${this.events.length} items were skipped as duplicates: the same event was sent before, within the deduplication window (the items say when). To send them again, turn off Options > Deduplicate, or shorten the window.`,
			},
			this.sentWithoutShared > 0 && {
				message: `Deduplicate Across Workers could not reach n8n's shared store: ${this.sentWithoutShared} event(s) went out with this worker's own check only (crossWorkerCheck: skipped on each).`,
				type: 'warning',
			},
		];
		return hints.filter((hint) => hint !== false);
	}
}
