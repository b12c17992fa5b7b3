'use strict';
/**
 * `npm run bench:profile` (issue #20): where the node's time goes in a real n8n process. Starts the emulator and the
 * real n8n of `npm run bench` (same workflows, package packed from this checkout), warms up, then for each contender
 * (default: this node with its defaults, and Edit Fields as n8n's expression floor) runs the loopback order job twice:
 *  1. under V8's CPU profiler (through n8n's inspector, sampling every 100 µs), summarised by self time into n8n's
 *     parts (expression engine, HTTP stack, engine bookkeeping, server and database) and the package's (dist/transport,
 *     dist/nodes, dist/credentials);
 *  2. with V8's precise call counts, which give the number of expression evaluations (n8n-workflow's
 *     Expression.renderExpression), so each part can be stated per request and per evaluation.
 * Prints the summary, writes bench/results/profile.json; the .cpuprofile files stay in bench/results/ (not committed;
 * open them in Chrome DevTools). PROFILE_EVENTS (default 3000) and PROFILE_CONTENDERS (default node,editFields).
 */
const fs = require('node:fs');
const path = require('node:path');

const { workflowId } = require('./lib/workflows');
const { runOnce } = require('./lib/measure');
const { startLoopbackN8n } = require('./lib/loopbackN8n');
const { categorize, CATEGORIES, PARTS, ATTRIBUTED_TO_CALLER } = require('./lib/profileCategories');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_DIR = path.join(__dirname, 'results');
const EVENTS = Number(process.env.PROFILE_EVENTS ?? 3000);
const CONTENDERS = (process.env.PROFILE_CONTENDERS ?? 'node,editFields').split(',').map((s) => s.trim());
const SAMPLING_US = 100;

const log = (...args) => process.stderr.write(`[profile] ${args.join(' ')}\n`);

/**
 * Self time per category and per function, in ms, from a .cpuprofile: each sample counts the time until the next
 * one. Time in a function that is no part of its own (a native function such as isolated-vm's evalClosureSync or a
 * socket write, a library such as luxon, Node's core) goes to the part of its nearest caller that is one: that part
 * asked for the work. What no part called (the event loop's own work) stays where it is.
 */
function selfTimes(profile) {
	const msOf = new Map();
	profile.samples.forEach((id, i) => {
		const next = profile.timeDeltas[i + 1] ?? 0;
		msOf.set(id, (msOf.get(id) ?? 0) + next / 1000);
	});
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parentOf = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
	const own = (node) => categorize(node.callFrame.url, node.callFrame.functionName);
	const categoryOf = (node) => {
		const category = own(node);
		if (!ATTRIBUTED_TO_CALLER.has(category)) return category;
		for (let id = parentOf.get(node.id); id !== undefined; id = parentOf.get(id)) {
			const caller = own(byId.get(id));
			if (PARTS.has(caller)) return caller;
		}
		return category;
	};
	const byCategory = new Map();
	const byFunction = new Map();
	let total = 0;
	for (const node of profile.nodes) {
		const ms = msOf.get(node.id);
		if (!ms) continue;
		const { functionName, url, lineNumber } = node.callFrame;
		const category = categoryOf(node);
		if (category !== 'idle') total += ms;
		byCategory.set(category, (byCategory.get(category) ?? 0) + ms);
		const file = url.replace(/^file:\/\//, '');
		const where = file.includes('node_modules/') ? file.slice(file.lastIndexOf('node_modules/') + 13) : file;
		const key = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
		byFunction.set(key, { ms: (byFunction.get(key)?.ms ?? 0) + ms, category });
	}
	return { total, byCategory, byFunction };
}

/** Calls of n8n-workflow's Expression.renderExpression (one per evaluated expression) in a coverage result. */
function evaluations(coverage) {
	let calls = 0;
	for (const script of coverage.result) {
		if (!/n8n-workflow\/dist\/cjs\/expression\.js$/.test(script.url)) continue;
		for (const fn of script.functions) if (fn.functionName === 'renderExpression') calls += fn.ranges[0].count;
	}
	return calls;
}

async function profileContender(ctx, key) {
	const job = { kind: 'orders', events: EVENTS, wire: null };
	const contender = { id: key, workflow: key };
	const { inspector } = ctx.n8n;
	await inspector.send('Profiler.enable');
	await inspector.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
	let profile;
	const run = await runOnce(job, contender, `${ctx.runId}-prof-${key}`, ctx, ctx.n8n, {
		beforeRun: () => inspector.send('Profiler.start'),
		afterRun: async () => {
			({ profile } = await inspector.send('Profiler.stop'));
		},
	});
	if (run.error) throw new Error(`${key}: ${run.error}`);
	const file = path.join(RESULTS_DIR, `n8n-${key}.cpuprofile`);
	fs.writeFileSync(file, JSON.stringify(profile));

	await inspector.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
	let coverage;
	const counted = await runOnce(job, contender, `${ctx.runId}-count-${key}`, ctx, ctx.n8n, {
		// takePreciseCoverage returns the counts since the previous take, so the first take starts the count.
		beforeRun: () => inspector.send('Profiler.takePreciseCoverage'),
		afterRun: async () => {
			coverage = await inspector.send('Profiler.takePreciseCoverage');
		},
	});
	await inspector.send('Profiler.stopPreciseCoverage');
	await inspector.send('Profiler.disable');
	if (counted.error) throw new Error(`${key}: ${counted.error}`);

	const { total, byCategory, byFunction } = selfTimes(profile);
	const evaluationCount = evaluations(coverage);
	const requests = run.requests;
	const parts = CATEGORIES.map(({ id, label }) => {
		const ms = byCategory.get(id) ?? 0;
		return { id, label, ms, share: id === 'idle' ? null : ms / total, perRequestMs: requests ? ms / requests : null, perEventMs: ms / EVENTS };
	});
	const expressionMs = byCategory.get('expressions') ?? 0;
	const topFunctions = [...byFunction]
		.filter(([, v]) => v.category !== 'idle')
		.sort((a, b) => b[1].ms - a[1].ms)
		.slice(0, 20)
		.map(([name, v]) => ({ name, category: v.category, ms: v.ms }));
	return {
		contender: key,
		workflowId: workflowId(key, ctx.credentials.loopback),
		events: EVENTS,
		wallMs: run.wallMs,
		n8nCpuMs: run.n8nCpuMs,
		requests,
		evaluations: evaluationCount,
		evaluationsPerEvent: evaluationCount / EVENTS,
		sampledCpuMs: total,
		expressionMsPerEvaluation: evaluationCount ? expressionMs / evaluationCount : null,
		parts,
		topFunctions,
		cpuprofile: path.relative(ROOT, file),
	};
}

function render(results) {
	const lines = [];
	for (const r of results) {
		lines.push(
			'',
			`**${r.contender}** (${r.workflowId}): ${r.events.toLocaleString('en-US')} order events in ${(r.wallMs / 1000).toFixed(2)} s under the profiler;` +
				` ${r.requests.toLocaleString('en-US')} requests, ${r.evaluations.toLocaleString('en-US')} expression evaluations (${r.evaluationsPerEvent.toFixed(2)} per event);` +
				` sampled CPU of n8n's main thread ${(r.sampledCpuMs / 1000).toFixed(2)} s` +
				(r.expressionMsPerEvaluation !== null ? `; expression engine ${r.expressionMsPerEvaluation.toFixed(3)} ms per evaluation` : ''),
			'',
			'| Part (self time) | ms | Share | ms per request | ms per event |',
			'|---|--:|--:|--:|--:|',
		);
		for (const p of r.parts) {
			if (p.ms < 0.5) continue;
			lines.push(`| ${p.label} | ${Math.round(p.ms).toLocaleString('en-US')} | ${p.share === null ? '-' : `${(p.share * 100).toFixed(1)} %`} | ${p.perRequestMs === null ? '-' : p.perRequestMs.toFixed(3)} | ${p.perEventMs.toFixed(3)} |`);
		}
		lines.push('', `Heaviest functions (self time): ${r.topFunctions.slice(0, 8).map((f) => `${f.name} ${Math.round(f.ms)} ms`).join('; ')}`);
	}
	return lines.join('\n');
}

async function main() {
	const { ctx, stop } = await startLoopbackN8n({ keys: CONTENDERS, log });
	try {
		fs.mkdirSync(RESULTS_DIR, { recursive: true });
		const results = [];
		for (const key of CONTENDERS) {
			log(`profiling ${key} (${EVENTS} order events, then again counting expression evaluations)`);
			results.push(await profileContender(ctx, key));
		}
		const text = `Where the time goes in real n8n ${ctx.n8n.version} (main process, loopback, webhook -> Split Out -> contender):${render(results)}`;
		process.stdout.write(`${text}\n`);
		fs.writeFileSync(path.join(RESULTS_DIR, 'profile.json'), `${JSON.stringify({ generatedAt: new Date().toISOString(), n8n: ctx.n8n.version, samplingUs: SAMPLING_US, results, text }, null, 2)}\n`);
		log('written bench/results/profile.json');
	} finally {
		await stop();
	}
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exitCode = 1;
});
