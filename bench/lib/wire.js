'use strict';
/**
 * A network round trip on the connection itself, for the bench's "on the wire" jobs:
 *
 *   client --TCP--> delay proxy (each direction delayed by half the round trip) --TCP--> TLS terminator --> emulator
 *
 * so a client pays what it pays over a real network: one round trip for the TCP handshake, one for TLS 1.3, one per
 * request; a client that opens a new connection per request (n8n 2.x does) pays all three every time, a keep-alive
 * client only the last. The TCP handshake itself happens on loopback, so the proxy holds the client's first bytes
 * until one round trip after the connection was accepted, which is when they could have left over a real network.
 * Bandwidth is not limited. Runs in its own process (wireProcess.js) so TLS work does not slow the emulator's loop.
 */
const net = require('node:net');
const tls = require('node:tls');

/** Forwards chunks to `to` in order, each no earlier than its own due time. */
function delayedPipe(to) {
	const queue = [];
	let timer;
	let lastDue = 0;
	const flush = () => {
		timer = undefined;
		const now = Date.now();
		while (queue.length && queue[0].due <= now) {
			const { chunk } = queue.shift();
			if (to.destroyed) return;
			if (chunk === null) to.end();
			else to.write(chunk);
		}
		if (queue.length) timer = setTimeout(flush, queue[0].due - now);
	};
	/** chunk null = end of stream */
	return (chunk, due) => {
		lastDue = Math.max(due, lastDue);
		queue.push({ chunk, due: lastDue });
		if (!timer) timer = setTimeout(flush, Math.max(0, lastDue - Date.now()));
	};
}

/**
 * @param {{ targetPort: number, rttMs: number, cert: string, key: string }} options
 * @returns {Promise<{ port: number, tlsPort: number, setRtt: (ms: number) => void, counters: () => object,
 *   clearCounters: () => void, close: () => Promise<void> }>}
 */
async function startWire({ targetPort, rttMs, cert, key }) {
	let rtt = rttMs;
	const counts = { connections: 0, tlsHandshakes: 0, tlsResumed: 0, errors: {} };
	/** Socket errors by where they happened and their code: a reset the wire passed on shows here. */
	const countError = (where, error) => {
		const key = `${where}: ${error.code ?? error.message}`;
		counts.errors[key] = (counts.errors[key] ?? 0) + 1;
	};
	const sockets = new Set();
	const track = (socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	};

	const terminator = tls.createServer({ cert, key, ALPNProtocols: ['http/1.1'], minVersion: 'TLSv1.2' }, (secure) => {
		counts.tlsHandshakes++;
		if (secure.isSessionReused()) counts.tlsResumed++;
		const upstream = net.connect(targetPort, '127.0.0.1');
		track(secure);
		track(upstream);
		secure.setNoDelay(true);
		upstream.setNoDelay(true);
		secure.pipe(upstream).pipe(secure);
		const failed = (side) => (error) => {
			countError(side, error);
			secure.destroy();
			upstream.destroy();
		};
		secure.on('error', failed('TLS terminator, client side'));
		upstream.on('error', failed('TLS terminator, emulator side'));
	});
	terminator.on('tlsClientError', (error) => {
		countError('TLS handshake', error);
	});

	// Half-open sockets: an end in one direction is passed on, delayed like the data before it, and a socket closes
	// once both directions ended; only an error tears both sides down at once (a reset reaches the other end as one).
	const proxy = net.createServer({ allowHalfOpen: true }, (client) => {
		counts.connections++;
		const half = rtt / 2;
		// The client's first bytes could not have left before the handshake's round trip.
		const firstSendAt = Date.now() + rtt;
		const upstream = net.connect({ port: tlsPort, host: '127.0.0.1', allowHalfOpen: true });
		track(client);
		track(upstream);
		client.setNoDelay(true);
		upstream.setNoDelay(true);
		const toServer = delayedPipe(upstream);
		const toClient = delayedPipe(client);
		client.on('data', (chunk) => toServer(chunk, Math.max(Date.now(), firstSendAt) + half));
		client.on('end', () => toServer(null, Math.max(Date.now(), firstSendAt) + half));
		upstream.on('data', (chunk) => toClient(chunk, Date.now() + half));
		upstream.on('end', () => toClient(null, Date.now() + half));
		const failed = (side) => (error) => {
			countError(side, error);
			client.destroy();
			upstream.destroy();
		};
		client.on('error', failed('proxy, client side'));
		upstream.on('error', failed('proxy, service side'));
	});

	const listen = (server) =>
		new Promise((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => resolve(server.address().port));
		});
	const tlsPort = await listen(terminator);
	const port = await listen(proxy);
	return {
		port,
		tlsPort,
		setRtt: (ms) => {
			rtt = ms;
		},
		counters: () => ({ ...counts, errors: { ...counts.errors }, openSockets: sockets.size, rttMs: rtt }),
		clearCounters: () => {
			counts.connections = 0;
			counts.tlsHandshakes = 0;
			counts.tlsResumed = 0;
			counts.errors = {};
		},
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await Promise.all([proxy, terminator].map((server) => new Promise((resolve) => server.close(() => resolve()))));
		},
	};
}

module.exports = { startWire };
