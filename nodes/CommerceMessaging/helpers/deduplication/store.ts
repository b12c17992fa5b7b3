/** One event as a store sees it: its hash (account included) and the window of the item asking. */
export interface DedupEvent {
	hash: string;
	windowSeconds: number;
}

/** A store's answer to a claim. */
export type Verdict =
	/** This run now holds the event: nobody this store reaches sends it meanwhile. */
	| { outcome: 'free' }
	/** The service accepted the event within the window. */
	| { outcome: 'sent'; sentAt: number }
	/** Another execution holds the event and sends it. */
	| { outcome: 'claimed' };

/**
 * What every deduplication store offers one run (index.ts composes them): claim before sending, then say how it
 * went, then finish.
 */
export interface DedupStore {
	/**
	 * Before any send: claims a run's events at once where a store pays a database call per claim. Answers the
	 * events it leaves open for the next store (those it does not know as sent).
	 */
	claimAll(events: DedupEvent[]): Promise<DedupEvent[]>;
	/** Whether this run may send the event; when free, the run holds it until `accepted` or `release`. */
	claim(event: DedupEvent): Promise<Verdict>;
	/** The service accepted the event (this run's send, or one another store knows of). */
	accepted(event: DedupEvent, sentAt: number): void;
	/** The run does not send the event after all (its send failed, or another execution holds it). */
	release(event: DedupEvent): Promise<void>;
	/** The run ends (also when an item stopped it): save what it recorded, drop what it still holds. */
	finish(): Promise<void>;
}
