'use strict';
/**
 * Where the node's time goes on the order-events job, measured piece by piece in one process against the same
 * emulator (rounds alternate, medians, the first round is warm-up):
 *  - undici: one keep-alive connection, the raw client's way (what a request costs at the least);
 *  - n8n HTTP helper: the same POST through n8n's own helper (`OutboundHttp`, what `httpRequestWithAuthentication`
 *    ends in) with the options the node's transport passes: n8n builds a new http.Agent, so a new TCP
 *    connection, and an axios request for every call;
 *  - n8n engine, no HTTP: the order events through n8n's WorkflowExecute into a node that only reads the same
 *    parameters as Push Event (Order ID and Status as `{{ $json... }}` expressions, Additional Fields, Options,
 *    Request Options) and returns: n8n's per-item cost before any request.
 * Replies {requests, items, perRequestMs: {undici, n8nHelper}, enginePerItemMs}.
 */
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A node that does what Push Event does before its request: read its parameters for every item. */
function paramsOnlyNodeType(NodeConnectionTypes) {
	return {
		description: {
			displayName: 'Parameters Only',
			name: 'paramsOnly',
			group: ['transform'],
			version: 1,
			description: 'Reads the parameters of Order > Push Event, sends nothing',
			defaults: { name: 'Parameters Only' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [
				{ displayName: 'Order ID', name: 'orderId', type: 'string', default: '' },
				{ displayName: 'Status', name: 'status', type: 'string', default: '' },
				{ displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', default: {}, options: [] },
				{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
				{ displayName: 'Request Options', name: 'requestOptions', type: 'collection', default: {}, options: [] },
			],
		},
		async execute() {
			const items = this.getInputData();
			const output = [];
			for (let i = 0; i < items.length; i++) {
				const json = { order_id: this.getNodeParameter('orderId', i), status: this.getNodeParameter('status', i) };
				this.getNodeParameter('additionalFields', i, {});
				this.getNodeParameter('options', i, {});
				this.getNodeParameter('requestOptions', i, {});
				output.push({ json, pairedItem: { item: i } });
			}
			return [output];
		},
	};
}

async function measure({ url, user, buildDir, requests = 3000, items = 5000, rounds = 4 }) {
	const { Pool } = require('undici');
	const { Container } = require('@n8n/di');
	const { OutboundHttp } = require('@n8n/backend-network');
	require('n8n-core');
	const { NodeConnectionTypes } = require('n8n-workflow');
	const { Engine } = require(path.join(buildDir, 'tools', 'harness', 'engine.js'));

	const helper = Container.get(OutboundHttp).requests();
	const login = await helper.request({ method: 'POST', url: `${url}/api/login_check`, body: user, json: true });
	const authorization = `Bearer ${login.token}`;
	const pool = new Pool(url, { connections: 1, pipelining: 1 });

	const undiciRun = async (tag) => {
		for (let i = 0; i < requests; i++) {
			const response = await pool.request({
				method: 'POST',
				path: '/api/v1/order/',
				headers: { accept: 'application/json', 'content-type': 'application/json', authorization },
				body: JSON.stringify({ order_id: `F-${tag}-${i}`, status: 'paid' }),
			});
			JSON.parse(await response.body.text());
		}
	};
	const helperRun = async (tag) => {
		for (let i = 0; i < requests; i++) {
			// The options transport/request.ts passes (the credential adds Authorization).
			const response = await helper.request({
				method: 'POST',
				baseURL: url,
				url: '/api/v1/order/',
				headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: authorization },
				body: { order_id: `F-${tag}-${i}`, status: 'paid' },
				encoding: 'text',
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			});
			JSON.parse(response.body);
		}
	};
	const engine = new Engine({ baseUrl: url, username: user.username, password: user.password }, {
		'bench.paramsOnly': paramsOnlyNodeType(NodeConnectionTypes),
	});
	const engineRun = async (tag) => {
		const input = Array.from({ length: items }, (_, i) => ({ json: { orderId: `F-${tag}-${i}`, status: 'paid' } }));
		const result = await engine.run({
			nodeType: 'bench.paramsOnly',
			parameters: { orderId: '={{ $json.orderId }}', status: '={{ $json.status }}' },
			items: input,
		});
		if (result.error || result.items.length !== items) throw new Error(`engine floor run failed: ${result.error?.message}`);
	};

	const samples = { undici: [], n8nHelper: [], engine: [] };
	const steps = [
		['undici', undiciRun, requests],
		['n8nHelper', helperRun, requests],
		['engine', engineRun, items],
	];
	for (let round = 0; round < rounds; round++) {
		const order = steps.map((_, i) => steps[(i + round) % steps.length]);
		for (const [name, run, count] of order) {
			const started = performance.now();
			await run(`${round}${name}`);
			if (round > 0) samples[name].push((performance.now() - started) / count);
		}
	}
	await pool.close();
	return {
		requests,
		items,
		rounds: rounds - 1,
		perRequestMs: { undici: median(samples.undici), n8nHelper: median(samples.n8nHelper) },
		enginePerItemMs: median(samples.engine),
	};
}

process.once('message', (task) => {
	measure(task).then(
		(result) => process.send({ ok: true, result }, () => process.exit(0)),
		(error) => process.send({ ok: false, error: String(error && error.stack ? error.stack : error) }, () => process.exit(1)),
	);
});
