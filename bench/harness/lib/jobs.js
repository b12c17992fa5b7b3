'use strict';
/**
 * The jobs at full size: the five loopback jobs of issue #6 and the two with a network round trip of issue #12.
 * BENCH_SCALE (e.g. 0.05) shrinks item counts for a quick smoke run; BENCH_REPS overrides the repetitions of every
 * job; BENCH_JOBS=orders,contacts picks jobs; BENCH_LATENCY_MS sets the round trip of the *-wan jobs (default 20).
 */
const USER = { username: 'demo@shop.test', password: 'demo-password' };
const ORDER_STATUSES = ['paid', 'shipped'];
const n = (value) => value.toLocaleString('en-US');

/**
 * The batching defaults of the node's Send WhatsApp (50 items, then a 1000 ms pause), given to every contender.
 * `pauseFrom`: the node pauses the full interval after a batch is done ('end'); set 'start' if it ever starts batches
 * an interval apart instead, so the raw client keeps pacing like the node.
 */
const WHATSAPP_BATCH = { size: 50, intervalMs: 1000, pauseFrom: 'start' };

/** The node's default Request Options > Concurrency: the raw floor uses as many lanes (nodes/.../descriptions). */
const NODE_CONCURRENCY = 8;

/** The emulator's round trip for the *-wan jobs, paid by every contender inside the emulator. */
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);

/**
 * Each job's targets, printed pass/fail in the table (issue #12): time ratios, and what the service received.
 * `rssNodeToHttpMax` applies to every job.
 */
const TARGETS = {
	all: { rssNodeToHttpMax: 1 },
	orders: { timeNodeToHttpMax: 1 },
	'orders-wan': { timeNodeToRawMax: 1.15, timeNodeToHttpMax: 0.7, itemsLost: 0, duplicates: 0, outOfOrder: 0, logins: 1 },
	'contacts-wan': { timeNodeToRawSequentialMax: 0.5 },
	rateLimited: { itemsLost: 0, earlyRetries: 0, beyondMinimumShareMax: 0.05 },
};

const JOBS = [
	{
		id: 'orders',
		title: (job) => `Push ${n(job.items)} order events`,
		kind: 'orders',
		items: 10_000,
		reps: 3,
		emulator: { tokenTtlSeconds: 3600, rateLimit: null, latencyMs: 0 },
	},
	{
		id: 'contacts',
		title: (job) => `Return All over ${n(job.contacts)} contacts`,
		kind: 'contacts',
		contacts: 50_000,
		reps: 5,
		emulator: { tokenTtlSeconds: 3600, rateLimit: null, latencyMs: 0 },
	},
	{
		id: 'whatsapp',
		title: (job) => `Send ${n(job.items)} WhatsApp messages (batching defaults: 50 per 1000 ms)`,
		kind: 'whatsapp',
		items: 2_000,
		reps: 1,
		batch: WHATSAPP_BATCH,
		emulator: { tokenTtlSeconds: 3600, rateLimit: null, latencyMs: 0 },
	},
	{
		id: 'rateLimited',
		title: (job) => `${n(job.items)} order events, emulator rate-limits (100 req/s, burst 100, 429 + Retry-After)`,
		kind: 'orders',
		items: 1_000,
		reps: 3,
		rateLimit: { requestsPerSecond: 100, burst: 100 },
		emulator: { tokenTtlSeconds: 3600, rateLimit: { requestsPerSecond: 100, burst: 100 }, latencyMs: 0 },
	},
	{
		id: 'tokenExpiry',
		title: (job) => `${n(job.items)} WhatsApp messages (${Math.round(job.items / 50)} s at the batching defaults), 2 s token lifetime`,
		kind: 'whatsapp',
		items: 300,
		reps: 2,
		batch: WHATSAPP_BATCH,
		emulator: { tokenTtlSeconds: 2, rateLimit: null, latencyMs: 0 },
	},
	{
		id: 'orders-wan',
		title: (job) => `Push ${n(job.items)} order events (${n(job.items / 2)} orders, paid then shipped), ${LATENCY_MS} ms round trip`,
		kind: 'orders',
		items: 10_000,
		reps: 1,
		emulator: { tokenTtlSeconds: 3600, rateLimit: null, latencyMs: LATENCY_MS },
	},
	{
		id: 'contacts-wan',
		title: (job) => `Return All over ${n(job.contacts)} contacts, ${LATENCY_MS} ms round trip`,
		kind: 'contacts',
		contacts: 50_000,
		reps: 3,
		emulator: { tokenTtlSeconds: 3600, rateLimit: null, latencyMs: LATENCY_MS },
	},
];

function selectedJobs(env = process.env) {
	const scale = Number(env.BENCH_SCALE ?? 1);
	if (!(scale > 0)) throw new Error(`BENCH_SCALE must be a number > 0 (got ${env.BENCH_SCALE})`);
	const reps = env.BENCH_REPS === undefined ? undefined : Number(env.BENCH_REPS);
	const only = env.BENCH_JOBS ? env.BENCH_JOBS.split(',').map((s) => s.trim()) : undefined;
	return JOBS.filter((job) => !only || only.includes(job.id)).map((job) => {
		const scaled = { ...job, scale };
		if (job.items) scaled.items = Math.max(1, Math.round(job.items * scale));
		if (job.contacts) scaled.contacts = Math.max(1, Math.round(job.contacts * scale));
		if (reps !== undefined) scaled.reps = reps;
		scaled.title = job.title(scaled);
		return scaled;
	});
}

/** The input items of a job (the same for every contender). */
function inputItems(job, run) {
	const items = [];
	if (job.kind === 'orders') {
		// Each order is paid, then shipped (two events in a row, as a shop's export lists them): the service keeps the
		// status that arrived last, so a contender that lets the second overtake the first leaves orders "paid".
		for (let i = 0; i < job.items; i++) {
			items.push({ json: { orderId: `B${run}-${job.id}-${Math.floor(i / 2)}`, status: ORDER_STATUSES[i % 2] } });
		}
	} else if (job.kind === 'whatsapp') {
		for (let i = 0; i < job.items; i++) {
			items.push({ json: { phone: `+4915${String(200000000 + i)}`, message: `Bench ${run} ${job.id} message ${i}` } });
		}
	} else {
		items.push({ json: {} });
	}
	return items;
}

module.exports = { JOBS, USER, ORDER_STATUSES, NODE_CONCURRENCY, TARGETS, selectedJobs, inputItems };
