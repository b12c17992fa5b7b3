'use strict';
/**
 * One run of the raw undici client (raw.js) in a process of its own, so it shares no event loop with the bench.
 * Receives {job, url, user, events, concurrency, ca}; builds its input before the clock starts; replies
 * {wallMs, cpuMs, maxRssMb, outputs, clientLogins, error?} and exits.
 */
const { performance } = require('node:perf_hooks');
const { runRaw } = require('./raw');

async function main({ job, url, user, events, concurrency, ca }) {
	const items = (events ?? [{}]).map((event) => ({ json: { orderId: event.id, status: event.status } }));
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	const result = await runRaw({ job, url, user, items, concurrency, ca });
	const wallMs = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	return { ...result, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

process.once('message', (task) => {
	main(task).then(
		(result) => process.send({ ok: true, result }, () => process.exit(0)),
		(error) => process.send({ ok: false, error: String(error && error.stack ? error.stack : error) }, () => process.exit(1)),
	);
});
