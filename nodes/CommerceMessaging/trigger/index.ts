import {
	type IDataObject,
	type INodeProperties,
	type IPollFunctions,
	updateDisplayOptions,
} from 'n8n-workflow';

import { startRun } from '../../../transport/request';
import { readOption, readRequestOptions } from '../helpers/parameters';
import { newContact } from './newContact.event';
import { newOrChangedProduct } from './newOrChangedProduct.event';
import { newOrder } from './newOrder.event';
import { templateReviewed } from './templateReviewed.event';
import { requestOptions } from '../descriptions';

/**
 * One event of the trigger. Its state is what the workflow's static data keeps between polls: small and bounded
 * whatever the account's size. `now` is n8n's clock when the poll started.
 */
export interface PollEvent<State extends object = object> {
	/** The Event option: its name (the node's subtitle and the event's log lines show it) and description. */
	name: string;
	description: string;
	/** The event's own fields (filters), shown only when the event is selected. */
	properties: INodeProperties[];
	/** The event's filters, read through the one reading layer (helpers/parameters.ts). */
	readFilters?(ctx: IPollFunctions): IDataObject;
	/** A stored state read back, or undefined when it is missing or not this event's (then the event starts anew). */
	readState(stored: unknown): State | undefined;
	/** First activation: where "now" is. Emits nothing. */
	start(ctx: IPollFunctions, now: number): Promise<State>;
	/** Every record new since `state`, oldest first, each once, and the state after them. */
	next(
		ctx: IPollFunctions,
		state: State,
		filters: IDataObject,
		now: number,
	): Promise<{ records: IDataObject[]; state: State }>;
	/** Fetch Test Event: the most recent record matching the filters, so fields can be mapped. */
	latest(ctx: IPollFunctions, filters: IDataObject): Promise<IDataObject | undefined>;
}

const EVENTS: Record<string, PollEvent> = {
	newContact,
	newOrChangedProduct,
	newOrder,
	templateReviewed,
};

/** The Event parameter's options; the node's subtitle shows their names. */
export const eventOptions = Object.entries(EVENTS).map(([value, { name, description }]) => ({
	name,
	value,
	description,
}));

export const eventProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		default: 'newContact',
		options: eventOptions,
	},
	...Object.entries(EVENTS).flatMap(([name, event]) =>
		updateDisplayOptions({ show: { event: [name] } }, event.properties),
	),
	// The action node's retry settings; a poll has no items, so a wait beyond the budget fails the poll instead.
	{
		...requestOptions,
		// A poll reads one page at a time (it may stop early): no Concurrency here.
		options: (requestOptions.options as INodeProperties[])
			.filter((option) => option.name !== 'concurrency')
			.map((option) =>
				option.name === 'maxRetryWaitSeconds'
					? {
							...option,
							description:
								'Longest time one request may take in all: its attempts and the waits between them. A Retry-After longer than what is left fails the poll at once; the next poll starts from the same point.',
						}
					: option,
			),
	},
];

/**
 * The polls still running, by their context (n8n keeps one per active trigger). n8n starts a scheduled poll even while
 * the previous one runs (a slow service, two Poll Times in the same minute); both would read the same state and emit
 * the same records.
 */
const pollsUnderWay = new WeakSet<IPollFunctions>();

/**
 * One poll. Manual mode (Fetch Test Event) returns the most recent record and leaves the state alone. A scheduled
 * poll without a state for this event records where "now" is and emits nothing; otherwise it emits what is new
 * and only then, once everything was read, stores the new state: a poll that throws changes nothing. A poll that
 * starts while the previous one still runs emits nothing: the next one carries on from where that one ends.
 */
export async function pollEvents(this: IPollFunctions) {
	if (pollsUnderWay.has(this)) return null;
	pollsUnderWay.add(this);
	try {
		// n8n keeps this context while the workflow is active: every poll is a run of its own, with the credential
		// as it is now.
		startRun(this, readRequestOptions(this));
		const now = Date.now();
		const eventName = readOption(this, 'event', 0, {
			label: 'event',
			values: Object.keys(EVENTS),
			fallback: 'newContact',
		});
		const event = EVENTS[eventName];
		const filters = event.readFilters?.(this) ?? {};

		if (this.getMode() === 'manual') {
			const record = await event.latest(this, filters);
			return record ? [this.helpers.returnJsonArray(record)] : null;
		}

		// The workflow's static data keeps the event it belongs to and that event's state.
		const staticData = this.getWorkflowStaticData('node');
		const cursor = staticData.cursor as IDataObject | undefined;
		// A state of another event (the event was changed on an active workflow) is not ours: start anew.
		const state = cursor?.event === eventName ? event.readState(cursor.state) : undefined;
		const { records, state: nextState } =
			state === undefined
				? { records: [], state: await event.start(this, now) }
				: await event.next(this, state, filters, now);
		staticData.cursor = { event: eventName, state: nextState };
		return records.length ? [this.helpers.returnJsonArray(records)] : null;
	} finally {
		pollsUnderWay.delete(this);
	}
}
