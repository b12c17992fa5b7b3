import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { formatCount, formatMegabytes, formatQuoted } from '../../../transport/format';
import { listCeilingError, plainApiError, repeatedPageError } from '../../../transport/messages';
import { listRecords, readPage } from '../../../transport/pagination';
import { settingsOf } from '../../../transport/request';
import { PAGE_SIZE } from '../../../transport/settings';
import type { PollEvent } from './index';
import { timeOf } from './watermark';

/**
 * New Contact. The contact list is oldest first with a `total`, and contact ids are integers that grow with
 * creation (docs/api-assumptions.md): the state is the highest id read and the latest `created_at` read. A poll reads
 * the list from its last page backwards and stops at the first page holding a known contact: it costs requests in
 * proportion to what is new, not to the size of the account.
 *
 * A contact whose id is not above `lastId` is new all the same when its `created_at` is later than `createdAt`: a
 * service may hand out an id again (MySQL's auto-increment does after the newest contact was deleted and the server
 * restarted), and the contact carrying it again is a new one.
 */
interface ContactState {
	lastId: number;
	/** ISO 8601; null while no contact read carried a usable created_at. */
	createdAt: string | null;
}

function contactId(ctx: IPollFunctions, record: IDataObject) {
	const id =
		typeof record.id === 'string' && /^\d+$/.test(record.id) ? Number(record.id) : record.id;
	if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
	throw plainApiError(
		ctx.getNode(),
		`The service returned a contact without an integer id: ${formatQuoted(record.id)}`,
		'The New Contact event relies on contact ids being integers that grow with creation. Use the Other Endpoint operation of the Commerce Messaging node to inspect the contact list.',
	);
}

/**
 * The contacts of the pages from the last one backwards, down to the first page holding a known one. Page numbers
 * come from `total` and from the page size the service really served (it may cap ours). Without a total there is no
 * last page to start from: then the whole list is read, oldest first (listRecords, with the transport's guards).
 *
 * The transport's page-by-page guards (transport/pagination.ts) read forwards only, so the pages read backwards keep
 * them here, with the transport's messages: each contact once, Max List Size, Max Records, and a page that only
 * repeats others (a service ignoring the page number would hide every new contact behind page 1 forever).
 */
async function readTail(ctx: IPollFunctions, isKnown: (record: IDataObject) => boolean) {
	const { maxRecords, maxListBytes, names } = settingsOf(ctx);
	const node = ctx.getNode();
	const pageOf = new Map<string, number>();
	let bytes = 0;
	const read = async (page: number) => {
		const answer = await readPage(ctx, 'contactList', page, PAGE_SIZE);
		bytes += answer.bytes;
		if (bytes > maxListBytes)
			throw listCeilingError(
				node,
				`${formatMegabytes(maxListBytes)} of answers`,
				names.maxListBytes,
			);
		const fresh = answer.records.filter((record) => !pageOf.has(String(record.id)));
		if (answer.records.length && !fresh.length) {
			throw repeatedPageError(
				node,
				page,
				pageOf.get(String(answer.records[0].id)) as number,
				answer.total ?? pageOf.size,
				pageOf.size,
			);
		}
		for (const record of fresh) pageOf.set(String(record.id), page);
		if (pageOf.size > maxRecords)
			throw listCeilingError(node, `${formatCount(maxRecords)} records`, names.maxRecords);
		return { ...answer, records: fresh };
	};
	const first = await read(1);
	if (first.total === undefined) return await listRecords(ctx, 'contactList');
	const served = first.records.length;
	const pageSize = served > 0 && served < Math.min(PAGE_SIZE, first.total) ? served : PAGE_SIZE;
	const contacts: IDataObject[] = [];
	for (let page = Math.max(1, Math.ceil(first.total / pageSize)); page >= 1; page--) {
		const { records } = page === 1 ? first : await read(page);
		contacts.push(...records);
		if (records.some(isKnown)) break;
	}
	return contacts;
}

/** The state once `contacts` were read: the highest id and the latest created_at, of them and of the state. */
function stateAfter(ctx: IPollFunctions, state: ContactState, contacts: IDataObject[]) {
	const lastId = contacts.reduce(
		(highest, contact) => Math.max(highest, contactId(ctx, contact)),
		state.lastId,
	);
	const created = contacts.reduce(
		(latest, contact) => Math.max(latest, timeOf(contact.created_at) ?? -Infinity),
		timeOf(state.createdAt) ?? -Infinity,
	);
	return { lastId, createdAt: Number.isFinite(created) ? new Date(created).toISOString() : null };
}

const byId = (ctx: IPollFunctions, contacts: IDataObject[]) =>
	contacts.sort((a, b) => contactId(ctx, a) - contactId(ctx, b));

export const newContact: PollEvent<ContactState> = {
	properties: [],

	readState(stored) {
		const { lastId, createdAt } = (stored ?? {}) as IDataObject;
		const createdValid =
			createdAt === null || (typeof createdAt === 'string' && timeOf(createdAt) !== undefined);
		return Number.isSafeInteger(lastId) && createdValid
			? ({ lastId, createdAt } as ContactState)
			: undefined;
	},

	start: async (ctx) =>
		stateAfter(ctx, { lastId: 0, createdAt: null }, await readTail(ctx, () => true)),

	async next(ctx, state) {
		// Until a contact carrying a created_at was read, ids alone decide.
		const createdMs = timeOf(state.createdAt) ?? Infinity;
		const isNew = (contact: IDataObject) =>
			contactId(ctx, contact) > state.lastId ||
			(timeOf(contact.created_at) ?? -Infinity) > createdMs;
		const contacts = await readTail(ctx, (contact) => !isNew(contact));
		return { records: byId(ctx, contacts.filter(isNew)), state: stateAfter(ctx, state, contacts) };
	},

	latest: async (ctx) => byId(ctx, await readTail(ctx, () => true)).pop(),
};
