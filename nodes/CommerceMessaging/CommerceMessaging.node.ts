import {
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';

import { operations, resourceDescriptions } from './actions/resources';
import { router } from './actions/router';
import { requestOptions } from './descriptions';
import { methods } from './methods';

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	// n8n itself appends a "Custom API Call" entry (the HTTP Request node with this credential) to the
	// Resource and Operation lists of every node whose credential has `authenticate`; this node's own
	// any-path call is named differently so the list never shows two "Custom API Call" entries.
	options: [
		{ name: 'Automation', value: 'automation' },
		{ name: 'Cart', value: 'cart' },
		{ name: 'Contact', value: 'contact' },
		{ name: 'Media', value: 'media' },
		{ name: 'Message', value: 'message' },
		{ name: 'Order', value: 'order' },
		{
			name: 'Other Endpoint',
			value: 'customApiCall',
			description:
				"Call any path of the service with this node's login, error handling, retries and paging",
		},
		{ name: 'Product', value: 'product' },
		{ name: 'Template', value: 'template' },
	],
	default: 'contact',
};

/** Value -> the name the panel shows, for the subtitle. */
const RESOURCE_LABELS = Object.fromEntries(
	(resourceProperty.options as INodePropertyOptions[]).map(({ value, name }) => [value, name]),
);

/** "resource:operation" -> the operation's name (names repeat across resources). */
const OPERATION_LABELS = Object.fromEntries(
	Object.entries(operations).flatMap(([resource, byName]) =>
		Object.entries(byName).map(([operation, { option }]) => [
			`${resource}:${operation}`,
			option.name,
		]),
	),
);

export class CommerceMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Commerce Messaging',
		name: 'commerceMessaging',
		icon: { light: 'file:commerceMessaging.svg', dark: 'file:commerceMessaging.dark.svg' },
		group: ['transform'],
		version: 1,
		// "Operation: Resource" with the names the panel shows ("Push Event: Order"), not the raw values. The maps are
		// flat object literals: a "}}" inside would end the expression early.
		subtitle: `={{ (${JSON.stringify(OPERATION_LABELS)}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"]) + ": " + (${JSON.stringify(RESOURCE_LABELS)}[$parameter["resource"]] || $parameter["resource"]) }}`,
		description:
			'Send WhatsApp messages and templates, sync contacts, orders, abandoned carts and products with a conversational-marketing service for online shops',
		defaults: { name: 'Commerce Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'commerceMessagingApi', required: true }],
		properties: [resourceProperty, ...resourceDescriptions, requestOptions],
	};

	methods = methods;

	/** Every run goes to the router (actions/router.ts), which runs the items. */
	execute = router;
}
