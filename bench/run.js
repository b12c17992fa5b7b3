'use strict';
/**
 * `npm run bench` (issues #20 and #21): the contenders run in a real n8n 2.x process (tools/n8n, the runtime the
 * project installs) with the package packed from this checkout, each started by its production webhook; the emulator
 * and the wire (a delay proxy and a TLS terminator) run in processes of their own. Prints one Markdown report and
 * writes it with every raw measurement to bench/results/latest.json (a full run) or partial.tmp.json.
 * See bench/README.md. `npm run bench:harness` is the older, faster engine-harness bench (bench/harness/).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { selectedJobs, USER } = require('./lib/jobs');
const { contenderWorkflow } = require('./lib/workflows');
const { startHelper } = require('./lib/ipc');
const { makeCertificate } = require('./lib/cert');
const { startSingleN8n, peakResetWorks } = require('./lib/n8nProcess');
const { startQueueN8n } = require('./lib/n8nQueue');
const { matrix, sweep, dedup } = require('./lib/runners');
const { runOnce } = require('./lib/measure');
const { renderReport } = require('./lib/report');
const { removeOnExit, forget } = require('./lib/cleanup');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_DIR = path.join(__dirname, 'results');

const log = (...args) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${args.join(' ')}\n`);

/** Which n8n workflows the selected jobs need: [contender key, credential tag]. */
function neededWorkflows(jobs) {
	const keys = new Set();
	for (const job of jobs) {
		const tag = job.wire || job.kind === 'sweep' ? 'wire' : 'loopback';
		if (job.kind === 'sweep') for (const c of job.concurrency) keys.add(`nodeC${c}|wire`);
		for (const c of job.contenders ?? []) if (c.workflow) keys.add(`${c.workflow}|${tag}`);
	}
	return [...keys].map((key) => key.split('|'));
}

const rounded = (values) => values.map((v) => Math.round(v * 100) / 100);

function machine(version, loadAtStart) {
	const cpus = os.cpus();
	return {
		cpu: cpus[0]?.model?.trim(),
		nproc: os.availableParallelism(),
		ramGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		os: `${os.type()} ${os.release()} ${os.arch()}`,
		node: process.version,
		n8n: version,
		loadAverageAtStart: rounded(loadAtStart),
		loadAverageAtEnd: rounded(os.loadavg()),
	};
}

/** One small run of every workflow, so no measured run pays n8n's first-use costs (lazy loading, JIT). */
async function warmUp(ctx, workflows) {
	await ctx.emulator.call('reset', 'empty');
	await ctx.emulator.call('seedContacts', { username: USER.username, count: 1500 });
	await ctx.wire.call('setRtt', 0);
	for (const [key, tag] of workflows) {
		const job = key.endsWith('Contacts') ? { kind: 'contacts', contacts: 1500 } : { kind: 'orders', events: 20 };
		if (tag === 'wire') job.wire = { rttMs: 0 };
		const run = await runOnce(job, { id: key, workflow: key }, `${ctx.runId}-warm-${key}-${tag}`, ctx);
		if (run.error) throw new Error(`warm-up of ${key} (${tag}) failed: ${run.error}`);
	}
}

async function main() {
	const started = Date.now();
	const loadAtStart = os.loadavg();
	const jobs = selectedJobs();
	const full = !process.env.BENCH_QUICK && !process.env.BENCH_JOBS && !process.env.BENCH_REPS && !process.env.BENCH_TARBALL;
	if (!peakResetWorks()) throw new Error('this kernel does not let the bench reset a process\'s VmHWM (/proc/<pid>/clear_refs): peak RSS per run cannot be measured');
	const n8nTools = require(path.join(ROOT, 'tools', 'n8n'));
	const runtime = await n8nTools.ensureRuntime(2, { echo: true });
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-pack-'));
	removeOnExit(packDir);
	// BENCH_TARBALL reuses a tarball while developing the bench itself; a measurement packs this checkout.
	log(process.env.BENCH_TARBALL ? `using ${process.env.BENCH_TARBALL}` : 'packing the package from this checkout (npm pack: build included)');
	const tarball = process.env.BENCH_TARBALL ?? (await n8nTools.packPackage(ROOT, { destDir: packDir, nodeBin: runtime.nodeBin }));
	const cert = makeCertificate();
	removeOnExit(cert.dir);
	const emulator = startHelper(path.join(__dirname, 'lib', 'emulator.js'));
	const wire = startHelper(path.join(__dirname, 'lib', 'wireProcess.js'));
	let single;
	let queue;
	try {
		const { url: loopbackUrl } = await emulator.call('start', { tokenTtlSeconds: 3600 });
		const { port: emulatorPort } = new URL(loopbackUrl);
		const { port: wirePort } = await wire.call('start', { targetPort: Number(emulatorPort), rttMs: 0, cert: cert.cert, key: cert.key });
		const urls = { loopback: loopbackUrl, wire: `https://127.0.0.1:${wirePort}` };
		log(`emulator ${urls.loopback}; wire ${urls.wire} (delay proxy -> TLS terminator -> emulator)`);
		const credential = (tag, id, baseUrl) => ({
			id,
			name: `bench ${tag}`,
			tag: tag === 'wire' ? 'Wire' : 'Loop',
			type: 'commerceMessagingApi',
			data: { baseUrl, username: USER.username, password: USER.password, pluginIntegration: false },
		});
		const credentials = { loopback: credential('loopback', 'cmBenchLoopback', urls.loopback), wire: credential('wire', 'cmBenchWire', urls.wire) };
		const importable = Object.values(credentials).map(({ tag, ...c }) => c);
		const ctx = { emulator, wire, urls, credentials, cert, log, runId: `b${Date.now().toString(36)}` };

		const results = [];
		const needed = neededWorkflows(jobs.filter((job) => job.kind !== 'dedup' || job.modes.includes('single')));
		if (needed.length) {
			const workflows = needed.map(([key, tag]) => contenderWorkflow(key, credentials[tag]));
			single = await startSingleN8n({ tarball, credentials: importable, workflows, env: { NODE_EXTRA_CA_CERTS: cert.certFile }, log });
			removeOnExit(single.home.home);
			ctx.n8n = single;
			log('warming up every workflow once');
			await warmUp(ctx, needed);
			for (const job of jobs) {
				log(`job ${job.id}: ${job.title}`);
				if (job.kind === 'sweep') results.push(await sweep(job, ctx));
				else if (job.kind === 'dedup') results.push({ id: job.id, title: job.title, kind: 'dedup', rows: job.modes.includes('single') ? await dedup(job, ctx, 'single', single) : [] });
				else results.push(await matrix(job, ctx));
			}
			await single.stop();
			forget(single.home.home);
			single = undefined;
		}
		const dedupJob = jobs.find((job) => job.kind === 'dedup' && job.modes.includes('queue'));
		if (dedupJob) {
			log('job dedup, queue mode: starting Postgres, Redis, main and 2 workers');
			const workflows = dedupJob.contenders.map((c) => contenderWorkflow(c.workflow, credentials.loopback));
			queue = await startQueueN8n({ tarball, credentials: [importable[0]], workflows, log });
			removeOnExit(queue.base);
			await warmUp({ ...ctx, n8n: queue }, dedupJob.contenders.map((c) => [c.workflow, 'loopback']));
			const rows = await dedup(dedupJob, ctx, 'queue', queue);
			const entry = results.find((r) => r.id === 'dedup');
			if (entry) entry.rows.push(...rows);
			else results.push({ id: dedupJob.id, title: dedupJob.title, kind: 'dedup', rows });
			await queue.stop();
			forget(queue.base);
			queue = undefined;
		}

		const report = {
			generatedAt: new Date().toISOString(),
			durationS: Math.round((Date.now() - started) / 1000),
			quick: process.env.BENCH_QUICK === '1',
			machine: machine(runtime.version, loadAtStart),
			jobs: results,
		};
		let table;
		try {
			table = renderReport(report);
		} catch (error) {
			// The measurements are kept whatever happens to their rendering.
			table = `the report could not be rendered: ${error.stack ?? error}`;
		}
		process.stdout.write(`${table}\n`);
		fs.mkdirSync(RESULTS_DIR, { recursive: true });
		const file = path.join(RESULTS_DIR, full ? 'latest.json' : 'partial.tmp.json');
		fs.writeFileSync(file, `${JSON.stringify({ ...report, table }, null, 2)}\n`);
		log(`written ${path.relative(ROOT, file)}; total ${Math.floor(report.durationS / 60)} min ${report.durationS % 60} s`);
	} finally {
		await single?.stop().catch(() => {});
		await queue?.stop().catch(() => {});
		await wire.close();
		await emulator.close();
		cert.remove();
		fs.rmSync(packDir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exitCode = 1;
});
