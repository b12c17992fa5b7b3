import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { compact } from '../../helpers/parameters';
import { listRecords } from '../../../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import type { OperationResult } from '../operation';
import { isoDateTime, text } from '../../helpers/eventFields';

const properties: INodeProperties[] = [
	...returnAllOrLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Date From',
				name: 'dateFrom',
				type: 'dateTime',
				default: '',
				description: 'Only orders created at or after this moment (sent as date_from, ISO 8601)',
			},
			{
				displayName: 'Date To',
				name: 'dateTo',
				type: 'dateTime',
				default: '',
				description: 'Only orders created at or before this moment (sent as date_to, ISO 8601)',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				placeholder: 'paid',
				description: 'Only orders with this status, e.g. pending, paid, shipped, delivered, cancelled or refunded',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['getHistory'] } },
	properties,
);

/** Past synced orders, newest first, one output item per order. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs = compact({
		status: text(filters.status),
		date_from: text(filters.dateFrom) ? isoDateTime(this, filters.dateFrom, 'Date From', itemIndex) : undefined,
		date_to: text(filters.dateTo) ? isoDateTime(this, filters.dateTo, 'Date To', itemIndex) : undefined,
	});
	if (typeof qs.date_from === 'string' && typeof qs.date_to === 'string' && qs.date_from > qs.date_to) {
		throw new NodeOperationError(
			this.getNode(),
			`Item ${itemIndex}: Date From (${qs.date_from}) is after Date To (${qs.date_to})`,
			{ itemIndex, description: 'Swap the two dates, or leave one of them empty.' },
		);
	}
	return await listRecords(this, 'orderHistory', { qs, limit, itemIndex });
}
