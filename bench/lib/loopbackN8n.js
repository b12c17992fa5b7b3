'use strict';
/**
 * The setup bench:profile and bench/httpBatching.js share: the package packed from this checkout (or BENCH_TARBALL),
 * the emulator in its own process, and the real single-process n8n serving the given contenders' workflows with a
 * loopback credential, warmed up. `stop()` ends and removes all of it.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { USER } = require('./jobs');
const { contenderWorkflow } = require('./workflows');
const { startHelper } = require('./ipc');
const { startSingleN8n } = require('./n8nProcess');
const { runOnce } = require('./measure');
const { removeOnExit, forget } = require('./cleanup');

const ROOT = path.resolve(__dirname, '..', '..');

/** @param {{ keys: string[], log: (s: string) => void }} options */
async function startLoopbackN8n({ keys, log }) {
	const n8nTools = require(path.join(ROOT, 'tools', 'n8n'));
	const runtime = await n8nTools.ensureRuntime(2, { echo: true });
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-pack-'));
	removeOnExit(packDir);
	log(process.env.BENCH_TARBALL ? `using ${process.env.BENCH_TARBALL}` : 'packing the package from this checkout');
	const tarball = process.env.BENCH_TARBALL ?? (await n8nTools.packPackage(ROOT, { destDir: packDir, nodeBin: runtime.nodeBin }));
	const emulator = startHelper(path.join(__dirname, 'emulator.js'));
	let n8n;
	const stop = async () => {
		if (n8n) {
			await n8n.stop().catch(() => {});
			forget(n8n.home.home);
		}
		await emulator.close();
		fs.rmSync(packDir, { recursive: true, force: true });
	};
	try {
		const { url } = await emulator.call('start', { tokenTtlSeconds: 3600 });
		const loopback = {
			id: 'cmBenchLoopback',
			name: 'bench loopback',
			tag: 'Loop',
			type: 'commerceMessagingApi',
			data: { baseUrl: url, username: USER.username, password: USER.password, pluginIntegration: false },
		};
		const { tag, ...importable } = loopback;
		n8n = await startSingleN8n({ tarball, credentials: [importable], workflows: keys.map((key) => contenderWorkflow(key, loopback)), log });
		removeOnExit(n8n.home.home);
		const ctx = { emulator, n8n, credentials: { loopback }, urls: { loopback: url }, log, runId: `l${Date.now().toString(36)}` };
		await emulator.call('reset', 'empty');
		for (const key of keys) {
			const run = await runOnce({ kind: 'orders', events: 200, wire: null }, { id: key, workflow: key }, `${ctx.runId}-warm-${key}`, ctx);
			if (run.error) throw new Error(`warm-up of ${key} failed: ${run.error}`);
		}
		return { ctx, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

module.exports = { startLoopbackN8n };
