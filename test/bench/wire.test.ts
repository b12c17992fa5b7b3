/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
/**
 * The bench's wire (bench/lib/wire.js): the round trip is on the connection, so a client pays the TCP and TLS
 * handshakes of every connection it opens. Only lower bounds are asserted (a busy machine makes things slower, never
 * faster); the counters say how many connections and handshakes there were.
 */
import * as http from 'http';
import * as https from 'https';
import type { AddressInfo } from 'net';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- bench/ is plain JavaScript
const { startWire } = require('../../bench/lib/wire');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- bench/ is plain JavaScript
const { makeCertificate } = require('../../bench/lib/cert');

const RTT = 100;

describe('bench wire: delay proxy + TLS terminator in front of a plain loopback server', () => {
	let server: http.Server;
	let wire: {
		port: number;
		counters: () => Record<string, unknown>;
		clearCounters: () => void;
		close: () => Promise<void>;
	};
	let cert: { cert: string; key: string; remove: () => void };

	beforeAll(async () => {
		cert = makeCertificate();
		server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => res.end(Buffer.concat(chunks)));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		wire = await startWire({
			targetPort: (server.address() as AddressInfo).port,
			rttMs: RTT,
			cert: cert.cert,
			key: cert.key,
		});
	});
	afterAll(async () => {
		await wire.close();
		await new Promise((resolve) => server.close(resolve));
		cert.remove();
	});
	beforeEach(() => wire.clearCounters());

	function post(
		agent: https.Agent,
		body = 'ping',
		trusted = true,
	): Promise<{ ms: number; body: string }> {
		const started = Date.now();
		return new Promise((resolve, reject) => {
			const req = https.request(
				{
					host: '127.0.0.1',
					port: wire.port,
					method: 'POST',
					path: '/',
					agent,
					...(trusted ? { ca: cert.cert } : {}),
				},
				(res) => {
					const chunks: Buffer[] = [];
					res.on('data', (c: Buffer) => chunks.push(c));
					res.on('end', () =>
						resolve({ ms: Date.now() - started, body: Buffer.concat(chunks).toString() }),
					);
				},
			);
			req.on('error', reject);
			req.end(body);
		});
	}

	it('a request on a new connection pays three round trips: TCP handshake, TLS handshake, the request', async () => {
		const fresh = () => new https.Agent({ keepAlive: false });
		const first = await post(fresh());
		const second = await post(fresh());
		expect(first.body).toBe('ping');
		expect(Math.min(first.ms, second.ms)).toBeGreaterThanOrEqual(3 * RTT - 5);
		expect(wire.counters()).toMatchObject({ connections: 2, tlsHandshakes: 2 });
	});

	it('a kept-alive connection pays its handshakes once, then one round trip per request', async () => {
		const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const results = [];
			for (let i = 0; i < 3; i++) results.push(await post(agent, `request ${i}`));
			expect(results.map((r) => r.body)).toEqual(['request 0', 'request 1', 'request 2']);
			expect(results[0].ms).toBeGreaterThanOrEqual(3 * RTT - 5);
			expect(Math.min(results[1].ms, results[2].ms)).toBeGreaterThanOrEqual(RTT - 5);
			expect(wire.counters()).toMatchObject({ connections: 1, tlsHandshakes: 1 });
		} finally {
			agent.destroy();
		}
	});

	it('connections close once both ends are done: none is left open, none was reset', async () => {
		for (let i = 0; i < 5; i++) await post(new https.Agent({ keepAlive: false }));
		for (let waited = 0; Number(wire.counters().openSockets) > 0 && waited < 5000; waited += 50)
			await new Promise((resolve) => setTimeout(resolve, 50));
		expect(wire.counters()).toMatchObject({ connections: 5, openSockets: 0, errors: {} });
	});

	it('a large body arrives whole and in order through both hops', async () => {
		const body = Array.from({ length: 60_000 }, (_, i) => `line ${i}`).join('\n');
		const result = await post(new https.Agent({ keepAlive: false }), body);
		expect(result.body).toBe(body);
	});

	it('the certificate is self-signed: a client that was not told to trust it refuses the connection', async () => {
		await expect(post(new https.Agent({ keepAlive: false }), 'ping', false)).rejects.toThrow(
			/self[- ]signed/i,
		);
	});
});
