/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- engine-harness code: runs in jest, not inside n8n */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { MAX_TOKEN_LENGTH } from '../../transport/settings';

/**
 * A loopback server that behaves as a hostile or broken service would, one handler per test: it drips, hangs,
 * answers huge or odd tokens. The login is answered with a well-formed JWT unless the handler takes it. It records
 * every request (method, path, whether it carried a token) and when the client closed its connection.
 */
export interface HostileRequest {
	method: string;
	path: string;
	authorization?: string;
	at: number;
	/** When the client closed the connection (or the answer was finished): set once known. */
	closedAt?: number;
	/** Bytes of the answer written before the connection closed. */
	written: number;
}

export type HostileHandler = (
	request: IncomingMessage,
	response: ServerResponse,
	log: HostileRequest,
) => boolean | Promise<boolean>;

export interface HostileServer {
	url: string;
	requests: HostileRequest[];
	/** Requests other than the login. */
	calls(): HostileRequest[];
	logins(): HostileRequest[];
	close(): Promise<void>;
}

/** A JWT the node can read times from (the signature is not checked by the node). */
export function fakeJwt(ttlSeconds = 3600, now = Date.now()): string {
	const iat = Math.floor(now / 1000);
	const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
	return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iat, exp: iat + ttlSeconds, sub: 'hostile' })}.signature`;
}

const isLogin = (path: string) => /^\/api\/login_check\/?$/.test(path);

/** Whether a request a handler sees is the login (a handler that returns false for it gets the default answer). */
export const isLoginRequest = (request: IncomingMessage) =>
	isLogin((request.url ?? '').split('?')[0]);

/** Runs `body` against a hostile server with `handle`, and closes the server whatever happens. */
export async function withHostile(
	handle: HostileHandler,
	body: (server: HostileServer) => Promise<void>,
): Promise<void> {
	const server = await startHostile(handle);
	try {
		await body(server);
	} finally {
		await server.close();
	}
}

export async function startHostile(handle: HostileHandler): Promise<HostileServer> {
	const requests: HostileRequest[] = [];
	const sockets = new Set<Socket>();
	// Room for the longest session token the node accepts in a header, beside the others: Node's default would be all.
	const server: Server = createServer(
		{ maxHeaderSize: 4 * MAX_TOKEN_LENGTH },
		async (request, response) => {
			const path = (request.url ?? '').split('?')[0];
			const log: HostileRequest = {
				method: request.method ?? '',
				path,
				authorization: request.headers.authorization,
				at: Date.now(),
				written: 0,
			};
			requests.push(log);
			const write = response.write.bind(response);
			response.write = ((chunk: unknown, ...rest: unknown[]) => {
				log.written += Buffer.byteLength(chunk as string);
				return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
			}) as ServerResponse['write'];
			response.on('close', () => (log.closedAt ??= Date.now()));
			if (await handle(request, response, log)) return;
			if (isLogin(path)) {
				request.resume();
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ token: fakeJwt() }));
				return;
			}
			response.writeHead(404, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ status: 'error', code: 'NOT_FOUND', message: 'Not found' }));
		},
	);
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		calls: () => requests.filter((r) => !isLogin(r.path)),
		logins: () => requests.filter((r) => isLogin(r.path)),
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Answers `body` one byte every `intervalMs` (a slow drip), as JSON, until it is written or the client leaves. */
export function drip(response: ServerResponse, body: string, intervalMs: number): void {
	response.writeHead(200, { 'content-type': 'application/json' });
	let index = 0;
	const next = () => {
		if (response.destroyed || index >= body.length) {
			if (!response.destroyed) response.end();
			return;
		}
		response.write(body[index++]);
		setTimeout(next, intervalMs);
	};
	next();
}
