'use strict';
/**
 * What the bench started and must leave behind on any exit: temp folders are removed on a normal end, on an error and
 * on Ctrl-C / SIGTERM (n8n and its services are process groups tools/n8n kills on the same signals; the emulator and
 * the wire are IPC children that exit when the bench's channel closes).
 */
const fs = require('node:fs');

const folders = new Set();
let installed = false;

function removeAll() {
	for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
	folders.clear();
}

/** Removes `dir` when the bench ends, whichever way. */
function removeOnExit(dir) {
	folders.add(dir);
	if (installed) return;
	installed = true;
	process.on('exit', removeAll);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.once(signal, () => {
			removeAll();
			// tools/n8n's own handler (when installed) kills n8n's process groups and re-raises the signal.
			if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
		});
	}
}

function forget(dir) {
	folders.delete(dir);
}

module.exports = { removeOnExit, forget };
