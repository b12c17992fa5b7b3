'use strict';
/**
 * How each kind of job runs: `matrix` (every contender, alternated, medians, targets), `sweep` (the node's
 * Concurrency against the raw client on the wire) and `dedup` (issue #21: deduplication on vs off per execution size,
 * in the single-process n8n and in queue mode).
 */
const { RAW, SWEEP_RAW, USER } = require('./jobs');
const { runOnce, summarize, rotated, minimumRequests } = require('./measure');
const { ratio } = require('./stats');

const LOOPBACK = { tokenTtlSeconds: 3600, rateLimit: null, latencyMs: 0, latencyJitterMs: 0 };

async function prepareEmulator(ctx, job) {
	await ctx.emulator.call('reset', 'empty');
	await ctx.emulator.call('setConfig', LOOPBACK);
	if (job.contacts) await ctx.emulator.call('seedContacts', { username: USER.username, count: job.contacts });
	if (job.wire) await ctx.wire.call('setRtt', job.wire.rttMs);
}

function logRun(ctx, label, run) {
	const parts = [
		run.wallMs ? `${(run.wallMs / 1000).toFixed(2)} s` : 'failed',
		run.peakRssMb ? `peak ${run.peakRssMb.toFixed(0)} MB` : undefined,
		`${run.requests} requests`,
		`${run.logins} logins`,
		run.connections !== null ? `${run.connections} connections` : undefined,
		run.itemsLost ? `${run.itemsLost} lost` : undefined,
		run.outOfOrder ? `${run.outOfOrder} out of order` : undefined,
		run.duplicates ? `${run.duplicates} duplicated` : undefined,
		run.wireErrors ? `wire saw ${JSON.stringify(run.wireErrors)}` : undefined,
		run.error ? `error: ${run.error.split('\n')[0].slice(0, 200)}` : undefined,
	];
	ctx.log(`  ${label.padEnd(28)} ${parts.filter(Boolean).join(', ')}`);
}

/** PASS/FAIL of one job's targets; value null (a contender failed) is neither. */
function judge(job, summary) {
	return (job.targets ?? []).map((target) => {
		let name;
		let value;
		if (target.ratio) {
			const [a, b] = target.ratio;
			name = `time ${a} / ${b}`;
			value = ratio(summary[a]?.wallMs, summary[b]?.wallMs);
		} else if (target.rss) {
			const [a, b] = target.rss;
			name = `peak RSS ${a} / ${b}`;
			value = ratio(summary[a]?.peakRssMb, summary[b]?.peakRssMb);
		} else {
			name = `${target.count} (${target.of})`;
			value = summary[target.of]?.[target.count] ?? null;
		}
		return { name, value, max: target.max, kind: target.ratio || target.rss ? 'ratio' : 'count', pass: value === null ? null : value <= target.max };
	});
}

async function matrix(job, ctx) {
	await prepareEmulator(ctx, job);
	const runs = [];
	for (let rep = 0; rep < job.reps; rep++) {
		for (const contender of rotated(job.contenders, rep)) {
			const run = await runOnce(job, contender, `${ctx.runId}-${job.id}-${rep}-${contender.id}`, ctx);
			runs.push({ rep, ...run });
			logRun(ctx, `rep ${rep + 1}/${job.reps} ${contender.id}`, run);
		}
	}
	const summary = Object.fromEntries(job.contenders.map((c) => [c.id, summarize(runs, c)]));
	return { id: job.id, title: job.title, kind: job.kind, size: job.events ?? job.contacts, reps: job.reps, wire: job.wire, minimumRequests: minimumRequests(job), summary, targets: judge(job, summary), runs };
}

/**
 * At each round trip: the raw client with SWEEP_RAW_CONCURRENCY requests in flight, and the node at each Concurrency.
 * Reports the smallest Concurrency whose throughput reaches 90 % of the raw client's.
 */
async function sweep(job, ctx) {
	const contenders = [SWEEP_RAW, ...job.concurrency.map((c) => ({ id: `nodeC${c}`, workflow: `nodeC${c}`, concurrency: c }))];
	const byRtt = [];
	for (const rttMs of job.rtts) {
		const step = { ...job, kind: 'orders', wire: { rttMs } };
		await prepareEmulator(ctx, step);
		ctx.log(` round trip ${rttMs} ms`);
		const runs = [];
		for (let rep = 0; rep < job.reps; rep++) {
			for (const contender of rotated(contenders, rep)) {
				const run = await runOnce(step, contender, `${ctx.runId}-sweep${rttMs}-${rep}-${contender.id}`, ctx);
				runs.push({ rep, ...run });
				logRun(ctx, `${contender.id}`, run);
			}
		}
		const summary = Object.fromEntries(contenders.map((c) => [c.id, summarize(runs, c)]));
		const rawRate = summary[SWEEP_RAW.id].eventsPerSecond;
		const rows = job.concurrency.map((c) => {
			const s = summary[`nodeC${c}`];
			return { concurrency: c, wallMs: s.wallMs, eventsPerSecond: s.eventsPerSecond, shareOfRaw: ratio(s.eventsPerSecond, rawRate), connections: s.connections, failedRuns: s.failedRuns, n8nCpuMs: s.n8nCpuMs };
		});
		const enough = rows.find((row) => row.shareOfRaw !== null && row.shareOfRaw >= 0.9);
		byRtt.push({ rttMs, raw: { concurrency: SWEEP_RAW.raw.concurrency, ...summary[SWEEP_RAW.id] }, rows, concurrencyFor90: enough ? enough.concurrency : null, runs });
	}
	return { id: job.id, title: job.title, kind: 'sweep', size: job.events, reps: job.reps, byRtt };
}

/**
 * Issue #21: per execution size, the node with deduplication off and on (its default), alternated, on loopback; in
 * `targets` (one per mode: the single n8n, then a queue deployment started by startQueue).
 */
async function dedup(job, ctx, mode, target) {
	await prepareEmulator(ctx, job);
	// One discarded run each, so the measured ones start with a valid token (earlier jobs rotated the emulator's key).
	for (const contender of job.contenders) await runOnce({ kind: 'orders', events: 1, wire: null }, contender, `${ctx.runId}-dedup-${mode}-ready-${contender.id}`, ctx, target);
	const rows = [];
	for (const size of job.sizes) {
		const step = { kind: 'orders', events: size.events, wire: null };
		const runs = [];
		for (let rep = 0; rep < size.reps; rep++) {
			for (const contender of rotated(job.contenders, rep)) {
				const run = await runOnce(step, contender, `${ctx.runId}-dedup-${mode}-${size.events}-${rep}-${contender.id}`, ctx, target);
				runs.push({ rep, ...run });
				if (size.events >= 100 || rep === 0) logRun(ctx, `${mode} ${size.events} ev, rep ${rep + 1}/${size.reps} ${contender.id}`, run);
			}
		}
		const [off, on, across] = job.contenders.map((contender) => summarize(runs, contender));
		rows.push({
			mode,
			events: size.events,
			reps: size.reps,
			offMs: off.wallMs,
			onMs: on.wallMs,
			onToOff: ratio(on.wallMs, off.wallMs),
			acrossMs: across?.wallMs ?? null,
			acrossToOff: across ? ratio(across.wallMs, off.wallMs) : null,
			off,
			on,
			across,
			runs,
		});
	}
	return rows;
}

module.exports = { matrix, sweep, dedup, judge };
