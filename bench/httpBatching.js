'use strict';
/**
 * `npm run bench:http-batching`: which Batching setting a capable user would give n8n's HTTP Request node for pushing
 * order events, tried in the real n8n of `npm run bench` (loopback, 3,000 events, each run with a token the service
 * refuses, like the orders job). Settings alternate; medians. Prints a table and writes results/http-batching.json;
 * bench/README.md states the setting chosen for the HTTP Request node contender from it. HTTP_BATCHING_EVENTS (3000)
 * and HTTP_BATCHING_REPS (2) change the size.
 */
const fs = require('node:fs');
const path = require('node:path');

const { runOnce, summarize, rotated } = require('./lib/measure');
const { startLoopbackN8n } = require('./lib/loopbackN8n');
const { n8nContender } = require('./lib/workflows');

const EVENTS = Number(process.env.HTTP_BATCHING_EVENTS ?? 3000);
const REPS = Number(process.env.HTTP_BATCHING_REPS ?? 2);
const KEYS = ['httpNoBatching', 'httpB10x1', 'httpB20x5', 'httpB50x5', 'httpB100x5', 'httpB200x10'];
const log = (...args) => process.stderr.write(`[http-batching] ${args.join(' ')}\n`);

async function main() {
	const { ctx, stop } = await startLoopbackN8n({ keys: KEYS, log });
	try {
		const job = { kind: 'orders', events: EVENTS, wire: null, freshToken: true };
		const contenders = KEYS.map((key) => ({ id: key, workflow: key }));
		const runs = [];
		for (let rep = 0; rep < REPS; rep++) {
			for (const contender of rotated(contenders, rep)) {
				const run = await runOnce(job, contender, `${ctx.runId}-${rep}-${contender.id}`, ctx);
				runs.push(run);
				log(`${contender.id}: ${run.wallMs ? `${(run.wallMs / 1000).toFixed(2)} s` : `failed: ${run.error}`}, ${run.logins} logins, ${run.outOfOrder} out of order, ${run.itemsLost} lost`);
			}
		}
		const rows = contenders.map((c) => ({ key: c.id, ...summarize(runs, c) }));
		const lines = [
			`HTTP Request node, ${EVENTS.toLocaleString('en-US')} order events on loopback in real n8n ${ctx.n8n.version}, medians of ${REPS}:`,
			'',
			'| Batching | Time (s) | Spread | Logins | Out of order | Lost |',
			'|---|--:|--:|--:|--:|--:|',
			...rows.map(
				(r) =>
					`| ${n8nContender(r.key).label.replace("n8n's HTTP Request node, ", '')} | ${r.wallMs === null ? 'failed' : (r.wallMs / 1000).toFixed(2)} | ${r.wallSpread === null ? '-' : `${Math.round(r.wallSpread * 100)} %`} | ${r.logins} | ${r.outOfOrder} | ${r.itemsLost} |`,
			),
		];
		const text = lines.join('\n');
		process.stdout.write(`${text}\n`);
		const file = path.join(__dirname, 'results', 'http-batching.json');
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, `${JSON.stringify({ generatedAt: new Date().toISOString(), events: EVENTS, reps: REPS, rows, text, runs }, null, 2)}\n`);
		log(`written ${path.relative(process.cwd(), file)}`);
	} finally {
		await stop();
	}
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exitCode = 1;
});
