'use strict';
/**
 * Where does a contender's time go? `bash scripts/bench.sh bench/harness/profile.js [job] [contender]` runs one
 * repetition (default: orders, node) under the V8 CPU profiler, with the emulator in its own process, and prints
 * the heaviest functions (self time) and the heaviest files/packages. The .cpuprofile file is kept in
 * bench/results/ (open it in Chrome DevTools > Performance) and is not committed.
 */
const { fork } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { build } = require('./lib/build');
const { selectedJobs, USER } = require('./lib/jobs');

const jobId = process.argv[2] ?? 'orders';
const contender = process.argv[3] ?? 'node';
const top = Number(process.env.PROFILE_TOP ?? 25);

function summarize(profile) {
	const self = new Map();
	const byFile = new Map();
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const counts = new Map();
	for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
	const interval = (profile.endTime - profile.startTime) / profile.samples.length / 1000; // ms per sample
	let total = 0;
	for (const [id, count] of counts) {
		const node = byId.get(id);
		const { functionName, url, lineNumber } = node.callFrame;
		const ms = count * interval;
		total += ms;
		const file = url.replace(/^file:\/\//, '');
		const key = `${functionName || '(anonymous)'} ${file ? `${path.basename(file)}:${lineNumber + 1}` : ''}`;
		self.set(key, (self.get(key) ?? 0) + ms);
		const pkg = packageOf(file, functionName);
		byFile.set(pkg, (byFile.get(pkg) ?? 0) + ms);
	}
	const list = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${v.toFixed(0).padStart(7)} ms ${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
	return `total sampled ${total.toFixed(0)} ms\n\nby package / area (self time):\n${list(byFile).join('\n')}\n\nby function (self time):\n${list(self).join('\n')}`;
}

function packageOf(file, functionName) {
	if (!file) return functionName.startsWith('(') ? functionName : '(native/V8)';
	if (file.startsWith('node:')) return `node core (${file.split('/')[0]})`;
	const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/g;
	let last;
	for (const m of file.matchAll(match)) last = m[1];
	if (file.includes('/.cache/cm-bench/')) return `this package: ${file.split('/.cache/cm-bench/')[1].split('/').slice(0, 3).join('/')}`;
	return last ?? file;
}

async function main() {
	const [job] = selectedJobs({ ...process.env, BENCH_JOBS: jobId });
	if (!job) throw new Error(`unknown job ${jobId}`);
	const { dir: buildDir } = build();
	const runtimeDir = process.env.BENCH_N8N_DIR ?? (await require('../../tools/n8n').ensureRuntime(2)).dir;
	const emulator = fork(path.join(__dirname, '..', 'lib', 'emulator.js'));
	const call = (cmd, args) =>
		new Promise((resolve, reject) => {
			emulator.once('message', (m) => (m.ok ? resolve(m.result) : reject(new Error(m.error))));
			emulator.send({ id: 0, cmd, args });
		});
	const { url } = await call('start', job.emulator);
	await call('setConfig', job.emulator);
	if (job.contacts) await call('seedContacts', { username: USER.username, count: job.contacts });
	await call('clearCounters');
	const outDir = path.join(__dirname, '..', 'results');
	fs.mkdirSync(outDir, { recursive: true });
	const profDir = fs.mkdtempSync(path.join(outDir, 'profile-'));
	const worker = fork(path.join(__dirname, 'lib', 'worker.js'), [], {
		execArgv: ['--expose-gc', '--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=100'],
		env: { ...process.env, NODE_ENV: 'production' },
	});
	const result = await new Promise((resolve, reject) => {
		worker.once('message', (m) => (m.ok ? resolve(m.result) : reject(new Error(m.error))));
		worker.send({ contender, job, url, user: USER, run: 'profile', buildDir, runtimeDir });
	});
	await new Promise((resolve) => worker.once('exit', resolve));
	const counters = await call('counters');
	await call('close').catch(() => {});
	const [file] = fs.readdirSync(profDir);
	const target = path.join(outDir, `${jobId}-${contender}.cpuprofile`);
	fs.renameSync(path.join(profDir, file), target);
	fs.rmSync(profDir, { recursive: true, force: true });
	process.stdout.write(`${jobId} / ${contender}: ${(result.wallMs / 1000).toFixed(2)} s, ${counters.requests} requests, emulator cpu ${counters.cpuMs.toFixed(0)} ms\n`);
	process.stdout.write(`${summarize(JSON.parse(fs.readFileSync(target, 'utf8')))}\n\nprofile: ${path.relative(process.cwd(), target)}\n`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
