import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { timeOf } from '../../../transport/answers';
import { formatQuoted } from '../../../transport/format';
import { plainApiError } from '../../../transport/messages';
import { pagesFromTheEnd } from '../../../transport/pagination';
import type { PollEvent } from './index';
import { isStoredTime } from './watermark';

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

/** The contacts from the last page backwards, down to the first page holding a known one. */
async function readTail(ctx: IPollFunctions, isKnown: (record: IDataObject) => boolean) {
	const contacts: IDataObject[] = [];
	for await (const records of pagesFromTheEnd(ctx, 'contactList')) {
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
	name: 'New Contact',
	description: 'A contact was added to the contact list',
	properties: [],

	readState(stored) {
		const { lastId, createdAt } = (stored ?? {}) as IDataObject;
		return Number.isSafeInteger(lastId) && isStoredTime(createdAt)
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
