'use strict';
/**
 * One measured run of one contender, and the summary of a contender's runs. Before each run the emulator forgets
 * the previous run's records and the wire's counters are cleared. A job with `freshToken` (the order-event jobs)
 * also has the emulator rotate its signing key, so every contender starts with a token the service refuses: the
 * first run after a token was lost, where the "1 login" target means one login for all lanes. The others keep a
 * valid token, as most executions do (and n8n's HTTP Request node, paginating, answers a refused token with no items
 * and no error in n8n 2.40.7, which would leave Return All nothing to compare). Afterwards the emulator's own records
 * say what the service received.
 */
const { fork } = require('node:child_process');
const path = require('node:path');

const { USER, orderEvents } = require('./jobs');
const { n8nContender, workflowId } = require('./workflows');
const { median, spread, max } = require('./stats');

const RAW_TIMEOUT_MS = 15 * 60_000;

/** The raw client in a fresh process (rawWorker.js). */
function runRawClient(task) {
	return new Promise((resolve, reject) => {
		const child = fork(path.join(__dirname, 'rawWorker.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		let reply;
		const timer = setTimeout(() => child.kill('SIGKILL'), RAW_TIMEOUT_MS);
		child.once('message', (message) => (reply = message));
		child.once('exit', (code) => {
			clearTimeout(timer);
			if (!reply) return reject(new Error(`the raw client exited (${code}) without a result`));
			if (!reply.ok) return reject(new Error(reply.error));
			resolve(reply.result);
		});
		child.send(task);
	});
}

/** The smallest number of requests that does the job: one login, then one per event (or page of 1000). */
function minimumRequests(job) {
	return job.kind === 'contacts' ? 1 + Math.max(1, Math.ceil(job.contacts / 1000)) : 1 + job.events;
}

/**
 * @param {object} job {kind, events?, contacts?, wire?}
 * @param {{id: string, workflow?: string, raw?: {concurrency: number}}} contender
 * @param {string} tag unique per run: the order ids of its events
 * @param {object} ctx {emulator, wire, n8n (the target: run(workflowId, body)), urls, credentials, cert}
 * @param {object} [target] the n8n to run in (default ctx.n8n); `runOptions` are passed to its run()
 */
async function runOnce(job, contender, tag, ctx, target = ctx.n8n, runOptions = {}) {
	const onWire = Boolean(job.wire);
	await ctx.emulator.call('clearCounters');
	if (job.freshToken) await ctx.emulator.call('rotateSigningKey');
	if (onWire) await ctx.wire.call('clearCounters');
	const events = job.kind === 'contacts' ? undefined : orderEvents(job.events, tag);
	let result;
	try {
		if (contender.raw) {
			result = await runRawClient({
				job: { kind: job.kind === 'contacts' ? 'contacts' : 'orders' },
				url: onWire ? ctx.urls.wire : ctx.urls.loopback,
				ca: onWire ? ctx.cert.cert : undefined,
				user: USER,
				events,
				concurrency: contender.raw.concurrency,
			});
			result = { wallMs: result.wallMs, clientCpuMs: result.cpuMs, error: result.error };
		} else {
			const credential = onWire ? ctx.credentials.wire : ctx.credentials.loopback;
			const run = await target.run(workflowId(contender.workflow, credential), events ? { items: events } : {}, runOptions);
			result = {
				wallMs: run.wallMs,
				peakRssMb: run.peakRssMb,
				rssBeforeMb: run.rssBeforeMb,
				n8nCpuMs: run.cpuMs,
				maxLoopDelayMs: run.maxLoopDelayMs,
				...(run.status === 200 ? {} : { error: `HTTP ${run.status}: ${run.failure ?? JSON.stringify(run.response).slice(0, 300)}` }),
			};
		}
	} catch (error) {
		result = { error: String(error.message ?? error) };
	}
	// The last responses are logged by the emulator after they were sent.
	await new Promise((resolve) => setTimeout(resolve, 50));
	const counters = await ctx.emulator.call('counters');
	const wire = onWire ? await ctx.wire.call('counters') : undefined;
	// Edit Fields and No Operation send nothing: nothing of theirs can be lost.
	const sends = Boolean(contender.raw) || !n8nContender(contender.workflow).noCredential;
	const received = job.kind === 'contacts' || !sends ? null : counters.distinctOrderEvents;
	return {
		contender: contender.id,
		tag,
		...result,
		requests: counters.requests,
		byStatus: counters.byStatus,
		logins: counters.logins,
		beyondMinimum: counters.requests - minimumRequests(job),
		itemsLost: received === null ? null : job.events - received,
		duplicates: received === null ? null : counters.orderEvents - counters.distinctOrderEvents,
		outOfOrder: received === null ? null : counters.outOfOrder,
		connections: wire?.connections ?? null,
		tlsHandshakes: wire?.tlsHandshakes ?? null,
		wireErrors: wire && Object.keys(wire.errors).length ? wire.errors : undefined,
		emulatorCpuMs: counters.cpuMs,
		eventsPerSecond: result.wallMs && events ? (events.length / result.wallMs) * 1000 : null,
	};
}

/** Medians of a contender's runs; counts that must be zero are the worst run's. */
function summarize(runs, contender) {
	const mine = runs.filter((r) => r.contender === contender.id);
	const ok = mine.filter((r) => !r.error);
	const pick = (key) => mine.map((r) => r[key]);
	return {
		label: contender.label ?? n8nContender(contender.workflow).label,
		runs: mine.length,
		failedRuns: mine.length - ok.length,
		errors: [...new Set(mine.filter((r) => r.error).map((r) => r.error.split('\n')[0]))],
		wallMs: median(ok.map((r) => r.wallMs)),
		wallSpread: spread(ok.map((r) => r.wallMs)),
		eventsPerSecond: median(ok.map((r) => r.eventsPerSecond)),
		peakRssMb: median(pick('peakRssMb')),
		rssBeforeMb: median(pick('rssBeforeMb')),
		n8nCpuMs: median(pick('n8nCpuMs')),
		maxLoopDelayMs: median(pick('maxLoopDelayMs')),
		requests: median(pick('requests')),
		logins: max(pick('logins')),
		beyondMinimum: median(pick('beyondMinimum')),
		itemsLost: max(pick('itemsLost')),
		duplicates: max(pick('duplicates')),
		outOfOrder: max(pick('outOfOrder')),
		connections: median(pick('connections')),
		tlsHandshakes: median(pick('tlsHandshakes')),
		emulatorCpuMs: median(pick('emulatorCpuMs')),
	};
}

/** Repetition r starts with contender r (mod n): drift on the machine hits every contender alike. */
function rotated(list, rep) {
	return list.map((_, i) => list[(i + rep) % list.length]);
}

module.exports = { runOnce, summarize, rotated, minimumRequests };
