'use strict';
/**
 * A helper process driven by IPC request/response ({id, cmd, args} -> {id, ok, result | error}): the emulator and the
 * wire each run in one, so neither shares an event loop with the bench or with n8n.
 */
const { fork } = require('node:child_process');

/** Forks `script` and returns `call(cmd, args)`; `close()` asks it to end, then kills it. */
function startHelper(script) {
	const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	let nextId = 0;
	const pending = new Map();
	child.on('message', ({ id, ok, result, error }) => {
		const entry = pending.get(id);
		if (!entry) return;
		pending.delete(id);
		if (ok) entry.resolve(result);
		else entry.reject(new Error(`${script}: ${error}`));
	});
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.on('exit', (code) => {
		for (const { reject } of pending.values()) reject(new Error(`${script} exited (${code})`));
		pending.clear();
	});
	const call = (cmd, args) =>
		new Promise((resolve, reject) => {
			const id = nextId++;
			pending.set(id, { resolve, reject });
			child.send({ id, cmd, args });
		});
	const close = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		await Promise.race([call('close').catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5000))]);
		const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
		await exited;
		clearTimeout(timer);
	};
	return { pid: child.pid, call, close };
}

/** The child's side: answers the parent's calls with `commands[cmd](args)`. */
function serve(commands) {
	process.on('message', async ({ id, cmd, args }) => {
		try {
			const result = await commands[cmd](args);
			process.send({ id, ok: true, result });
		} catch (error) {
			process.send({ id, ok: false, error: String(error && error.stack ? error.stack : error) });
		}
	});
	process.on('disconnect', () => process.exit(0));
}

module.exports = { startHelper, serve };
