import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listRecords, PAGE_SIZE, PageReader } from '../../../transport/pagination';
import type { PollEvent } from './types';

/**
 * New Contact. The contact list is oldest first with a `total`, and contact ids are integers that grow with
 * creation (docs/api-assumptions.md), so the state is one number: the highest id already emitted. A poll reads
 * the list from its last page backwards and stops at the first page that reaches that id: it costs requests in
 * proportion to what is new, not to the size of the account.
 */
interface ContactState {
	lastId: number;
}

function contactId(ctx: IPollFunctions, record: IDataObject): number {
	const id = typeof record.id === 'string' && /^\d+$/.test(record.id) ? Number(record.id) : record.id;
	if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The service returned a contact without an integer id (${JSON.stringify(record.id)})`,
			{
				description:
					'The New Contact event relies on contact ids being integers that grow with creation. Use the Custom API Call operation of the Commerce Messaging node to inspect the contact list.',
			},
		);
	}
	return id;
}

/**
 * The contact list's pages, last page first. Page numbers come from `total` and from the page size the service
 * really served (it may cap ours). Without a total there is no last page to start from: then the whole list is
 * read, oldest first, and handed over as one page. The transport's PageReader builds the page query and stops a
 * service that ignores the page number (it would hide every new contact behind page 1 forever).
 */
async function* pagesFromTheEnd(ctx: IPollFunctions): AsyncGenerator<IDataObject[]> {
	const reader = new PageReader(ctx, 'contactList', { pageSize: PAGE_SIZE });
	const first = await reader.read(1);
	if (first.total === undefined) {
		yield await listRecords(ctx, 'contactList');
		return;
	}
	const served = first.served;
	const pageSize = served > 0 && served < Math.min(PAGE_SIZE, first.total) ? served : PAGE_SIZE;
	const lastPage = Math.max(1, Math.ceil(first.total / pageSize));
	for (let page = lastPage; page >= 2; page--) yield (await reader.read(page)).records;
	yield first.records;
}

async function newestContact(ctx: IPollFunctions): Promise<IDataObject | undefined> {
	for await (const records of pagesFromTheEnd(ctx)) {
		let best: IDataObject | undefined;
		for (const record of records) {
			if (!best || contactId(ctx, record) > contactId(ctx, best)) best = record;
		}
		if (best) return best;
	}
	return undefined;
}

export const newContact: PollEvent<ContactState> = {
	properties: [],

	readState(stored) {
		const lastId = (stored as ContactState | undefined)?.lastId;
		return typeof lastId === 'number' && Number.isSafeInteger(lastId) ? { lastId } : undefined;
	},

	async start(ctx) {
		const contact = await newestContact(ctx);
		return { lastId: contact ? contactId(ctx, contact) : 0 };
	},

	async next(ctx, state) {
		const fresh = new Map<number, IDataObject>();
		for await (const records of pagesFromTheEnd(ctx)) {
			let reachedKnown = false;
			for (const record of records) {
				const id = contactId(ctx, record);
				if (id > state.lastId) fresh.set(id, record);
				else reachedKnown = true;
			}
			if (reachedKnown) break;
		}
		const ids = [...fresh.keys()].sort((a, b) => a - b);
		return {
			records: ids.map((id) => fresh.get(id) as IDataObject),
			state: { lastId: ids.length ? ids[ids.length - 1] : state.lastId },
		};
	},

	async latest(ctx) {
		return await newestContact(ctx);
	},
};
