import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	NodeExecutionHint,
} from 'n8n-workflow';

/**
 * What an operation file exports; the router (router.ts) runs it. `execute` answers one item: a list of records, each
 * one output item's JSON, or `{ items }`, whole items (JSON with binary); the router pairs and guards it. `prepare`
 * runs once before the items and its state is handed to the others, `finish` once after them (even after a failure),
 * `hints` says what the run did that the user should know. `orderingKey`: items with the same key never overlap and
 * reach the service in input order (an order's events, a product's writes, one recipient's messages); it is read once
 * per item, before any runs, and handed to `execute`. Items run several at a time (Request Options > Concurrency)
 * unless the operation says `oneItemAtATime` (a whole list per item, whose pages run side by side instead; a long
 * wait).
 */
export interface Operation {
	/** Its entry in its resource's Operation list (its value is its key in resources.ts), and its fields. */
	option: Omit<INodePropertyOptions, 'value'>;
	properties: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		state: unknown,
		key: string | undefined,
	): Promise<IDataObject[] | { items: INodeExecutionData[] }>;
	prepare?(this: IExecuteFunctions, itemCount: number): Promise<unknown>;
	orderingKey?(this: IExecuteFunctions, itemIndex: number, state: unknown): string | undefined;
	finish?(this: IExecuteFunctions, state: unknown): Promise<void>;
	hints?(this: IExecuteFunctions, state: unknown): NodeExecutionHint[];
	oneItemAtATime?: true;
}
