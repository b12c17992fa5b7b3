'use strict';
/**
 * n8n in queue mode for the deduplication job (issue #21): tools/n8n/queue.js's deployment (Postgres, Redis, one
 * main taking the webhooks, two workers running the executions), the contenders' workflows published. A run POSTs to
 * the main's production webhook and is timed until the main answers, which it does when the worker that ran the
 * execution has finished its last node.
 */
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Why the workflow's latest execution failed, from the shared database (execution data is flatted-encoded; the
 * `flatted` inside n8n decodes it) and the workers' last error lines: the main only answers "Error in workflow".
 */
async function lastExecutionError(deployment, workflowId) {
	const { n8nRequire } = require(path.join(ROOT, 'tools', 'n8n', 'runtime'));
	let stored;
	try {
		const [row] = await deployment.query(
			'SELECT e.id, e.status, d.data FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = $1 ORDER BY e.id DESC LIMIT 1',
			[workflowId],
		);
		const error = row ? n8nRequire(deployment.mainHome.runtime)('flatted').parse(row.data).resultData.error ?? {} : {};
		stored = row ? `execution ${row.id} (${row.status}): ${error.message}${error.description ? ` (${error.description})` : ''}` : 'no execution stored';
	} catch (error) {
		stored = `(could not read the execution: ${error.message})`;
	}
	const workerLines = deployment.workers
		.flatMap((w) => w.output().split('\n').filter((line) => /error|stalled|lock/i.test(line)).slice(-2).map((line) => `${w.name}: ${line.trim().slice(0, 200)}`))
		.join(' | ');
	return `${stored}${workerLines ? `; ${workerLines}` : ''}`;
}

/** @param {{ tarball: string, credentials: object[], workflows: object[], log: (s: string) => void }} options */
async function startQueueN8n({ tarball, credentials, workflows, log }) {
	const { startQueueDeployment } = require(path.join(ROOT, 'tools', 'n8n', 'queue'));
	const { waitForProductionUrl } = require(path.join(ROOT, 'tools', 'n8n'));
	const deployment = await startQueueDeployment({
		tarball,
		workers: 2,
		credentials,
		workflows,
		activate: workflows.map((w) => w.id),
		// n8n's default; tools/n8n waits for the workers' "ready" line, logged at info.
		logLevel: 'info',
		// n8n's defaults for a job's lock (tools/n8n shortens them so the e2e tests see a dead worker within
		// seconds). With a 10 s lock, an execution of 10,000 events fails ("failed to be processed too many times"):
		// the node keeps the worker's event loop busy longer than that, so the lock is not renewed in time.
		env: { QUEUE_WORKER_LOCK_DURATION: '60000', QUEUE_WORKER_LOCK_RENEW_TIME: '10000', QUEUE_WORKER_STALLED_INTERVAL: '30000' },
	});
	try {
		for (const workflow of workflows) await waitForProductionUrl(`${deployment.main.url}/webhook/${workflow.id}`);
	} catch (error) {
		await deployment.stop();
		throw error;
	}
	log(`queue mode up in ${(deployment.startupMs / 1000).toFixed(0)} s: Postgres, Redis, main ${deployment.main.url}, ${deployment.workers.length} workers`);
	return {
		base: deployment.base,
		async run(workflowId, body, { timeoutMs = 15 * 60_000 } = {}) {
			const started = performance.now();
			const res = await fetch(`${deployment.main.url}/webhook/${workflowId}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(timeoutMs),
			});
			const text = await res.text();
			const wallMs = performance.now() - started;
			let response;
			try {
				response = JSON.parse(text);
			} catch {
				response = text;
			}
			const failure = res.status === 200 ? undefined : `${text.slice(0, 200)}; ${await lastExecutionError(deployment, workflowId)}`;
			return { wallMs, status: res.status, response, failure };
		},
		stop: () => deployment.stop(),
	};
}

module.exports = { startQueueN8n };
