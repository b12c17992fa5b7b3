import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listRecords } from '../../../transport/pagination';
import { readOption } from '../helpers/parameters';

import type { PollEvent } from './types';
import {
	advance,
	newest,
	pastWatermark,
	readWatermarkState,
	stamp,
	timeOf,
	uniqueById,
	type Stamped,
	type WatermarkState,
} from './watermark';

/**
 * New or Changed Product. The product list has no filter, no order guarantee and no total, but every product
 * carries `updated_at`, set by the service on create and on every update. A poll reads every page and emits the
 * products updated after the watermark (plus the ids at the watermark's instant), oldest change first.
 */
const properties: INodeProperties[] = [
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Change Type',
				name: 'changeType',
				type: 'options',
				default: 'any',
				options: [
					{ name: 'Changed Only', value: 'updated', description: 'Products updated after they were created' },
					{ name: 'New Only', value: 'created', description: 'Products never updated since they were created' },
					{ name: 'New or Changed', value: 'any' },
				],
				description:
					'Which products to emit. A product counts as new while its updated_at equals its created_at.',
			},
		],
	},
];

/** Every product, in list order (the products area needs the plugin headers: the transport checks them first). */
async function readProducts(ctx: IPollFunctions): Promise<Stamped[]> {
	const records = await listRecords(ctx, 'productList');
	const products: Stamped[] = [];
	records.forEach((record, position) => {
		const product = stamp(record, record.id, record.updated_at ?? record.created_at, position);
		if (product) products.push(product);
	});
	return uniqueById(products);
}

function changeMatches(record: IDataObject, filters: IDataObject): boolean {
	const wanted = typeof filters.changeType === 'string' ? filters.changeType : 'any';
	if (wanted === 'any') return true;
	const created = timeOf(record.created_at);
	const isNew = created === undefined || created === timeOf(record.updated_at ?? record.created_at);
	return wanted === 'created' ? isNew : !isNew;
}

export const newOrChangedProduct: PollEvent<WatermarkState> = {
	properties: updateDisplayOptions({ show: { event: ['newOrChangedProduct'] } }, properties),

	readFilters: (ctx) => ({
		changeType: readOption(ctx, 'filters.changeType', 0, { label: 'Change Type', values: ['any', 'created', 'updated'], fallback: 'any' }),
	}),

	readState: readWatermarkState,

	async start(ctx) {
		return { mark: advance(undefined, await readProducts(ctx)) ?? null };
	},

	async next(ctx, state, filters) {
		return pastWatermark(state, await readProducts(ctx), (record) => changeMatches(record, filters));
	},

	async latest(ctx, filters) {
		const products = await readProducts(ctx);
		return newest(products.filter((product) => changeMatches(product.record, filters)))?.record;
	},
};
