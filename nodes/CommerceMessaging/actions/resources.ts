import { type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import * as createInstance from './automation/createInstance.operation';
import * as pushAbandoned from './cart/pushAbandoned.operation';
import * as createContact from './contact/create.operation';
import * as getContacts from './contact/getAll.operation';
import * as request from './customApiCall/request.operation';
import * as deleteMedia from './media/delete.operation';
import * as upload from './media/upload.operation';
import * as sendMessage from './message/send.operation';
import type { Operation } from './node.type';
import * as getHistory from './order/getHistory.operation';
import * as pushEvent from './order/pushEvent.operation';
import * as createProduct from './product/create.operation';
import * as deleteProduct from './product/delete.operation';
import * as getProduct from './product/get.operation';
import * as getProducts from './product/getAll.operation';
import * as updateProduct from './product/update.operation';
import * as createTemplate from './template/create.operation';
import * as deleteTemplate from './template/delete.operation';
import * as getTemplate from './template/get.operation';
import * as getTemplates from './template/getAll.operation';
import * as sendTemplate from './template/send.operation';
import * as submit from './template/submit.operation';
import * as waitForApproval from './template/waitForApproval.operation';

/**
 * Resource -> operation -> implementation, in the order the node shows the resources; each resource opens with its
 * first operation. Each operation file brings its entry of the Operation list (`option`) and its fields
 * (`properties`).
 */
export const operations: Record<string, Record<string, Operation>> = {
	contact: { create: createContact, getAll: getContacts },
	message: { send: sendMessage },
	template: {
		send: sendTemplate,
		create: createTemplate,
		delete: deleteTemplate,
		get: getTemplate,
		getAll: getTemplates,
		submit,
		waitForApproval,
	},
	media: { upload, delete: deleteMedia },
	order: { pushEvent, getHistory },
	cart: { pushAbandoned },
	product: {
		create: createProduct,
		delete: deleteProduct,
		get: getProduct,
		getAll: getProducts,
		update: updateProduct,
	},
	automation: { createInstance },
	customApiCall: { request },
};

/** Each resource's Operation list (by name), then its operations' fields, each shown for its operation only. */
export const resourceDescriptions: INodeProperties[] = Object.entries(operations).flatMap(
	([resource, byName]) => {
		const list = Object.entries(byName).sort(([, a], [, b]) =>
			a.option.name.localeCompare(b.option.name),
		);
		const first = Object.keys(byName)[0];
		return [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: [resource] } },
				options: list.map(([value, { option }]) => ({ ...option, value })),
				default: first,
			},
			...list.flatMap(([operation, { properties }]) =>
				updateDisplayOptions(
					{ show: { resource: [resource], operation: [operation] } },
					properties,
				),
			),
		];
	},
);
