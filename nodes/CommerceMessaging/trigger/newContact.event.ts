import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, listRecords, PAGE_SIZE, readListPage } from '../../../transport';
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

async function readPage(ctx: IPollFunctions, page: number) {
	const data = await apiRequest(ctx, 'contactList', { qs: { currentPage: page, page, limit: PAGE_SIZE } });
	return readListPage(data);
}

/**
 * The contact list's pages, last page first. Page numbers come from `total` and from the page size the service
 * really served (it may cap ours). Without a total there is no last page to start from: then the whole list is
 * read, oldest first, and handed over as one page.
 */
async function* pagesFromTheEnd(ctx: IPollFunctions): AsyncGenerator<IDataObject[]> {
	const first = await readPage(ctx, 1);
	if (first.total === undefined) {
		yield await listRecords(ctx, 'contactList');
		return;
	}
	const served = first.records.length;
	const pageSize = served > 0 && served < Math.min(PAGE_SIZE, first.total) ? served : PAGE_SIZE;
	const lastPage = Math.max(1, Math.ceil(first.total / pageSize));
	for (let page = lastPage; page >= 1; page--) {
		if (page === 1) {
			yield first.records;
			return;
		}
		const { records } = await readPage(ctx, page);
		if (records.length > 0 && served > 0 && JSON.stringify(records[0]) === JSON.stringify(first.records[0])) {
			// A service that ignores the page number would hide every new contact behind page 1 forever.
			throw new NodeApiError(
				ctx.getNode(),
				{ message: 'The service returned page 1 for another page' },
				{
					message: `The service returned the first contacts for page ${page}: it seems to ignore the page parameter, so new contacts cannot be found`,
				},
			);
		}
		yield records;
	}
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
