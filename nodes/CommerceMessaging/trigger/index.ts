import type { IDataObject, INodeExecutionData, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { startRun } from '../../../transport/session';
import { readOption } from '../helpers/parameters';
import { readPollSettings } from '../helpers/requestSettings';
import { newContact } from './newContact.event';
import { newOrChangedProduct } from './newOrChangedProduct.event';
import { newOrder } from './newOrder.event';
import { templateReviewed } from './templateReviewed.event';
import type { PollEvent } from './types';
import { requestOptions } from '../descriptions';

const EVENTS: Record<string, PollEvent> = {
	newContact,
	newOrChangedProduct,
	newOrder,
	templateReviewed,
};

/** The action node's retry settings; a poll has no items, so a wait beyond the budget fails the poll instead. */
const pollRequestOptions: INodeProperties = {
	...requestOptions,
	// A poll reads one page at a time (it may stop early): no Concurrency here.
	options: (requestOptions.options as INodeProperties[]).filter((option) => option.name !== 'concurrency').map((option) =>
		option.name === 'maxRetryWaitSeconds'
			? {
					...option,
					description:
						'Longest time one request may take in all: its attempts and the waits between them. A Retry-After longer than what is left fails the poll at once; the next poll starts from the same point.',
				}
			: option,
	),
};

export const eventProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		default: 'newContact',
		options: [
			{
				name: 'New Contact',
				value: 'newContact',
				description: 'A contact was added to the contact list',
			},
			{
				name: 'New or Changed Product',
				value: 'newOrChangedProduct',
				description: 'A product of the catalogue was created or updated (needs the plugin integration headers)',
			},
			{
				name: 'New Order',
				value: 'newOrder',
				description: 'An order appeared in the order history',
			},
			{
				name: 'Template Review Finished',
				value: 'templateReviewed',
				description: 'A submitted WhatsApp template (v2) was APPROVED or REJECTED',
			},
		],
	},
	...Object.values(EVENTS).flatMap((event) => event.properties),
	pollRequestOptions,
];

/** What the node keeps in the workflow's static data: the event it belongs to and that event's small state. */
interface Cursor {
	event: string;
	state: object;
}

/**
 * One poll. Manual mode (Fetch Test Event) returns the most recent record and leaves the state alone. A scheduled
 * poll without a state for this event records where "now" is and emits nothing; otherwise it emits what is new
 * and only then, once everything was read, stores the new state: a poll that throws changes nothing.
 */
export async function pollEvents(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	// n8n keeps this context while the workflow is active: every poll is a run of its own, with the credential as
	// it is now.
	startRun(this, readPollSettings(this));
	const eventName = readOption(this, 'event', 0, { label: 'event', values: Object.keys(EVENTS), fallback: 'newContact' });
	const event = EVENTS[eventName];
	const filters = event.readFilters?.(this) ?? {};

	if (this.getMode() === 'manual') {
		const record = await event.latest(this, filters);
		return record ? [this.helpers.returnJsonArray(record)] : null;
	}

	const staticData = this.getWorkflowStaticData('node');
	const cursor = staticData.cursor as Cursor | undefined;
	// A state of another event (the event was changed on an active workflow) is not ours: start anew.
	const state = cursor?.event === eventName ? event.readState(cursor.state) : undefined;
	if (state === undefined) {
		staticData.cursor = { event: eventName, state: await event.start(this) } as unknown as IDataObject;
		return null;
	}

	const { records, state: nextState } = await event.next(this, state, filters);
	staticData.cursor = { event: eventName, state: nextState } as unknown as IDataObject;
	return records.length ? [this.helpers.returnJsonArray(records)] : null;
}
