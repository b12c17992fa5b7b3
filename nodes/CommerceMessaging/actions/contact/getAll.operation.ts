import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readBoolean, readListLimit } from '../../helpers/parameters';
import { listRecords } from '../../../../transport/pagination';
import { returnAllOrLimit } from '../../descriptions';

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: 'Whether to return only the ID, names, phone and email of each contact',
	},
];

/** A whole list per item: its pages are what runs several at a time (Request Options > Concurrency). */
export const oneItemAtATime = true;

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const simplify = readBoolean(this, 'simplify', itemIndex, { label: 'Simplify', fallback: false });
	const records = await listRecords(this, 'contactList', {
		...readListLimit(this, itemIndex),
		itemIndex,
	});
	if (!simplify) return records;
	// Enough to address and name the person, small enough for an AI agent's context. A field the service leaves out
	// stays out, rather than becoming null.
	const fields = ['id', 'firstname', 'lastname', 'phone', 'email'];
	return records.map((contact) =>
		Object.fromEntries(
			fields
				.filter((field) => contact[field] !== undefined)
				.map((field) => [field, contact[field]]),
		),
	);
}

export const option = {
	name: 'Get Many',
	description: 'Get many contacts',
	action: 'Get many contacts',
};
