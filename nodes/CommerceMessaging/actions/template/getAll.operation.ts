import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { compact, readListLimit, readOption } from '../../helpers/parameters';
import { listRecords } from '../../../../transport/pagination';
import { collection, returnAllOrLimit } from '../../descriptions';

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	collection('filters', [
		{
			displayName: 'State',
			name: 'state',
			type: 'options',
			options: [
				{ name: 'Approved', value: 'APPROVED', description: 'Ready to send' },
				{ name: 'Draft', value: 'DRAFT', description: 'Created, not yet submitted' },
				{
					name: 'Pending',
					value: 'PENDING',
					description: 'Submitted, waiting for WhatsApp review',
				},
				{
					name: 'Rejected',
					value: 'REJECTED',
					description: 'Refused by the review, with its reason',
				},
			],
			default: 'APPROVED',
			description: 'Only templates in this state',
		},
	]),
];

/** A whole list per item: its pages are what runs several at a time (Request Options > Concurrency). */
export const oneItemAtATime = true;

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return await listRecords(this, 'templateList', {
		...readListLimit(this, itemIndex),
		qs: compact({
			state: readOption(this, 'filters.state', itemIndex, {
				label: 'state filter',
				values: ['APPROVED', 'DRAFT', 'PENDING', 'REJECTED'],
				fallback: '',
			}),
		}),
		itemIndex,
	});
}

export const option = {
	name: 'Get Many',
	description: 'Get many templates',
	action: 'Get many templates',
};
