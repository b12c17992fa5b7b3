// @ts-check
'use strict';
/**
 * A trap: "another host" that must receive nothing (a redirect target, a wrong base URL). A plain node:http server
 * on 127.0.0.1 that records every request and answers 200 {"status":"success","data":{}}.
 */
const http = require('node:http');

/** @typedef {{ method: string, url: string, headers: import('node:http').IncomingHttpHeaders, body: string }} TrapRequest */

/** @param {{ port?: number }} [options] */
async function startTrap(options = {}) {
	/** @type {TrapRequest[]} */
	const requests = [];
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	const server = http.createServer((req, res) => {
		/** @type {Buffer[]} */
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
			res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
			res.end('{"status":"success","data":{}}');
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => resolve(undefined));
	});
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	let closed = false;
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		/** every request received, in order (live array) */
		requests,
		/** Stops the server and drops keep-alive sockets. */
		async close() {
			if (closed) return;
			closed = true;
			for (const s of sockets) s.destroy();
			await new Promise((resolve) => server.close(() => resolve(undefined)));
		},
	};
}

/** @typedef {Awaited<ReturnType<typeof startTrap>>} Trap */

module.exports = { startTrap };
