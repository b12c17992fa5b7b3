import { timeOf } from '../../../transport/answers';
import { collection } from '../descriptions';
import { readOption } from '../helpers/parameters';
import { readList, windowEvent } from './watermark';

/**
 * New or Changed Product. The product list has no filter, no order guarantee and no total, but every product
 * carries `updated_at`, set by the service on create and on every update: the window runs on it.
 */
export const newOrChangedProduct = windowEvent({
	name: 'New or Changed Product',
	description:
		'A product of the catalogue was created or updated (needs the plugin integration headers)',
	properties: [
		collection('filters', [
			{
				displayName: 'Change Type',
				name: 'changeType',
				type: 'options',
				default: 'any',
				options: [
					{
						name: 'Changed Only',
						value: 'updated',
						description: 'Products updated after they were created',
					},
					{
						name: 'New Only',
						value: 'created',
						description: 'Products never updated since they were created',
					},
					{ name: 'New or Changed', value: 'any' },
				],
				description:
					'Which products to emit. A product counts as new while its updated_at equals its created_at.',
			},
		]),
	],
	readFilters: (ctx) => ({
		changeType: readOption(ctx, 'filters.changeType', 0, {
			label: 'Change Type',
			values: ['any', 'created', 'updated'],
			fallback: 'any',
		}),
	}),
	// The products area needs the plugin headers: the transport checks them first.
	read: readList('productList', (record) => record.updated_at ?? record.created_at),
	matches(record, filters) {
		if (filters.changeType === 'any') return true;
		const created = timeOf(record.created_at);
		const isNew =
			created === undefined || created === timeOf(record.updated_at ?? record.created_at);
		return filters.changeType === 'created' ? isNew : !isNew;
	},
});
