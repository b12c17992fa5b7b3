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
			let response;
			try {
				response = JSON.parse(text);
			} catch {
				response = text;
			}
			return { wallMs: performance.now() - started, status: res.status, response };
		},
		stop: () => deployment.stop(),
	};
}

module.exports = { startQueueN8n };
