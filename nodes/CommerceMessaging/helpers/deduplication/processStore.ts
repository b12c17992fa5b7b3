import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { decodeEntries } from './eventText';
import { MAX_SENT_KEYS } from './sentEventLog';
import { PROCESS_ID, PROCESS_STARTED_AT, nodeMemory, type NodeMemory } from './processMemory';
import type { DedupEvent, DedupStore, Verdict } from './store';

/** Property of the node's static data holding the saved copy of its memory. */
export const SAVED_PROPERTY = 'deduplication';
/** Where versions before account-scoped keys kept their map; its keys cannot match any more, so it goes. */
const LEGACY_PROPERTY = 'sentEvents';

/** The saved copy of a node's memory, in its workflow's static data. */
export interface SavedCopy {
	/** The process that saved it (processMemory.ts PROCESS_ID). */
	process: string;
	/** The memory it is a copy of: a process skips reading back its own copy. */
	copy: string;
	/** When it was saved, epoch seconds. */
	at: number;
	/** eventText.ts: the send time of the first event, and the events. */
	first: number;
	events: string;
}

/**
 * One run's view of the process memory, the store every deduplicating run uses: claims in memory (no await
 * between the check and the claim, so two executions of this process never both find an event free), and the
 * memory saved to the node's static data when the run recorded an event (n8n writes the workflow row then).
 */
export class ProcessStore implements DedupStore {
	/** Events this run claimed: settles their in-flight promise (true: accepted). */
	private readonly holds = new Map<string, { inFlight: Promise<boolean>; settle: (accepted: boolean) => void }>();

	/** Whether this run recorded an event the memory did not know: only then is the copy saved. */
	private recorded = false;

	private readonly dropsBefore: number;

	/** When another process saved this node's copy while this one was running (epoch seconds), if it did. */
	readonly otherProcessSavedAt: number | undefined;

	private constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly memory: NodeMemory,
		private readonly longestWindowSeconds: number,
		private readonly nowSeconds: () => number,
		private readonly acrossProcesses: boolean,
		otherProcessSavedAt: number | undefined,
	) {
		this.dropsBefore = memory.log.droppedInWindow;
		this.otherProcessSavedAt = otherProcessSavedAt;
	}

	/**
	 * Joins the saved copy into the memory, unless it is the memory's own. `acrossProcesses`: whether the run also
	 * claims in n8n's shared store; if not, a copy another running process saved is reported (queue mode without it).
	 */
	static open(
		ctx: IExecuteFunctions,
		nodeKey: string,
		options: { longestWindowSeconds: number; nowSeconds: () => number; acrossProcesses: boolean },
	): ProcessStore {
		const { longestWindowSeconds, nowSeconds } = options;
		const memory = nodeMemory(nodeKey);
		const saved = ctx.getWorkflowStaticData('node')[SAVED_PROPERTY] as Partial<SavedCopy> | undefined;
		let otherProcessSavedAt: number | undefined;
		if (saved && typeof saved === 'object' && saved.copy !== memory.copyId) {
			const entries = decodeEntries(saved);
			if (entries) memory.log.merge(entries, nowSeconds(), longestWindowSeconds);
			const at = Number(saved.at);
			if (saved.process !== PROCESS_ID && at >= PROCESS_STARTED_AT) otherProcessSavedAt = at;
		}
		return new ProcessStore(ctx, memory, longestWindowSeconds, nowSeconds, options.acrossProcesses, otherProcessSavedAt);
	}

	async claimAll(events: DedupEvent[]): Promise<DedupEvent[]> {
		const now = this.nowSeconds();
		return events.filter((event) => this.memory.log.sentWithin(event.hash, event.windowSeconds, now) === undefined);
	}

	async claim(event: DedupEvent): Promise<Verdict> {
		for (;;) {
			const sentAt = this.memory.log.sentWithin(event.hash, event.windowSeconds, this.nowSeconds());
			if (sentAt !== undefined) return { outcome: 'sent', sentAt };
			const inFlight = this.memory.inFlight.get(event.hash);
			if (!inFlight) break;
			// Another execution sends it now: accepted, it is a duplicate; failed, this run sends it.
			await inFlight;
		}
		let settle: (accepted: boolean) => void = () => {};
		const inFlight = new Promise<boolean>((resolve) => (settle = resolve));
		this.memory.inFlight.set(event.hash, inFlight);
		this.holds.set(event.hash, { inFlight, settle });
		return { outcome: 'free' };
	}

	accepted(event: DedupEvent, sentAt: number): void {
		if (this.memory.log.record(event.hash, sentAt, this.nowSeconds(), event.windowSeconds)) this.recorded = true;
		this.settle(event.hash, true);
	}

	async release(event: DedupEvent): Promise<void> {
		this.settle(event.hash, false);
	}

	async finish(): Promise<void> {
		for (const hash of [...this.holds.keys()]) this.settle(hash, false);
		if (this.recorded) this.save();
		this.reportDrops();
		this.reportOtherProcess();
	}

	private settle(hash: string, accepted: boolean): void {
		const hold = this.holds.get(hash);
		if (!hold) return;
		this.holds.delete(hash);
		if (this.memory.inFlight.get(hash) === hold.inFlight) this.memory.inFlight.delete(hash);
		hold.settle(accepted);
	}

	/** Assigning through n8n's static data object is what marks it as changed, so n8n saves it. */
	private save(): void {
		const now = this.nowSeconds();
		this.memory.log.prune(now, this.longestWindowSeconds);
		const state = this.ctx.getWorkflowStaticData('node');
		const copy: SavedCopy = { process: PROCESS_ID, copy: this.memory.copyId, at: now, ...this.memory.log.encoded() };
		state[SAVED_PROPERTY] = copy as unknown as IDataObject;
		if (LEGACY_PROPERTY in state) delete state[LEGACY_PROPERTY];
	}

	private reportDrops(): void {
		const dropped = this.memory.log.droppedInWindow - this.dropsBefore;
		if (dropped <= 0) return;
		const message =
			`Deduplication kept only the newest ${MAX_SENT_KEYS.toLocaleString('en')} sent events: ${dropped} older ` +
			`${dropped === 1 ? 'one' : 'ones'} still inside the deduplication window ${dropped === 1 ? 'was' : 'were'} ` +
			'forgotten and would be sent again. Use a shorter window or split the events over several nodes.';
		warn(this.ctx, message);
	}

	private reportOtherProcess(): void {
		if (this.otherProcessSavedAt === undefined || this.acrossProcesses) return;
		const message =
			`Another n8n process (a queue-mode worker or another main instance) ran this node at ` +
			`${new Date(this.otherProcessSavedAt * 1000).toISOString()}: deduplication reaches events sent by other ` +
			'processes only with the option Deduplicate Across Workers on.';
		warn(this.ctx, message, !this.memory.toldOfOtherProcess);
		this.memory.toldOfOtherProcess = true;
	}
}

/** A hint on the node's output, and a line in n8n's log, which also reaches production executions nobody opens. */
export function warn(ctx: IExecuteFunctions, message: string, log = true): void {
	if (typeof ctx.addExecutionHints === 'function') ctx.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
	if (log) ctx.logger?.warn(message, { node: ctx.getNode().name, workflowId: ctx.getWorkflow().id });
}
