import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions, NodeExecutionHint } from 'n8n-workflow';

/**
 * Every resource of the node and its operations: the table in resources.ts missing an entry, or holding one not
 * listed here, fails the type check.
 */
export type CommerceMessagingMap = {
	automation: 'createInstance';
	cart: 'pushAbandoned';
	contact: 'create' | 'getAll';
	customApiCall: 'request';
	media: 'delete' | 'upload';
	message: 'send';
	order: 'getHistory' | 'pushEvent';
	product: 'create' | 'delete' | 'get' | 'getAll' | 'update';
	template: 'create' | 'delete' | 'get' | 'getAll' | 'send' | 'submit' | 'waitForApproval';
};

export type Resource = keyof CommerceMessagingMap;

/** What an operation answers for one item: records, each one output item's JSON, or whole items (JSON with binary). */
export type OperationResult = { records: IDataObject[] } | { items: INodeExecutionData[] };

/**
 * What an operation file exports; the router (router.ts) runs it. `execute` answers one item; the router pairs and
 * guards it. `prepare` runs once before the items, `finish` once after them (even after a failure), `hints` says what
 * the run did that the user should know. `orderingKey`: items with the same key never overlap and reach the service
 * in input order (an order's events, a product's writes, one recipient's messages); it is read once per item, before
 * any runs, and handed to `execute`. Items run several at a time (Request Options > Concurrency) unless the operation
 * says `oneItemAtATime` (a whole list per item, whose pages run side by side instead; a long wait).
 */
export interface Operation<State = unknown> {
	/** Its entry in its resource's Operation list (its value is its key in resources.ts), and its fields. */
	option: Omit<INodePropertyOptions, 'value'>;
	properties: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, state: State, key: string | undefined): Promise<OperationResult>;
	prepare?(this: IExecuteFunctions, itemCount: number): Promise<State>;
	orderingKey?(this: IExecuteFunctions, itemIndex: number, state: State): string | undefined;
	finish?(this: IExecuteFunctions, state: State): Promise<void>;
	hints?(this: IExecuteFunctions, state: State, itemCount: number): NodeExecutionHint[];
	oneItemAtATime?: true;
}

/** One resource's operations, by name: what a resource file exports as `operations`. */
export type ResourceOperations<R extends Resource> = Record<CommerceMessagingMap[R], Operation>;
