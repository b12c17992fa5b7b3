/**
 * The bench's verdicts: a target's PASS/FAIL from the medians of one run (bench/lib/runners.js judge), and which part
 * of n8n or of this package a profiled function's self time is added to (bench/lib/profileCategories.js).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- bench/ is plain JavaScript
const { judge } = require('../../bench/lib/runners');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- bench/ is plain JavaScript
const { categorize } = require('../../bench/lib/profileCategories');

describe('bench: targets judged from one run', () => {
	const summary = {
		node: { wallMs: 1000, peakRssMb: 500, itemsLost: 0, logins: 2 },
		http: { wallMs: 2500, peakRssMb: 490 },
		editFields: { wallMs: 300 },
		raw: { wallMs: null },
	};
	const job = {
		targets: [
			{ ratio: ['node', 'http'], max: 0.5 },
			{ ratio: ['node', 'editFields'], max: 2.8 },
			{ rss: ['node', 'http'], max: 1 },
			{ count: 'itemsLost', of: 'node', max: 0 },
			{ count: 'logins', of: 'node', max: 1 },
			{ ratio: ['node', 'raw'], max: 1.3 },
		],
	};

	it('a ratio of medians passes at or under its limit, fails above it; a count likewise; a failed contender is n/a', () => {
		const verdicts = judge(job, summary);
		expect(verdicts.map((v: { name: string; pass: boolean | null }) => [v.name, v.pass])).toEqual([
			['time node / http', true],
			['time node / editFields', false],
			['peak RSS node / http', false],
			['itemsLost (node)', true],
			['logins (node)', false],
			['time node / raw', null],
		]);
		expect(verdicts[0].value).toBeCloseTo(0.4);
		expect(verdicts[1].value).toBeCloseTo(3.333, 3);
	});
});

describe('bench: profile parts', () => {
	const nm = 'file:///root/.cache/n8n/node_modules';
	it.each([
		[`${nm}/n8n-workflow/dist/cjs/expression.js`, 'renderExpression', 'expressions'],
		[
			`${nm}/@n8n/expression-runtime/dist/cjs/bridge/isolated-vm-bridge.js`,
			'execute',
			'expressions',
		],
		[`${nm}/@n8n/backend-network/dist/outbound-http.js`, 'request', 'http'],
		['node:_tls_wrap', 'TLSSocket', 'http'],
		[`${nm}/n8n-core/dist/execution-engine/workflow-execute.js`, 'runNode', 'engine'],
		[`${nm}/n8n-workflow/dist/cjs/node-helpers.js`, 'getNodeParameters', 'engine'],
		[`${nm}/@n8n/typeorm/index.js`, 'save', 'server'],
		[
			'file:///home/x/.n8n/nodes/node_modules/n8n-nodes-commerce-messaging/dist/transport/request.js',
			'send',
			'package:transport',
		],
		[
			'file:///home/x/.n8n/nodes/node_modules/n8n-nodes-commerce-messaging/dist/nodes/CommerceMessaging/helpers/deduplication.js',
			'claim',
			'package:nodes',
		],
		['', 'evalClosureSync', 'native'],
		['', '(garbage collector)', 'gc'],
		['', '(idle)', 'idle'],
		['node:events', 'emit', 'nodeCore'],
		[`${nm}/luxon/build/node/luxon.js`, 'partsOffset', 'other'],
	])('%s %s -> %s', (url, functionName, part) => {
		expect(categorize(url, functionName)).toBe(part);
	});
});
