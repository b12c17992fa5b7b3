'use strict';
/** The wire (wire.js: delay proxy + TLS terminator) in its own process, driven over IPC (ipc.js). */
const { serve } = require('./ipc');
const { startWire } = require('./wire');

let wire;
serve({
	async start(options) {
		wire = await startWire(options);
		return { port: wire.port, tlsPort: wire.tlsPort, pid: process.pid };
	},
	setRtt(ms) {
		wire.setRtt(ms);
		return true;
	},
	counters: () => wire.counters(),
	clearCounters() {
		wire.clearCounters();
		return true;
	},
	async close() {
		await wire?.close();
		setImmediate(() => process.exit(0));
		return true;
	},
});
