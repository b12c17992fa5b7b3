'use strict';
/**
 * Contenders 2 and 3, both run by n8n-core's WorkflowExecute through the engine harness (tools/harness/engine.ts,
 * transpiled by build.js) with the same credentials helper, so the engine is the same for both:
 *  - this node, with its defaults;
 *  - n8n's HTTP Request node (n8n-nodes-base from the installed n8n runtime) with this package's credential
 *    (predefined credential type) and its own batching / pagination options set the way a capable user would.
 */
const path = require('node:path');

const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
const SPLIT_OUT_TYPE = 'n8n-nodes-base.splitOut';
// The HTTP Request node's contact pagination, as the real-n8n bench sets it (largest page the service serves).
const { HTTP_PAGE_SIZE, httpContactPagination } = require('../../lib/workflows');

function credentials(url, user) {
	return { baseUrl: url, username: user.username, password: user.password, pluginIntegration: false };
}

/** A failed run is reported (the parent counts what the service received), not thrown. */
function outcome(result, expected) {
	if (result.error) return { error: `the run failed: ${result.error.message}` };
	if (result.finalItems.length !== expected) return { error: `${result.finalItems.length} output items, expected ${expected}` };
	return {};
}

/** This node, defaults only (dedup on for orders, batching 50/1000 ms on for WhatsApp, Return All pages itself). */
async function runNode({ job, url, user, items, buildDir }) {
	const { Engine } = require(path.join(buildDir, 'tools', 'harness', 'engine.js'));
	const engine = new Engine(credentials(url, user));
	let parameters;
	if (job.kind === 'orders') {
		parameters = { resource: 'order', operation: 'pushEvent', orderId: '={{ $json.orderId }}', status: '={{ $json.status }}' };
	} else if (job.kind === 'whatsapp') {
		parameters = { resource: 'message', operation: 'send', phone: '={{ $json.phone }}', message: '={{ $json.message }}' };
	} else {
		parameters = { resource: 'contact', operation: 'getAll', returnAll: true };
	}
	const result = await engine.run({ parameters, items });
	const pagination = require(path.join(buildDir, 'transport', 'pagination.js'));
	return {
		outputs: result.finalItems.length,
		clientLogins: engine.logins,
		...outcome(result, job.kind === 'contacts' ? job.contacts : items.length),
		...(job.kind === 'contacts' ? { pageSize: pagination.RETURN_ALL_PAGE_SIZE ?? pagination.PAGE_SIZE } : {}),
	};
}

/**
 * The HTTP Request node's batching for order events, as a capable user sets it (bench/README.md has the settings
 * tried): without the option every item's request starts at once (10,000 requests and as many logins in flight);
 * the option's defaults (50 per 1000 ms) would take 200 s; 50 per 5 ms was among the fastest settings tried.
 * Told the rate limit (100 requests/s), a capable user spreads it evenly: 10 items every 100 ms (one burst of 100
 * per second instead loses events: the first batch's logins and their API-access probes use up the burst).
 * BENCH_HTTP_BATCH="size/intervalMs" overrides both, to try other settings.
 */
function httpOrderBatching(job) {
	const override = process.env.BENCH_HTTP_BATCH;
	if (override) return override.split('/').map(Number);
	if (job.rateLimit) return [Math.max(1, Math.round(job.rateLimit.requestsPerSecond / 10)), 100];
	return [50, 5];
}

/** n8n's HTTP Request node (typeVersion 4.5, the default in n8n 2.40), configured as a capable user would. */
async function runHttpRequestNode({ job, url, user, items, buildDir, runtimeDir }) {
	const { Engine } = require(path.join(buildDir, 'tools', 'harness', 'engine.js'));
	const base = path.join(runtimeDir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes');
	const { HttpRequest } = require(path.join(base, 'HttpRequest', 'HttpRequest.node.js'));
	const { SplitOut } = require(path.join(base, 'Transform', 'SplitOut', 'SplitOut.node.js'));
	const engine = new Engine(credentials(url, user), {
		[HTTP_REQUEST_TYPE]: new HttpRequest(),
		[SPLIT_OUT_TYPE]: new SplitOut(),
	});
	const common = {
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'commerceMessagingApi',
	};
	const jsonBody = (fields) => ({
		sendBody: true,
		contentType: 'json',
		specifyBody: 'keypair',
		bodyParameters: { parameters: fields.map(([name, value]) => ({ name, value })) },
	});
	let run;
	if (job.kind === 'orders') {
		const [batchSize, batchInterval] = httpOrderBatching(job);
		const options = { batching: { batch: { batchSize, batchInterval } } };
		run = {
			parameters: {
				...common,
				method: 'POST',
				url: `${url}/api/v1/order/`,
				...jsonBody([
					['order_id', '={{ $json.orderId }}'],
					['status', '={{ $json.status }}'],
				]),
				options,
			},
			items,
		};
	} else if (job.kind === 'whatsapp') {
		run = {
			parameters: {
				...common,
				method: 'POST',
				url: `${url}/api/whatsapp/`,
				...jsonBody([
					['phone', '={{ $json.phone }}'],
					['message', '={{ $json.message }}'],
				]),
				// The same pacing as the node's defaults.
				options: { batching: { batch: { batchSize: job.batch.size, batchInterval: job.batch.intervalMs } } },
			},
			items,
		};
	} else {
		run = {
			parameters: {
				...common,
				method: 'GET',
				url: `${url}/api/contacts/`,
				options: httpContactPagination(),
			},
			items,
			// One output item per page; Split Out turns data.items into one item per contact, like the node outputs.
			next: { type: SPLIT_OUT_TYPE, typeVersion: 1, parameters: { fieldToSplitOut: 'data.items', include: 'noOtherFields' } },
		};
	}
	const result = await engine.run({ nodeType: HTTP_REQUEST_TYPE, typeVersion: 4.5, ...run });
	return {
		outputs: result.finalItems.length,
		clientLogins: engine.logins,
		...outcome(result, job.kind === 'contacts' ? job.contacts : items.length),
		...(job.kind === 'contacts' ? { pageSize: HTTP_PAGE_SIZE } : {}),
	};
}

module.exports = { runNode, runHttpRequestNode };
