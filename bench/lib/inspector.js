'use strict';
/**
 * A minimal Chrome DevTools Protocol client for the n8n process's inspector (n8n is started with
 * NODE_OPTIONS=--inspect=127.0.0.1:<port>): a garbage collection before each measured run, so one run's garbage does
 * not count in the next one's peak RSS, and the CPU profiler and call counts for bench:profile. Node 24's global
 * WebSocket, no dependency.
 */

/** @param {number} port @returns {Promise<{ send: (method: string, params?: object) => Promise<any>, close: () => void }>} */
async function connectInspector(port, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	let target;
	while (!target) {
		try {
			const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
			target = list.find((t) => t.webSocketDebuggerUrl);
		} catch {
			/* not listening yet */
		}
		if (!target) {
			if (Date.now() > deadline) throw new Error(`no inspector on 127.0.0.1:${port}`);
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}
	const ws = new WebSocket(target.webSocketDebuggerUrl);
	await new Promise((resolve, reject) => {
		ws.addEventListener('open', resolve, { once: true });
		ws.addEventListener('error', () => reject(new Error(`inspector websocket on port ${port} failed`)), { once: true });
	});
	let nextId = 1;
	const pending = new Map();
	ws.addEventListener('message', (event) => {
		const message = JSON.parse(String(event.data));
		const entry = message.id === undefined ? undefined : pending.get(message.id);
		if (!entry) return;
		pending.delete(message.id);
		if (message.error) entry.reject(new Error(`${entry.method}: ${message.error.message}`));
		else entry.resolve(message.result);
	});
	ws.addEventListener('close', () => {
		for (const entry of pending.values()) entry.reject(new Error('the inspector connection closed'));
		pending.clear();
	});
	return {
		send: (method, params = {}) =>
			new Promise((resolve, reject) => {
				const id = nextId++;
				pending.set(id, { resolve, reject, method });
				ws.send(JSON.stringify({ id, method, params }));
			}),
		close: () => ws.close(),
	};
}

module.exports = { connectInspector };
