import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeExecutionHint } from 'n8n-workflow';

/**
 * What an operation answers for one item, said outright so the router pairs it without guessing: records, each
 * becoming one output item's JSON, or whole items (JSON with binary data).
 */
export type OperationResult = { records: IDataObject[] } | { items: INodeExecutionData[] };

/**
 * What an operation file exports. `execute` answers one item; the router pairs and guards it. `prepare` runs
 * once before the items (e.g. to read dedup state), `beforeItem` before each one (e.g. to pace batches),
 * `finish` once after them (e.g. to save dedup state). Items run several at a time (Request Options >
 * Concurrency) unless the operation says `oneItemAtATime`.
 */
export interface Operation<State = unknown> {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, state: State): Promise<OperationResult>;
	prepare?(this: IExecuteFunctions, itemCount: number): Promise<State>;
	beforeItem?(
		this: IExecuteFunctions,
		itemIndex: number,
		state: State,
		pause: (ms: number) => Promise<void>,
	): Promise<void>;
	finish?(this: IExecuteFunctions, state: State): Promise<void>;
	/**
	 * Items with the same key never overlap and reach the service in input order (an order's events, a cart's, a
	 * product's writes, one recipient's messages); items with different keys run side by side.
	 */
	orderingKey?(this: IExecuteFunctions, itemIndex: number): string | undefined;
	/** One item at a time whatever Request Options > Concurrency says (lists page with it instead; long waits). */
	oneItemAtATime?: true;
	/** What the run did that the user should know of (router.ts shows it above the output): a skip, a wait. */
	hints?(this: IExecuteFunctions, state: State, itemCount: number): NodeExecutionHint[];
}
