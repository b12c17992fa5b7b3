import { type INodeProperties, updateDisplayOptions } from 'n8n-workflow';

import * as createInstance from './automation/createInstance.operation';
import * as pushAbandoned from './cart/pushAbandoned.operation';
import * as createContact from './contact/create.operation';
import * as getContacts from './contact/getAll.operation';
import * as request from './customApiCall/request.operation';
import * as deleteMedia from './media/delete.operation';
import * as upload from './media/upload.operation';
import * as sendMessage from './message/send.operation';
import type { Operation, Resource, ResourceOperations } from './node.type';
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
 * Resource -> operation -> implementation, complete by type (node.type.ts), in the order the node shows them. Each
 * operation file brings its entry of the Operation list (`option`) and its fields (`description`).
 */
export const operations: { [R in Resource]: ResourceOperations<R> } = {
	contact: { create: createContact, getAll: getContacts },
	message: { send: sendMessage },
	template: { create: createTemplate, delete: deleteTemplate, get: getTemplate, getAll: getTemplates, send: sendTemplate, submit, waitForApproval },
	media: { delete: deleteMedia, upload },
	order: { getHistory, pushEvent },
	cart: { pushAbandoned },
	product: { create: createProduct, delete: deleteProduct, get: getProduct, getAll: getProducts, update: updateProduct },
	automation: { createInstance },
	customApiCall: { request },
};

/** The operation a resource opens with. */
const FIRST: { [R in Resource]: keyof ResourceOperations<R> } = {
	contact: 'create',
	message: 'send',
	template: 'send',
	media: 'upload',
	order: 'pushEvent',
	cart: 'pushAbandoned',
	product: 'create',
	automation: 'createInstance',
	customApiCall: 'request',
};

/** Each resource's Operation list, then its operations' fields, each shown for its operation only. */
export const resourceDescriptions: INodeProperties[] = Object.entries(operations).flatMap(([resource, byName]) => {
	const list = Object.entries(byName) as Array<[string, Operation]>;
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: list.map(([value, operation]) => ({ ...operation.option, value })),
			default: FIRST[resource as Resource],
		},
		...list.flatMap(([name, operation]) => updateDisplayOptions({ show: { resource: [resource], operation: [name] } }, operation.properties)),
	];
});
