'use strict';
/**
 * `npm run bench:harness`: the engine-harness bench of issues #6 and #12, kept as a fast profiling aid (its n8n-core
 * evaluates expressions the legacy way and its HTTP helper is not n8n's full outbound stack, so its ratios are not the
 * ones users see: `npm run bench` measures in real n8n). The contenders do the same jobs against the emulator,
 * alternated, several repetitions each, every repetition in a fresh process; medians are reported with the ratios
 * node/raw and node/HTTP-Request-node. Prints one table and writes bench/results/harness.json.
 * See bench/README.md ("The engine-harness bench").
 */
const { fork } = require('node:child_process');

const { startHelper } = require('../lib/ipc');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { build, ROOT } = require('./lib/build');
const { selectedJobs, TARGETS, USER } = require('./lib/jobs');
const { judge } = require('./lib/targets');
const { renderTable } = require('./lib/report');

const CONTENDERS = [
	{ id: 'raw', label: 'raw undici client' },
	{ id: 'rawSequential', label: 'raw client, one at a time' },
	{ id: 'node', label: 'this node' },
	{ id: 'http', label: 'HTTP Request node' },
];
const RESULTS_DIR = path.join(__dirname, '..', 'results');
const WORKER_TIMEOUT_MS = 10 * 60_000;

const log = (...args) => process.stderr.write(`[bench] ${args.join(' ')}\n`);

/** The emulator in a process of its own, driven over IPC (bench/lib/ipc.js). */
function startEmulator() {
	return startHelper(path.join(__dirname, '..', 'lib', 'emulator.js'));
}

/** Runs one script in a fresh process (--expose-gc) and returns its single reply. */
function inChild(script, task, timeoutMs = WORKER_TIMEOUT_MS) {
	return new Promise((resolve, reject) => {
		const child = fork(path.join(__dirname, 'lib', script), [], {
			execArgv: ['--expose-gc'],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
			env: { ...process.env, NODE_ENV: 'production', N8N_LOG_LEVEL: 'silent' },
		});
		let reply;
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${script} timed out after ${timeoutMs} ms`));
		}, timeoutMs);
		child.once('message', (message) => (reply = message));
		child.once('exit', (code) => {
			clearTimeout(timer);
			if (!reply) return reject(new Error(`${script} exited (${code}) without a result`));
			if (!reply.ok) return reject(new Error(`${script}: ${reply.error}`));
			resolve(reply.result);
		});
		child.send(task);
	});
}

function median(values) {
	const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
	if (!sorted.length) return null;
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function runtimeDir() {
	if (process.env.BENCH_N8N_DIR) return process.env.BENCH_N8N_DIR;
	const { ensureRuntime } = require(path.join(ROOT, 'tools', 'n8n'));
	const runtime = await ensureRuntime(2, { echo: true });
	return runtime.dir;
}

function machine(runtime) {
	const cpus = os.cpus();
	const version = (pkg) => {
		try {
			return JSON.parse(fs.readFileSync(path.join(runtime, 'node_modules', pkg, 'package.json'), 'utf8')).version;
		} catch {
			return undefined;
		}
	};
	const repoVersion = (pkg) => JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
	return {
		cpu: cpus[0]?.model?.trim(),
		nproc: os.availableParallelism ? os.availableParallelism() : cpus.length,
		ramGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		os: `${os.type()} ${os.release()} ${os.arch()}`,
		node: process.version,
		n8n: version('n8n'),
		n8nNodesBase: version('n8n-nodes-base'),
		engine: `n8n-core ${repoVersion('n8n-core')} (WorkflowExecute), n8n-workflow ${repoVersion('n8n-workflow')}`,
		undici: repoVersion('undici'),
	};
}

/** The smallest number of requests that does the job: one login, then one per item (or page of 1000). */
function minimumRequests(job) {
	if (job.kind === 'contacts') return 1 + Math.max(1, Math.ceil(job.contacts / 1000));
	return 1 + job.items;
}

function expectedOutputs(job) {
	return job.kind === 'contacts' ? job.contacts : job.items;
}

async function runJob(job, emulator, context) {
	log(`job ${job.id}: ${job.title} (${job.reps} repetition${job.reps > 1 ? 's' : ''})`);
	await emulator.call('reset', 'empty');
	await emulator.call('setConfig', job.emulator);
	if (job.contacts) await emulator.call('seedContacts', { username: USER.username, count: job.contacts });
	const runs = [];
	for (let rep = 0; rep < job.reps; rep++) {
		// Alternate: each repetition starts with the next contender, so drift on the machine hits all of them.
		const order = CONTENDERS.map((_, i) => CONTENDERS[(i + rep) % CONTENDERS.length]);
		for (const contender of order) {
			await emulator.call('clearCounters');
			const task = {
				contender: contender.id,
				job,
				url: context.url,
				user: USER,
				run: `${rep}${contender.id}`,
				buildDir: context.buildDir,
				runtimeDir: context.runtimeDir,
			};
			let result;
			try {
				result = await inChild('worker.js', task);
			} catch (error) {
				result = { error: String(error.message ?? error) };
			}
			// Let the last responses be logged before reading the counters.
			await new Promise((resolve) => setTimeout(resolve, 50));
			const counters = await emulator.call('counters');
			const received = job.kind === 'orders' ? counters.distinctOrderEvents : job.kind === 'whatsapp' ? counters.distinctMessages : null;
			const entry = {
				rep,
				contender: contender.id,
				...result,
				requests: counters.requests,
				byStatus: counters.byStatus,
				logins: counters.logins,
				earlyRetries: counters.earlyRetries,
				rateLimited: counters.rateLimited,
				beyondMinimum: counters.requests - minimumRequests(job),
				itemsLost: received === null ? null : job.items - received,
				outOfOrder: job.kind === 'orders' ? counters.outOfOrder : null,
				duplicates: job.kind === 'orders' ? counters.orderEvents - counters.distinctOrderEvents : job.kind === 'whatsapp' ? counters.messages - counters.distinctMessages : null,
				emulatorCpuMs: counters.cpuMs,
				emulatorBusy: result.wallMs ? counters.cpuMs / result.wallMs : null,
				requestsPerSecond: result.wallMs ? (counters.requests / result.wallMs) * 1000 : null,
			};
			runs.push(entry);
			log(
				`  rep ${rep + 1}/${job.reps} ${contender.id.padEnd(4)} ${result.wallMs ? `${(result.wallMs / 1000).toFixed(2)} s` : 'failed'}` +
					` rss ${result.maxRssMb ? result.maxRssMb.toFixed(0) : '-'} MB, ${counters.requests} requests, ${counters.logins} logins` +
					(counters.rateLimited ? `, ${counters.rateLimited} x 429, ${counters.earlyRetries} early` : '') +
					(entry.itemsLost ? `, ${entry.itemsLost} lost` : '') +
					(result.error ? `, error: ${result.error.split('\n')[0]}` : ''),
			);
		}
	}
	const summary = {};
	for (const contender of CONTENDERS) {
		const mine = runs.filter((r) => r.contender === contender.id);
		const ok = mine.filter((r) => !r.error);
		summary[contender.id] = {
			label: contender.label,
			runs: mine.length,
			failedRuns: mine.length - ok.length,
			errors: [...new Set(mine.filter((r) => r.error).map((r) => r.error.split('\n')[0]))],
			wallMs: median(mine.map((r) => r.wallMs)),
			maxRssMb: median(mine.map((r) => r.maxRssMb)),
			rssBeforeMb: median(mine.map((r) => r.rssBeforeMb)),
			requests: median(mine.map((r) => r.requests)),
			logins: median(mine.map((r) => r.logins)),
			pageSize: mine.find((r) => r.pageSize)?.pageSize ?? null,
			beyondMinimum: median(mine.map((r) => r.beyondMinimum)),
			itemsLost: Math.max(0, ...mine.map((r) => r.itemsLost ?? 0)),
			duplicates: Math.max(0, ...mine.map((r) => r.duplicates ?? 0)),
			outOfOrder: median(mine.map((r) => r.outOfOrder)),
			earlyRetries: Math.max(0, ...mine.map((r) => r.earlyRetries ?? 0)),
			rateLimited: median(mine.map((r) => r.rateLimited)),
			outputs: median(mine.map((r) => r.outputs)),
			requestsPerSecond: median(mine.map((r) => r.requestsPerSecond)),
			emulatorBusy: median(mine.map((r) => r.emulatorBusy)),
		};
	}
	const ratio = (a, b) => (a && b ? a / b : null);
	const ratios = {
		timeNodeToRaw: ratio(summary.node.wallMs, summary.raw.wallMs),
		timeNodeToRawSequential: ratio(summary.node.wallMs, summary.rawSequential.wallMs),
		timeNodeToHttp: ratio(summary.node.wallMs, summary.http.wallMs),
		rssNodeToRaw: ratio(summary.node.maxRssMb, summary.raw.maxRssMb),
		rssNodeToHttp: ratio(summary.node.maxRssMb, summary.http.maxRssMb),
	};
	const result = {
		id: job.id,
		title: job.title,
		kind: job.kind,
		size: job.kind === 'contacts' ? job.contacts : job.items,
		reps: job.reps,
		minimumRequests: minimumRequests(job),
		expectedOutputs: expectedOutputs(job),
		emulatorConfig: job.emulator,
		summary,
		ratios,
		runs,
	};
	result.targets = judge(result, TARGETS);
	return result;
}

async function main() {
	const started = Date.now();
	const jobs = selectedJobs();
	const scale = Number(process.env.BENCH_SCALE ?? 1);
	log(`transpiling the node and the harness`);
	const { dir: buildDir } = build();
	const runtime = await runtimeDir();
	log(`n8n runtime: ${runtime}`);
	const emulator = startEmulator();
	try {
		const { url } = await emulator.call('start', { tokenTtlSeconds: 3600 });
		log(`emulator on ${url} (own process)`);
		await emulator.call('reset', 'empty');
		await emulator.call('clearCounters');
		const capacity = await inChild('load.js', { url, user: USER, requests: Math.max(2000, Math.round(20_000 * Math.min(1, scale))) });
		const capacityCounters = await emulator.call('counters');
		capacity.emulatorCpuMs = capacityCounters.cpuMs;
		log(`emulator capacity: ${Math.round(capacity.perSecond)} requests/s (${capacity.connections} keep-alive connections)`);

		const context = { url, buildDir, runtimeDir: runtime };
		const results = [];
		for (const job of jobs) results.push(await runJob(job, emulator, context));

		log('where the time goes: undici vs n8n\'s HTTP helper per request, n8n\'s engine per item');
		await emulator.call('reset', 'empty');
		await emulator.call('setConfig', { tokenTtlSeconds: 3600, rateLimit: null, latencyMs: 0 });
		const floors = await inChild('floors.js', {
			url,
			user: USER,
			buildDir,
			requests: Math.max(300, Math.round(3000 * Math.min(1, scale))),
			items: Math.max(500, Math.round(5000 * Math.min(1, scale))),
		});

		const report = {
			generatedAt: new Date().toISOString(),
			durationS: Math.round((Date.now() - started) / 1000),
			scale,
			machine: machine(runtime),
			emulator: { capacity },
			floors,
			targets: TARGETS,
			jobs: results,
		};
		const table = renderTable(report);
		process.stdout.write(`${table}\n`);
		fs.mkdirSync(RESULTS_DIR, { recursive: true });
		const file = path.join(RESULTS_DIR, scale === 1 && !process.env.BENCH_JOBS && !process.env.BENCH_REPS ? 'harness.json' : 'harness-partial.tmp.json');
		fs.writeFileSync(file, `${JSON.stringify({ ...report, table }, null, 2)}\n`);
		log(`written ${path.relative(ROOT, file)} in ${report.durationS} s`);
	} finally {
		await emulator.close();
	}
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
