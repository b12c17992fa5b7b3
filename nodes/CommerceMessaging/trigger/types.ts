import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

/**
 * One event of the trigger. Its state is what the workflow's static data keeps between polls: small and bounded
 * whatever the account's size. The poll dispatcher writes a new state only after `next` fully succeeded, so a
 * failed poll emits nothing and the next one reads from the same point.
 */
export interface PollEvent<State extends object = object> {
	/** The event's own fields (filters), shown only when the event is selected. */
	properties: INodeProperties[];
	/** The event's filters, read through the one reading layer (helpers/parameters.ts); none when it has none. */
	readFilters?(ctx: IPollFunctions): IDataObject;
	/** A stored state read back, or undefined when it is missing or malformed (then the event starts anew). */
	readState(stored: unknown): State | undefined;
	/** First activation: where "now" is. Emits nothing. */
	start(ctx: IPollFunctions): Promise<State>;
	/** Every record new since `state`, oldest first, each once, and the state after them. */
	next(ctx: IPollFunctions, state: State, filters: IDataObject): Promise<{ records: IDataObject[]; state: State }>;
	/** Fetch Test Event: the most recent record matching the filters, so fields can be mapped. */
	latest(ctx: IPollFunctions, filters: IDataObject): Promise<IDataObject | undefined>;
}
