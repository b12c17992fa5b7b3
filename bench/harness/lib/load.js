'use strict';
/**
 * The emulator's own request rate, measured from a separate process: undici with 16 keep-alive connections
 * POSTing order events (the bench's most common request, with a JWT to verify and a JSON body to parse) for a
 * fixed count. What the emulator serves here is far above what any contender asks of it, so it is not the
 * bottleneck.
 */
const { Pool } = require('undici');
const { performance } = require('node:perf_hooks');

async function measure({ url, user, requests = 20_000, connections = 16 }) {
	const pool = new Pool(url, { connections, pipelining: 1 });
	const login = await pool.request({
		method: 'POST',
		path: '/api/login_check',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(user),
	});
	const { token } = await login.body.json();
	const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
	let next = 0;
	let failed = 0;
	const started = performance.now();
	const worker = async () => {
		while (next < requests) {
			const i = next++;
			const response = await pool.request({ method: 'POST', path: '/api/v1/order/', headers, body: JSON.stringify({ order_id: `LOAD-${i}`, status: 'paid' }) });
			await response.body.text();
			if (response.statusCode !== 201) failed++;
		}
	};
	await Promise.all(Array.from({ length: connections }, worker));
	const ms = performance.now() - started;
	await pool.close();
	return { requests, connections, ms, perSecond: (requests / ms) * 1000, failed };
}

process.once('message', (task) => {
	measure(task).then(
		(result) => process.send({ ok: true, result }, () => process.exit(0)),
		(error) => process.send({ ok: false, error: String(error && error.stack ? error.stack : error) }, () => process.exit(1)),
	);
});
