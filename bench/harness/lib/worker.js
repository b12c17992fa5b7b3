'use strict';
/**
 * One repetition of one contender in a process of its own (forked with --expose-gc), so its peak RSS is its own.
 * Receives {contender, job, url, user, run, buildDir, runtimeDir}; loads its modules and builds the input items
 * before the clock starts (n8n has its modules loaded long before a workflow runs); replies
 * {wallMs, cpuMs, maxRssMb, rssBeforeMb, outputs, ...} and exits.
 */
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { inputItems } = require('./jobs');

async function main(task) {
	const { contender, job, buildDir, runtimeDir } = task;
	// Preload everything the contender needs.
	let run;
	if (contender === 'raw' || contender === 'rawSequential') {
		const { runRaw } = require('../../lib/raw');
		const { NODE_CONCURRENCY } = require('./jobs');
		const concurrency = contender === 'raw' ? NODE_CONCURRENCY : 1;
		run = (args) => runRaw({ ...args, concurrency });
		require('undici');
	} else {
		const contenders = require('./n8nContenders');
		require(path.join(buildDir, 'tools', 'harness', 'engine.js'));
		if (contender === 'http') {
			const base = path.join(runtimeDir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes');
			require(path.join(base, 'HttpRequest', 'HttpRequest.node.js'));
			require(path.join(base, 'Transform', 'SplitOut', 'SplitOut.node.js'));
			run = contenders.runHttpRequestNode;
		} else {
			run = contenders.runNode;
		}
	}
	const items = inputItems(job, task.run);
	if (global.gc) global.gc();
	const rssBeforeMb = process.memoryUsage().rss / 1048576;
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	const result = await run({ ...task, items });
	const wallMs = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	const maxRssMb = process.resourceUsage().maxRSS / 1024;
	return { ...result, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb, rssBeforeMb };
}

process.once('message', (task) => {
	main(task).then(
		(result) => process.send({ ok: true, result }, () => process.exit(0)),
		(error) => process.send({ ok: false, error: String(error && error.stack ? error.stack : error) }, () => process.exit(1)),
	);
});
