import type { Operation } from './operation';

/**
 * Every resource of the node and its operations: a resource file or the operations table (operations.ts) missing
 * an entry, or holding one not listed here, fails the type check.
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

/** One resource's operations, by name: what a resource file exports as `operations`. */
export type ResourceOperations<R extends Resource> = Record<CommerceMessagingMap[R], Operation>;

/** The resource and operation parameters of one run, as the router reads them. */
export type CommerceMessagingType = {
	[R in Resource]: { resource: R; operation: CommerceMessagingMap[R] };
}[Resource];
