import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readBoolean, readListLimit } from '../../helpers/parameters';
import { listRecords } from '../../../../transport/pagination';
import { returnAllOrLimit } from '../../descriptions';

/** What a simplified contact keeps: enough to address and name the person, small enough for an AI agent's context. */
export const SIMPLE_CONTACT_FIELDS = ['id', 'firstname', 'lastname', 'phone', 'email'] as const;

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description:
			'Whether to return only the ID, first name, last name, phone and email of each contact instead of the whole record (keeps an AI agent\'s context small)',
	},
];

/** A whole list per item: its pages are what runs several at a time (Request Options > Concurrency). */
export const oneItemAtATime = true;

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const simplify = readBoolean(this, 'simplify', itemIndex, { label: 'Simplify', fallback: false });
	const records = await listRecords(this, 'contactList', { ...readListLimit(this, itemIndex), itemIndex });
	return { records: simplify ? records.map(simplified) : records };
}

/** The simple fields the record has (a field the service leaves out stays out, rather than becoming null). */
function simplified(contact: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const field of SIMPLE_CONTACT_FIELDS) if (contact[field] !== undefined) out[field] = contact[field];
	return out;
}

export const option = { name: 'Get Many', description: 'Get many contacts', action: 'Get many contacts' };
