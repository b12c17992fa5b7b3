'use strict';
/**
 * The jobs of `npm run bench` (real n8n), their contenders and their targets (issues #20 and #21). Sizes and
 * repetitions are the full run's; BENCH_QUICK=1 shrinks them for development, BENCH_JOBS picks jobs,
 * BENCH_REPS overrides every job's repetitions, BENCH_DEDUP_MODES=single|queue picks the dedup job's n8n,
 * BENCH_DEDUP_SIZES=10000:2,1:9 its execution sizes (events:repetitions).
 */
const USER = { username: 'demo@shop.test', password: 'demo-password' };
const n = (value) => value.toLocaleString('en-US');

/** The node's default Request Options > Concurrency (transport/settings.ts): the raw client's lanes. */
const NODE_CONCURRENCY = 32;
/**
 * The sweep's yardstick: a plain client with 8 requests in flight on kept-alive connections (what the node needs to
 * match it is the sweep's question, so it does not move with the node's default).
 */
const SWEEP_RAW_CONCURRENCY = 8;
/** Round trips of the wire jobs (bench/lib/wire.js), in ms. */
const WIRE_RTT_MS = Number(process.env.BENCH_RTT_MS ?? 20);
const SWEEP_RTTS_MS = [20, 80];
const SWEEP_CONCURRENCY = [8, 16, 32, 64];

/**
 * Contenders: `workflow` runs in n8n (bench/lib/workflows.js N8N_CONTENDERS, or a sweep variant), `raw` is the raw
 * undici client (bench/lib/raw.js) with that many requests in flight. Ratio targets compare medians of one run:
 * `a`/`b` <= max. Count targets judge what the emulator received in the node's runs (worst run).
 */
const raw = (concurrency, label) => ({ id: concurrency === 1 ? 'rawSequential' : `raw${concurrency === NODE_CONCURRENCY ? '' : concurrency}`, raw: { concurrency }, label });
const RAW = raw(NODE_CONCURRENCY, `raw undici client, ${NODE_CONCURRENCY} in flight`);
const SWEEP_RAW = raw(SWEEP_RAW_CONCURRENCY, `raw undici client, ${SWEEP_RAW_CONCURRENCY} in flight`);
const RAW_SEQUENTIAL = raw(1, 'raw client, one page at a time');
const inN8n = (id, workflow = id) => ({ id, workflow });

const JOBS = [
	{
		id: 'orders',
		title: (job) => `Push ${n(job.events)} order events, loopback`,
		kind: 'orders',
		events: 3000,
		freshToken: true,
		reps: 3,
		wire: null,
		contenders: [inN8n('node'), inN8n('nodeDedupOff'), inN8n('http'), inN8n('editFields'), inN8n('noOp'), RAW],
		targets: [
			{ ratio: ['node', 'http'], max: 0.5 },
			{ ratio: ['node', 'editFields'], max: 2.8 },
			{ ratio: ['node', 'nodeDedupOff'], max: 1.1 },
			{ rss: ['node', 'http'], max: 1 },
		],
	},
	{
		id: 'orders-wire',
		title: (job) => `Push ${n(job.events)} order events, ${WIRE_RTT_MS} ms round trip on the wire (TLS)`,
		kind: 'orders',
		events: 2000,
		freshToken: true,
		reps: 3,
		wire: { rttMs: WIRE_RTT_MS },
		contenders: [inN8n('node'), RAW, inN8n('http')],
		targets: [
			{ ratio: ['node', 'raw'], max: 1.3 },
			{ count: 'itemsLost', of: 'node', max: 0 },
			{ count: 'duplicates', of: 'node', max: 0 },
			{ count: 'outOfOrder', of: 'node', max: 0 },
			{ count: 'logins', of: 'node', max: 1 },
			{ rss: ['node', 'http'], max: 1 },
		],
	},
	{
		id: 'contacts-wire',
		title: (job) => `Return All over ${n(job.contacts)} contacts, ${WIRE_RTT_MS} ms round trip on the wire (TLS)`,
		kind: 'contacts',
		contacts: 50_000,
		reps: 3,
		wire: { rttMs: WIRE_RTT_MS },
		contenders: [inN8n('node', 'nodeContacts'), RAW_SEQUENTIAL, inN8n('http', 'httpContacts'), RAW],
		targets: [
			{ ratio: ['node', 'rawSequential'], max: 0.5 },
			{ rss: ['node', 'http'], max: 1 },
		],
	},
	{
		id: 'concurrency',
		title: (job) => `Concurrency sweep: ${n(job.events)} order events at ${SWEEP_RTTS_MS.join(' and ')} ms on the wire`,
		kind: 'sweep',
		events: 1000,
		freshToken: true,
		reps: 1,
		rtts: SWEEP_RTTS_MS,
		concurrency: SWEEP_CONCURRENCY,
	},
	{
		id: 'dedup',
		title: () => 'Deduplication on vs off per execution size, single process (SQLite) and queue mode',
		kind: 'dedup',
		sizes: [
			{ events: 1, reps: 9 },
			{ events: 100, reps: 5 },
			// Two repetitions (median = mean): each run takes 30-40 s on a quiet machine, several times that on a busy one.
			{ events: 10_000, reps: 2 },
		],
		modes: ['single', 'queue'],
		// Off, on (the default), and on with the claims across workers a queue deployment opts in to.
		contenders: [inN8n('nodeDedupOff'), inN8n('node'), inN8n('nodeAcrossWorkers')],
	},
];

/** What BENCH_QUICK=1 runs instead: the same jobs, small, once. */
const QUICK = {
	orders: { events: 300, reps: 1 },
	'orders-wire': { events: 200, reps: 1 },
	'contacts-wire': { contacts: 5000, reps: 1 },
	concurrency: { events: 200, rtts: [20], concurrency: [8, 32] },
	dedup: { sizes: [{ events: 1, reps: 3 }, { events: 100, reps: 1 }], modes: ['single'] },
};

function selectedJobs(env = process.env) {
	const quick = env.BENCH_QUICK === '1';
	const only = env.BENCH_JOBS ? env.BENCH_JOBS.split(',').map((s) => s.trim()) : undefined;
	const unknown = (only ?? []).filter((id) => !JOBS.some((job) => job.id === id));
	if (unknown.length) throw new Error(`BENCH_JOBS: unknown job ${unknown.join(', ')} (jobs: ${JOBS.map((j) => j.id).join(', ')})`);
	const reps = env.BENCH_REPS === undefined ? undefined : Number(env.BENCH_REPS);
	return JOBS.filter((job) => !only || only.includes(job.id)).map((job) => {
		const sized = { ...job, ...(quick ? QUICK[job.id] : {}) };
		if (sized.modes && env.BENCH_DEDUP_MODES) sized.modes = env.BENCH_DEDUP_MODES.split(',').map((s) => s.trim());
		if (sized.sizes && env.BENCH_DEDUP_SIZES) {
			sized.sizes = env.BENCH_DEDUP_SIZES.split(',').map((entry) => {
				const [events, count] = entry.split(':').map(Number);
				return { events, reps: count || 1 };
			});
		}
		if (reps !== undefined) {
			sized.reps = reps;
			if (sized.sizes) sized.sizes = sized.sizes.map((size) => ({ ...size, reps }));
		}
		sized.title = job.title(sized);
		return sized;
	});
}

/** Order events: each order paid, then shipped (a `shipped` that overtakes its `paid` leaves the order "paid"). */
function orderEvents(count, tag) {
	return Array.from({ length: count }, (_, i) => ({ id: `${tag}-${Math.floor(i / 2)}`, status: i % 2 ? 'shipped' : 'paid' }));
}

module.exports = { JOBS, USER, NODE_CONCURRENCY, WIRE_RTT_MS, RAW, SWEEP_RAW, selectedJobs, orderEvents };
