'use strict';
/**
 * The five jobs of issue #6, at full size. BENCH_SCALE (e.g. 0.05) shrinks item counts for a quick smoke run;
 * BENCH_REPS overrides the repetitions of every job; BENCH_JOBS=orders,contacts picks jobs.
 */
const USER = { username: 'demo@shop.test', password: 'demo-password' };
const ORDER_STATUSES = ['paid', 'shipped'];
const n = (value) => value.toLocaleString('en-US');

/**
 * The batching defaults of the node's Send WhatsApp (50 items, then a 1000 ms pause), given to every contender.
 * `pauseFrom`: the node pauses the full interval after a batch is done ('end'); set 'start' if it ever starts batches
 * an interval apart instead, so the raw client keeps pacing like the node.
 */
const WHATSAPP_BATCH = { size: 50, intervalMs: 1000, pauseFrom: 'end' };

const JOBS = [
	{
		id: 'orders',
		title: (job) => `Push ${n(job.items)} order events`,
		kind: 'orders',
		items: 10_000,
		reps: 3,
		emulator: { tokenTtlSeconds: 3600, rateLimit: null },
	},
	{
		id: 'contacts',
		title: (job) => `Return All over ${n(job.contacts)} contacts`,
		kind: 'contacts',
		contacts: 50_000,
		reps: 5,
		emulator: { tokenTtlSeconds: 3600, rateLimit: null },
	},
	{
		id: 'whatsapp',
		title: (job) => `Send ${n(job.items)} WhatsApp messages (batching defaults: 50 per 1000 ms)`,
		kind: 'whatsapp',
		items: 2_000,
		reps: 1,
		batch: WHATSAPP_BATCH,
		emulator: { tokenTtlSeconds: 3600, rateLimit: null },
	},
	{
		id: 'rateLimited',
		title: (job) => `${n(job.items)} order events, emulator rate-limits (100 req/s, burst 100, 429 + Retry-After)`,
		kind: 'orders',
		items: 1_000,
		reps: 3,
		rateLimit: { requestsPerSecond: 100, burst: 100 },
		emulator: { tokenTtlSeconds: 3600, rateLimit: { requestsPerSecond: 100, burst: 100 } },
	},
	{
		id: 'tokenExpiry',
		title: (job) => `${n(job.items)} WhatsApp messages (${Math.round(job.items / 50)} s at the batching defaults), 2 s token lifetime`,
		kind: 'whatsapp',
		items: 300,
		reps: 2,
		batch: WHATSAPP_BATCH,
		emulator: { tokenTtlSeconds: 2, rateLimit: null },
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

module.exports = { JOBS, USER, ORDER_STATUSES, selectedJobs, inputItems };
