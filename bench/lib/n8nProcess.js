'use strict';
/**
 * The real n8n the bench measures: one `n8n start` (n8n's default single-process mode, SQLite) from the project's
 * runtime (tools/n8n, ensureRuntime(2)), with the package installed from a tarball packed from this checkout and the
 * contenders' workflows imported and published, so each is started by its production webhook, in a warm process, as
 * shops run it. The process is started with its inspector on a loopback port: the bench collects garbage before
 * each run and profiles with it. Per run it reads the process's peak RSS (the kernel's high-water mark VmHWM, reset
 * before the run by writing 5 to /proc/<pid>/clear_refs), its CPU time (/proc/<pid>/stat) and the longest its event
 * loop was blocked (perf_hooks' monitorEventLoopDelay, installed through the inspector).
 */
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const ROOT = path.resolve(__dirname, '..', '..');
const { connectInspector } = require('./inspector');

const n8n = () => require(path.join(ROOT, 'tools', 'n8n'));

/** The instance owner the bench signs in as, to publish the workflows through the REST API. */
const OWNER = { email: 'bench@example.com', password: 'Bench-owner-1' };
/** The header n8n binds its session cookie to (tools/n8n/editor.js sends the same). */
const BROWSER_ID = 'cm-e2e-browser';

/**
 * Publishes a workflow through the running n8n's REST API (POST /rest/workflows/:id/activate, its current version):
 * one `n8n publish:workflow` per workflow would boot n8n's CLI each time.
 */
async function publish(editor, id) {
	const headers = { 'content-type': 'application/json', cookie: editor.ownerCookie, 'browser-id': BROWSER_ID };
	const current = await fetch(`${editor.url}/rest/workflows/${id}`, { headers });
	const { versionId } = (await current.json()).data ?? {};
	const res = await fetch(`${editor.url}/rest/workflows/${id}/activate`, { method: 'POST', headers, body: JSON.stringify({ versionId }) });
	if (res.status !== 200) throw new Error(`publishing workflow ${id}: HTTP ${res.status} ${(await res.text()).slice(0, 500)}`);
}

/**
 * Why the workflow's latest failed execution failed, read back through the REST API: the webhook only answers
 * "Error in workflow". Execution data comes flatted-encoded; the `flatted` inside n8n decodes it.
 */
async function lastExecutionError(editor, runtime, workflowId) {
	const headers = { cookie: editor.ownerCookie, 'browser-id': BROWSER_ID };
	try {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ['error'] }));
		const list = await (await fetch(`${editor.url}/rest/executions?filter=${filter}&limit=1`, { headers })).json();
		const id = list.data?.results?.[0]?.id;
		if (!id) return 'no failed execution found';
		const one = await (await fetch(`${editor.url}/rest/executions/${id}`, { headers })).json();
		const { n8nRequire } = require(path.join(ROOT, 'tools', 'n8n', 'runtime'));
		const error = n8nRequire(runtime)('flatted').parse(one.data.data).resultData.error ?? {};
		return `execution ${id}: ${error.message}${error.description ? ` (${error.description})` : ''}${error.node?.name ? ` in ${error.node.name}` : ''}`;
	} catch (error) {
		return `(could not read the execution: ${error.message})`;
	}
}

/** Evaluates an expression in n8n's main context through the inspector; returns its value. */
async function evaluate(inspector, expression) {
	const { result, exceptionDetails } = await inspector.send('Runtime.evaluate', { expression, returnByValue: true });
	if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
	return result.value;
}

/** Memory and CPU of a process from /proc (Linux). */
const proc = {
	statusKb(pid, field) {
		const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) : null;
	},
	/** utime + stime in ms (clock ticks of 10 ms on Linux). */
	cpuMs(pid) {
		const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return (Number(fields[11]) + Number(fields[12])) * 10;
	},
	resetPeak(pid) {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
	},
};

/** True when this kernel lets us reset a process's VmHWM (checked once, on ourselves). */
function peakResetWorks() {
	try {
		proc.resetPeak(process.pid);
		return proc.statusKb(process.pid, 'VmHWM') <= proc.statusKb(process.pid, 'VmRSS') + 1024;
	} catch {
		return false;
	}
}

/**
 * @param {{ tarball: string, credentials: object[], workflows: object[], env?: Record<string, string>, log: (s: string) => void }} options
 */
async function startSingleN8n({ tarball, credentials, workflows, env = {}, log }) {
	const { createN8nHome, importCredentials, importWorkflows, startEditor, freePort, removeHome, waitForProductionUrl } = n8n();
	// n8n's defaults: log level info, execution data saved.
	const home = await createN8nHome({ tarball, logLevel: 'info', env });
	let editor;
	let inspector;
	try {
		await importCredentials(home, credentials);
		await importWorkflows(home, workflows);
		const inspectPort = await freePort();
		editor = await startEditor(home, { owner: OWNER, env: { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` }, timeoutMs: 180_000 });
		inspector = await connectInspector(inspectPort);
		// How long n8n's event loop was blocked at most during a run: a webhook, a timer (a queue lock's renewal) waits
		// that long.
		await evaluate(inspector, "globalThis.__cmBenchLoopDelay = process.getBuiltinModule('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 }); globalThis.__cmBenchLoopDelay.enable(); true");
		for (const workflow of workflows) await publish(editor, workflow.id);
		const baseUrl = `${editor.url}/webhook`;
		for (const workflow of workflows) await waitForProductionUrl(`${baseUrl}/${workflow.id}`);
		log(`n8n ${home.runtime.version} (pid ${editor.pid}) serves ${workflows.length} workflows at ${baseUrl}/<id>`);
	} catch (error) {
		inspector?.close();
		await editor?.stop();
		removeHome(home);
		throw error;
	}
	const pid = editor.pid;
	return {
		pid,
		home,
		inspector,
		version: home.runtime.version,
		output: () => editor.output(),
		/**
		 * POSTs `body` to a workflow's webhook and times it until n8n answers (the workflow's last node finished).
		 * `beforeRun` / `afterRun` (bench:profile: start and stop the profiler) run right before and after, untimed.
		 * @returns {Promise<{ wallMs: number, status: number, response: any, peakRssMb: number, rssBeforeMb: number, cpuMs: number }>}
		 */
		async run(workflowId, body, { timeoutMs = 15 * 60_000, beforeRun, afterRun } = {}) {
			// n8n answers 503 "Database is not ready!" while a database ping of its own is late (seen under load): the
			// workflow did not start, so the run is made again.
			for (let attempt = 1; ; attempt++) {
				await inspector.send('HeapProfiler.collectGarbage');
				const rssBeforeMb = proc.statusKb(pid, 'VmRSS') / 1024;
				proc.resetPeak(pid);
				const cpuBefore = proc.cpuMs(pid);
				const payload = JSON.stringify(body);
				await evaluate(inspector, '__cmBenchLoopDelay.reset()');
				await beforeRun?.();
				const started = performance.now();
				const res = await fetch(`${editor.url}/webhook/${workflowId}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: payload,
					signal: AbortSignal.timeout(timeoutMs),
				});
				const text = await res.text();
				const wallMs = performance.now() - started;
				await afterRun?.();
				const cpuMs = proc.cpuMs(pid) - cpuBefore;
				const peakRssMb = proc.statusKb(pid, 'VmHWM') / 1024;
				const maxLoopDelayMs = (await evaluate(inspector, '__cmBenchLoopDelay.max')) / 1e6;
				if (res.status === 503 && /Database is not ready/.test(text) && attempt < 4) {
					log(`n8n answered 503 "${text.slice(0, 80)}": run again in 2 s`);
					await new Promise((resolve) => setTimeout(resolve, 2000));
					continue;
				}
				let response;
				try {
					response = JSON.parse(text);
				} catch {
					response = text;
				}
				const failure = res.status === 200 ? undefined : `${text.slice(0, 200)}; ${await lastExecutionError(editor, home.runtime, workflowId)}`;
				return { wallMs, status: res.status, response, failure, peakRssMb, rssBeforeMb, cpuMs, maxLoopDelayMs, attempts: attempt };
			}
		},
		async stop() {
			inspector.close();
			await editor.stop();
			removeHome(home);
		},
	};
}

module.exports = { startSingleN8n, peakResetWorks, proc };
