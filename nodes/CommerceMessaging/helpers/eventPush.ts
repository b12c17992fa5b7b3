import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { apiRequest } from '../../../transport/request';
import { Deduplication, readDedupSettings, type EventIdentity } from './deduplication';
import { compact, readPhone, readText, readWholeNumber, withCustomFields } from './parameters';

/**
 * What the two shop-event pushes (Order > Push Event, Cart > Push Abandoned Cart, rules V1, V2, V4) share: one
 * deduplicated push per item, its events in input order per order or cart, and the customer reference. Each
 * operation says how to read its event and its other fields (Additional Fields > Custom Fields are common to both).
 */
export interface EventPush {
	route: 'orderEvent' | 'cartEvent';
	/** The parameter holding the order's or cart's id, and how messages name it. */
	idParameter: string;
	idLabel: string;
	/** The event's identity (what makes two events the same) and the fields shown on a skipped item. */
	event(ctx: IExecuteFunctions, itemIndex: number): { identity: EventIdentity; identifiers: IDataObject };
	/** The body's other fields: empty ones are left out, the identifiers go first, Custom Fields are merged in. */
	fields(ctx: IExecuteFunctions, itemIndex: number): IDataObject;
}

/** The operation hooks of an event push (actions/operation.ts). */
export function eventPushOperation(push: EventPush) {
	return {
		/** An order's (a cart's) events reach the service in input order, never overlapping: `paid` is never overtaken by `shipped`. */
		orderingKey(this: IExecuteFunctions, itemIndex: number): string {
			return readText(this, push.idParameter, itemIndex, { label: push.idLabel, required: true });
		},

		/** The run's deduplication: each item's options, and the events of the items that claim in n8n's shared store. */
		async prepare(this: IExecuteFunctions, itemCount: number): Promise<Deduplication> {
			const settings = Array.from({ length: itemCount }, (_, itemIndex) => readDedupSettings(this, itemIndex));
			return await Deduplication.start(this, { settings, eventOf: (itemIndex) => push.event(this, itemIndex).identity });
		},

		async execute(this: IExecuteFunctions, itemIndex: number, deduplication: Deduplication): Promise<{ records: IDataObject[] }> {
			const { identity, identifiers } = push.event(this, itemIndex);
			const body = withCustomFields(this, 'additionalFields.customFields', itemIndex, compact({ ...identifiers, ...push.fields(this, itemIndex) }));
			const output = await deduplication.sendOnce(itemIndex, identity, identifiers, async () => {
				const data = await apiRequest(this, push.route, { body, itemIndex });
				// The service's answer is not shown (docs/api-assumptions.md): an empty one gets the event's ids.
				return data ?? { ...identifiers, accepted: true };
			});
			return { records: [output] };
		},

		/** Saves what the run recorded and drops the claims it still holds (the router runs it even after a failure). */
		async finish(this: IExecuteFunctions, deduplication: Deduplication): Promise<void> {
			await deduplication.finish();
		},

		hints(this: IExecuteFunctions, deduplication: Deduplication, itemCount: number): NodeExecutionHint[] {
			const hints: NodeExecutionHint[] = [...deduplication.storeHints];
			if (deduplication.skipped > 0) {
				hints.push({
					message: `${deduplication.skipped} of ${itemCount} items were skipped as duplicates: the same event was sent before, within the deduplication window (the items say when). To send them again, turn off Options > Deduplicate, or shorten the window.`,
				});
			}
			if (deduplication.sentWithoutSharedStore > 0) {
				hints.push({
					message: `Deduplicate Across Workers could not reach n8n's shared store: ${deduplication.sentWithoutSharedStore} event(s) went out with this worker's own check only (crossWorkerCheck: skipped on each).`,
					type: 'warning',
				});
			}
			return hints;
		},
	};
}

/**
 * The customer's contact references (docs/api-assumptions.md: `customer: {phone?, email?, contact_id?}`), or
 * undefined when none is given. `fields` names the parameters (the phone is checked as E.164).
 */
export function customerReference(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: { phone: string; email: string; contactId: string },
): IDataObject | undefined {
	const customer = compact({
		phone: readPhone(ctx, fields.phone, itemIndex, { label: 'customer phone' }),
		email: readText(ctx, fields.email, itemIndex, { label: 'customer email' }),
		// The service's contact ids are integers.
		contact_id: readWholeNumber(ctx, fields.contactId, itemIndex, {
			label: 'contact ID',
			optional: true,
			description: 'A contact ID is a whole number, e.g. 123.',
		}),
	});
	return Object.keys(customer).length ? customer : undefined;
}
