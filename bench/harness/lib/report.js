'use strict';
/** The one table `npm run bench` prints (Markdown, so the README can show it as is). */

const { describeChecks } = require('./targets');

const CONTENDER_ORDER = ['raw', 'rawSequential', 'node', 'http'];
const LABELS = {
	raw: 'raw undici client (node\'s concurrency)',
	rawSequential: 'raw client, one at a time',
	node: 'this node',
	http: 'HTTP Request node',
};

const fmt = {
	s: (ms) => (ms === null || ms === undefined ? '-' : (ms / 1000).toFixed(2)),
	mb: (mb) => (mb === null || mb === undefined ? '-' : mb.toFixed(0)),
	n: (n) => (n === null || n === undefined ? '-' : Math.round(n).toLocaleString('en-US')),
	x: (r) => (r === null || r === undefined ? '-' : `${r.toFixed(2)}x`),
};

/** What the job asks to be reported beyond time, memory and requests. */
function jobNotes(job, s) {
	const notes = [];
	if (s.failedRuns) notes.push(`**${s.failedRuns}/${s.runs} runs failed**: ${s.errors.join('; ').slice(0, 160)}`);
	if (job.kind === 'contacts') notes.push(`page size ${s.pageSize ?? '?'}`);
	if (job.id === 'rateLimited') {
		notes.push(`items lost ${s.itemsLost}`, `beyond minimum ${fmt.n(s.beyondMinimum)}`, `429s ${fmt.n(s.rateLimited)}`, `sent before Retry-After ${s.earlyRetries}`);
		if (s.duplicates) notes.push(`duplicates ${s.duplicates}`);
	} else if (job.kind !== 'contacts') {
		if (s.itemsLost) notes.push(`items lost ${s.itemsLost}`);
		if (s.duplicates) notes.push(`duplicates ${s.duplicates}`);
	}
	if (s.outOfOrder) notes.push(`orders left "paid" (shipped overtook paid) ${fmt.n(s.outOfOrder)}`);
	if (job.id === 'tokenExpiry') notes.push(`${fmt.n(s.logins)} logins per run`);
	return notes.join(', ');
}

function renderTable(report) {
	const lines = [];
	const m = report.machine;
	lines.push(
		`Machine: ${m.nproc} CPUs (${m.cpu}), ${m.ramGb} GB RAM, ${m.os}; Node ${m.node}; n8n ${m.n8n} (n8n-nodes-base ${m.n8nNodesBase}); engine ${m.engine}.`,
	);
	const cap = report.emulator.capacity;
	const busiest = Math.max(...report.jobs.flatMap((job) => Object.values(job.summary).map((s) => s.emulatorBusy ?? 0)));
	const fastest = Math.max(...report.jobs.flatMap((job) => Object.values(job.summary).map((s) => s.requestsPerSecond ?? 0)));
	lines.push(
		`Emulator (own process): serves ${Math.round(cap.perSecond).toLocaleString('en-US')} requests/s to ${cap.connections} keep-alive connections` +
			` (${cap.requests.toLocaleString('en-US')} order events in ${(cap.ms / 1000).toFixed(2)} s, ${((cap.emulatorCpuMs / cap.requests) * 1000).toFixed(0)} ms of its CPU per 1,000 requests);` +
			` the fastest contender asked ${Math.round(fastest).toLocaleString('en-US')} requests/s, and no contender kept it busy more than ${Math.round(busiest * 100)}% of the time.` +
			(report.scale !== 1 ? ` BENCH_SCALE=${report.scale}.` : ''),
	);
	lines.push('');
	lines.push(
		'| Job | Contender | Wall time (s) | Peak RSS (MB) (at start) | Requests | Logins | Requests/s | node/raw time | node/raw one-at-a-time | node/HTTP time | node/raw RSS | node/HTTP RSS | Notes |',
	);
	lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|');
	for (const job of report.jobs) {
		CONTENDER_ORDER.forEach((id, index) => {
			const s = job.summary[id];
			const r = job.ratios;
			const isNode = id === 'node';
			lines.push(
				`| ${index === 0 ? `${job.title} (${job.reps}x)` : ''} | ${LABELS[id]} | ${fmt.s(s.wallMs)} | ${fmt.mb(s.maxRssMb)} (${fmt.mb(s.rssBeforeMb)}) | ${fmt.n(s.requests)} | ${fmt.n(s.logins)}` +
					` | ${fmt.n(s.requestsPerSecond)} | ${isNode ? fmt.x(r.timeNodeToRaw) : ''} | ${isNode ? fmt.x(r.timeNodeToRawSequential) : ''} | ${isNode ? fmt.x(r.timeNodeToHttp) : ''}` +
					` | ${isNode ? fmt.x(r.rssNodeToRaw) : ''} | ${isNode ? fmt.x(r.rssNodeToHttp) : ''} | ${isNode ? [jobNotes(job, s), describeChecks(job.targets ?? [])].filter(Boolean).join('; ') : jobNotes(job, s)} |`,
			);
		});
	}
	const f = report.floors;
	const orders = report.jobs.find((job) => job.id === 'orders');
	if (f) {
		const floor = (f.perRequestMs.n8nHelper + f.enginePerItemMs) / f.perRequestMs.undici;
		lines.push('');
		lines.push(
			`Where the time goes (one process, ${f.rounds} rounds, medians): a POST costs ${f.perRequestMs.undici.toFixed(2)} ms with undici on a keep-alive connection` +
				` and ${f.perRequestMs.n8nHelper.toFixed(2)} ms through n8n's own HTTP helper (the one every node, this one and the HTTP Request node included, is given;` +
				` a new connection and an axios request each time); n8n's engine spends ${f.enginePerItemMs.toFixed(2)} ms per item reading Push Event's parameters` +
				` before any request. So no node run by n8n sends one event in less than ${floor.toFixed(1)}x the raw client's time` +
				(orders ? `; this node takes ${fmt.x(orders.ratios.timeNodeToRaw)}.` : '.'),
		);
	}
	lines.push('');
	lines.push(
		`Medians over the repetitions ((3x) = 3 repetitions); every repetition of every contender ran in a fresh process, contenders alternated. ` +
			`Targets (PASS/FAIL in the notes of the node's row) are in bench/lib/jobs.js. Total bench time ${report.durationS} s.`,
	);
	return lines.join('\n');
}

module.exports = { renderTable };
