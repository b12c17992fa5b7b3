'use strict';
/** The Markdown report `npm run bench` prints and keeps in results/latest.json (`table`). */

const fmt = {
	s: (ms) => (ms === null || ms === undefined ? '-' : (ms / 1000).toFixed(2)),
	ms: (ms) => (ms === null || ms === undefined ? '-' : Math.round(ms).toLocaleString('en-US')),
	mb: (mb) => (mb === null || mb === undefined ? '-' : mb.toFixed(0)),
	n: (n) => (n === null || n === undefined ? '-' : Math.round(n).toLocaleString('en-US')),
	x: (r) => (r === null || r === undefined ? '-' : `${r.toFixed(2)}x`),
	pct: (r) => (r === null || r === undefined ? '-' : `${Math.round(r * 100)} %`),
};

function matrixTable(job) {
	const lines = [
		`**${job.title}** (medians of ${job.reps}; n8n CPU = the n8n process's CPU time during the run; loop stall = the longest its event loop was blocked)`,
		'',
		'| Contender | Time (s) | Spread | Events/s | Peak RSS MB (before) | n8n CPU (s) | Loop stall (ms) | Requests | Logins | Connections | Lost / dup. / out of order |',
		'|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
	];
	for (const s of Object.values(job.summary)) {
		const failed = s.failedRuns ? ` **${s.failedRuns}/${s.runs} failed: ${s.errors.join('; ').slice(0, 120)}**` : '';
		const integrity = s.itemsLost === null ? '-' : `${s.itemsLost} / ${s.duplicates} / ${s.outOfOrder}`;
		lines.push(
			`| ${s.label}${failed} | ${fmt.s(s.wallMs)} | ${fmt.pct(s.wallSpread)} | ${fmt.n(s.eventsPerSecond)} | ${s.peakRssMb ? `${fmt.mb(s.peakRssMb)} (${fmt.mb(s.rssBeforeMb)})` : '-'}` +
				` | ${fmt.s(s.n8nCpuMs)} | ${fmt.n(s.maxLoopDelayMs)} | ${fmt.n(s.requests)} | ${fmt.n(s.logins)} | ${fmt.n(s.connections)} | ${integrity} |`,
		);
	}
	return lines.join('\n');
}

function targetsTable(jobs) {
	const lines = ['| Job | Target | Value | Limit | Result |', '|---|---|--:|--:|---|'];
	for (const job of jobs) {
		for (const t of job.targets ?? []) {
			const value = t.value === null ? '-' : t.kind === 'ratio' ? fmt.x(t.value) : String(t.value);
			const limit = t.kind === 'ratio' ? `<= ${t.max}x` : `<= ${t.max}`;
			lines.push(`| ${job.id} | ${t.name} | ${value} | ${limit} | ${t.pass === null ? 'n/a' : t.pass ? 'PASS' : '**FAIL**'} |`);
		}
	}
	return lines.join('\n');
}

function sweepTable(job) {
	const lines = [
		`**${job.title}** (${job.reps} run(s) each; the node with Deduplicate off; share = its events/s over the raw client's with ${job.byRtt[0]?.raw.concurrency} in flight on kept-alive connections)`,
		'',
		'| Round trip | Contender | Time (s) | Events/s | Share of raw | Connections | n8n CPU per event (ms) |',
		'|--:|---|--:|--:|--:|--:|--:|',
	];
	for (const step of job.byRtt) {
		lines.push(`| ${step.rttMs} ms | raw client, ${step.raw.concurrency} in flight | ${fmt.s(step.raw.wallMs)} | ${fmt.n(step.raw.eventsPerSecond)} | 100 % | ${fmt.n(step.raw.connections)} | - |`);
		for (const r of step.rows) {
			const failed = r.failedRuns ? ' (failed)' : '';
			lines.push(
				`| | node, Concurrency ${r.concurrency}${failed} | ${fmt.s(r.wallMs)} | ${fmt.n(r.eventsPerSecond)} | ${fmt.pct(r.shareOfRaw)} | ${fmt.n(r.connections)} | ${r.n8nCpuMs === null ? '-' : (r.n8nCpuMs / job.size).toFixed(2)} |`,
			);
		}
	}
	lines.push(
		'',
		`Concurrency the node needs for 90 % of the raw client's throughput: ${job.byRtt
			.map((step) => `${step.rttMs} ms: ${step.concurrencyFor90 ?? `not reached up to ${step.rows[step.rows.length - 1]?.concurrency}`}`)
			.join('; ')}.`,
	);
	return lines.join('\n');
}

/**
 * Issue #21's limits for deduplication on (the default) against off, in one process: 1.5x for a one-event execution,
 * 1.1x for 100 and more events. Queue mode states its cost without a limit.
 */
function dedupVerdict(row) {
	if (row.mode !== 'single' || row.onToOff === null) return '-';
	const max = row.events === 1 ? 1.5 : 1.1;
	return `<= ${max}x ${row.onToOff <= max ? 'PASS' : '**FAIL**'}`;
}

function dedupTable(job) {
	const lines = [
		`**${job.title}**: wall time per execution (Webhook -> Split Out -> Push Event, new events), medians; loop stall = the longest n8n's event loop was blocked (single process only: in queue mode the execution runs in a worker)`,
		'',
		'| n8n | Events per execution | Repetitions | Dedup off | Dedup on (default) | On / off | Target (single process) | Across Workers on | Across / off | Loop stall off / on (ms) |',
		'|---|--:|--:|--:|--:|--:|---|--:|--:|--:|',
	];
	for (const row of job.rows) {
		const unit = row.offMs !== null && row.offMs < 10_000 ? (ms) => `${fmt.ms(ms)} ms` : (ms) => `${fmt.s(ms)} s`;
		const failedRuns = [row.off, row.on, row.across].reduce((sum, s) => sum + (s?.failedRuns ?? 0), 0);
		const failed = failedRuns ? ` (failed runs: ${failedRuns})` : '';
		const across = row.acrossMs === null || row.acrossMs === undefined ? '- | -' : `${unit(row.acrossMs)} | ${fmt.x(row.acrossToOff)}`;
		lines.push(`| ${row.mode === 'single' ? 'single process (SQLite)' : 'queue mode (Postgres, 2 workers)'} | ${fmt.n(row.events)} | ${row.reps} | ${unit(row.offMs)} | ${unit(row.onMs)} | ${fmt.x(row.onToOff)}${failed} | ${dedupVerdict(row)} | ${across} | ${row.off.maxLoopDelayMs === null ? '-' : `${fmt.n(row.off.maxLoopDelayMs)} / ${fmt.n(row.on.maxLoopDelayMs)}`} |`);
	}
	return lines.join('\n');
}

function renderReport(report) {
	const m = report.machine;
	const out = [
		`Real n8n ${m.n8n}, webhook-started workflows, Node ${m.node}; ${m.nproc} CPUs (${m.cpu}), ${m.ramGb} GB RAM; load average ${m.loadAverageAtStart.join(' ')} at the start, ${m.loadAverageAtEnd.join(' ')} at the end (a shared machine: the spread column says how far repetitions were apart). Total ${Math.round(report.durationS / 60)} min.${report.quick ? ' BENCH_QUICK: small sizes, not comparable.' : ''}`,
	];
	const matrices = report.jobs.filter((job) => job.summary);
	for (const job of matrices) out.push('', matrixTable(job));
	if (matrices.some((job) => job.targets?.length)) out.push('', '**Targets** (ratios of medians from this run)', '', targetsTable(matrices));
	for (const job of report.jobs.filter((j) => j.kind === 'sweep')) out.push('', sweepTable(job));
	for (const job of report.jobs.filter((j) => j.kind === 'dedup')) out.push('', dedupTable(job));
	return out.join('\n');
}

module.exports = { renderReport };
