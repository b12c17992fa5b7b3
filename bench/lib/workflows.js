'use strict';
/**
 * The workflows the contenders run in real n8n, each started by its own production webhook:
 *
 *   Webhook (POST, answers when the last node finishes, with its first item) -> Split Out (body.items) -> contender
 *
 * so every contender gets the same n8n items the way a shop's export or a webhook burst delivers them, and pays the
 * same webhook and Split Out work (the No Operation contender measures it). Return All has no input to split:
 * Webhook -> contender. The webhook's path is the workflow's id.
 */
const crypto = require('node:crypto');

const NODE_TYPE = 'n8n-nodes-commerce-messaging.commerceMessaging';
const CREDENTIAL_TYPE = 'commerceMessagingApi';
/** The HTTP Request node version n8n 2.40.7 adds to a new workflow (its defaultVersion). */
const HTTP_REQUEST_VERSION = 4.5;
/** The largest page the service serves (docs/api-assumptions.md); a capable user asks for it. */
const HTTP_PAGE_SIZE = 1000;

/** The node's two expressions for an order event; Edit Fields and the HTTP Request node evaluate the same ones. */
const ORDER_EXPRESSIONS = { orderId: '={{ $json.id }}', status: '={{ $json.status }}' };

/**
 * The HTTP Request node's batching for order events, as a capable user sets it (bench/README.md lists the settings
 * tried in real n8n). BENCH_HTTP_BATCH="size/intervalMs" overrides it.
 */
function httpBatching() {
	const [batchSize, batchInterval] = (process.env.BENCH_HTTP_BATCH ?? '50/5').split('/').map(Number);
	return { batch: { batchSize, batchInterval } };
}

/** `httpB<size>x<interval>` (that batching) or `httpNoBatching`: the settings bench/httpBatching.js tries. */
function httpBatchingVariant(key) {
	if (key === 'httpNoBatching') return { label: "n8n's HTTP Request node, no batching", build: (c) => httpPushEventNode(c, null) };
	const match = /^httpB(\d+)x(\d+)$/.exec(key);
	if (!match) return undefined;
	const batch = { batchSize: Number(match[1]), batchInterval: Number(match[2]) };
	return { label: `n8n's HTTP Request node, batching ${batch.batchSize} per ${batch.batchInterval} ms`, build: (c) => httpPushEventNode(c, { batch }) };
}

const uuid = (seed) => {
	const hex = crypto.createHash('sha256').update(seed).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** A webhook-started workflow: Webhook -> [Split Out ->] the contender node. */
function webhookWorkflow(id, name, contender, { splitOut = true } = {}) {
	const nodes = [
		{
			parameters: { httpMethod: 'POST', path: id, responseMode: 'lastNode', responseData: 'firstEntryJson', options: {} },
			id: uuid(`${id}-webhook`),
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: uuid(`${id}-webhook-id`),
		},
	];
	const connections = {};
	let previous = 'Webhook';
	const add = (node) => {
		nodes.push({ id: uuid(`${id}-${node.name}`), position: [nodes.length * 220, 0], ...node });
		connections[previous] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
		previous = node.name;
	};
	if (splitOut) {
		add({
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
		});
	}
	for (const node of [contender].flat()) add(node);
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

const credentialRef = (credential) => ({ [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } });

/** Commerce Messaging, Order > Push Event; `options` and `requestOptions` as given (defaults when empty). */
function pushEventNode(credential, { options = {}, requestOptions = {} } = {}) {
	return {
		name: 'Commerce Messaging',
		type: NODE_TYPE,
		typeVersion: 1,
		parameters: { resource: 'order', operation: 'pushEvent', ...ORDER_EXPRESSIONS, options, requestOptions },
		credentials: credentialRef(credential),
	};
}

/** Commerce Messaging, Contact > Get Many with Return All. */
function getAllContactsNode(credential) {
	return {
		name: 'Commerce Messaging',
		type: NODE_TYPE,
		typeVersion: 1,
		parameters: { resource: 'contact', operation: 'getAll', returnAll: true },
		credentials: credentialRef(credential),
	};
}

/** n8n's HTTP Request node with this package's credential (predefined credential type), so n8n runs its login. */
function httpRequestNode(credential, parameters) {
	return {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		parameters: { authentication: 'predefinedCredentialType', nodeCredentialType: CREDENTIAL_TYPE, ...parameters },
		credentials: credentialRef(credential),
	};
}

function httpPushEventNode(credential, batching = httpBatching()) {
	return httpRequestNode(credential, {
		method: 'POST',
		url: `${credential.data.baseUrl}/api/v1/order/`,
		sendBody: true,
		contentType: 'json',
		specifyBody: 'keypair',
		bodyParameters: {
			parameters: [
				{ name: 'order_id', value: ORDER_EXPRESSIONS.orderId },
				{ name: 'status', value: ORDER_EXPRESSIONS.status },
			],
		},
		options: batching ? { batching } : {},
	});
}

/** Pages of 1000 one after the other until the last, then Split Out: one item per contact, like the node. */
function httpGetAllContactsNodes(credential) {
	return [
		httpRequestNode(credential, { method: 'GET', url: `${credential.data.baseUrl}/api/contacts/`, options: httpContactPagination() }),
		{
			name: 'Split Out contacts',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'data.items', include: 'noOtherFields', options: {} },
		},
	];
}

/**
 * The HTTP Request node's pagination over the contact list, as a capable user sets it: `currentPage`/`page` and
 * `limit` per request, done when a page is short or the total is reached. Shared with the engine-harness bench.
 */
function httpContactPagination() {
	return {
		pagination: {
			pagination: {
				paginationMode: 'updateAParameterInEachRequest',
				parameters: {
					parameters: [
						{ type: 'qs', name: 'currentPage', value: '={{ $pageCount + 1 }}' },
						{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' },
						{ type: 'qs', name: 'limit', value: String(HTTP_PAGE_SIZE) },
					],
				},
				paginationCompleteWhen: 'other',
				completeExpression: `={{ $response.body.data.items.length < ${HTTP_PAGE_SIZE} || $response.body.data.currentPage * ${HTTP_PAGE_SIZE} >= $response.body.data.total }}`,
				limitPagesFetched: false,
			},
		},
	};
}

/** n8n's floor for the node's expressions: Edit Fields evaluating the same two, once per item. */
function editFieldsNode() {
	return {
		name: 'Edit Fields',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: [
					{ id: uuid('order_id'), name: 'order_id', value: ORDER_EXPRESSIONS.orderId, type: 'string' },
					{ id: uuid('status'), name: 'status', value: ORDER_EXPRESSIONS.status, type: 'string' },
				],
			},
			options: {},
		},
	};
}

function noOpNode() {
	return { name: 'No Operation', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
}

/**
 * The contenders that run inside n8n, by id: what each workflow's last node is. `credential` is the
 * {id, name, data: {baseUrl}} the workflow uses (loopback or wire).
 */
const N8N_CONTENDERS = {
	node: { label: 'this node (defaults)', build: (c) => pushEventNode(c) },
	nodeDedupOff: { label: 'this node, Deduplicate off', build: (c) => pushEventNode(c, { options: { deduplicate: false } }) },
	nodeAcrossWorkers: {
		label: 'this node, Deduplicate Across Workers on',
		build: (c) => pushEventNode(c, { options: { deduplicateAcrossWorkers: true } }),
	},
	http: { label: "n8n's HTTP Request node", build: (c) => httpPushEventNode(c) },
	editFields: { label: 'Edit Fields, same 2 expressions', build: () => editFieldsNode(), noCredential: true },
	noOp: { label: 'No Operation', build: () => noOpNode(), noCredential: true },
	nodeContacts: { label: 'this node (Return All)', build: (c) => getAllContactsNode(c), splitOut: false },
	httpContacts: { label: "n8n's HTTP Request node (paginating)", build: (c) => httpGetAllContactsNodes(c), splitOut: false },
};

/**
 * The sweep's Push Event: Request Options > Concurrency `concurrency`, Deduplicate off so that only the lanes differ
 * (deduplication's own cost is the dedup job's subject), everything else at its default.
 */
function nodeWithConcurrency(concurrency) {
	return {
		label: `this node, Deduplicate off, Concurrency ${concurrency}`,
		build: (c) => pushEventNode(c, { options: { deduplicate: false }, requestOptions: { concurrency } }),
	};
}

/**
 * A contender that runs in n8n, by key: one of N8N_CONTENDERS, `nodeC<k>` (Push Event with Concurrency k) or an HTTP
 * Request node batching variant (httpBatchingVariant).
 */
function n8nContender(key) {
	const sweep = /^nodeC(\d+)$/.exec(key);
	const contender = sweep ? nodeWithConcurrency(Number(sweep[1])) : (N8N_CONTENDERS[key] ?? httpBatchingVariant(key));
	if (!contender) throw new Error(`no n8n contender "${key}"`);
	return contender;
}

/** The id (and webhook path) of contender `key`'s workflow with credential `credential`. */
function workflowId(key, credential) {
	const contender = n8nContender(key);
	return `bench${key[0].toUpperCase()}${key.slice(1)}${contender.noCredential ? '' : credential.tag}`;
}

/** The workflow of contender `key` with credential `credential`. */
function contenderWorkflow(key, credential) {
	const contender = n8nContender(key);
	return webhookWorkflow(
		workflowId(key, credential),
		`bench: ${contender.label}${contender.noCredential ? '' : ` (${credential.tag})`}`,
		contender.build(credential),
		{ splitOut: contender.splitOut ?? true },
	);
}

module.exports = { N8N_CONTENDERS, CREDENTIAL_TYPE, HTTP_PAGE_SIZE, httpContactPagination, HTTP_REQUEST_VERSION, n8nContender, workflowId, contenderWorkflow, httpBatching };
