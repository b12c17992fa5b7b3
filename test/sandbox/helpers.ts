/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-explicit-any -- test code: runs in jest, not inside n8n, and reads the emulator's JSON answers untyped */
/** Shared helpers for the sandbox's own tests: real HTTP with the global fetch. */
import { startSandbox } from '../../sandbox';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
export type SandboxOptions = Parameters<typeof startSandbox>[0];

export const DEMO = { username: 'demo@shop.test', password: 'demo-password' };
export const NOACCESS = { username: 'noaccess@shop.test', password: 'noaccess-password' };
export const OTHER = { username: 'other@shop.test', password: 'other-password' };
export const PLUGIN = {
	'x-api-key': 'demo-plugin-key',
	'x-platform-type': 'woocommerce',
	'x-base-uri': 'https://shop.example',
};

export interface Res {
	status: number;
	headers: Headers;
	text: string;
	json: any;
}

export async function start(options: SandboxOptions = {}): Promise<Sandbox> {
	return startSandbox({ port: 0, ...options });
}

/** One HTTP call; a plain-object body is sent as JSON. */
export async function call(
	sb: Sandbox,
	method: string,
	path: string,
	opts: {
		token?: string;
		body?: unknown;
		headers?: Record<string, string>;
		raw?: BodyInit;
		redirect?: RequestRedirect;
	} = {},
): Promise<Res> {
	const headers: Record<string, string> = { ...(opts.headers ?? {}) };
	if (opts.token) headers.authorization = `Bearer ${opts.token}`;
	let body: BodyInit | undefined = opts.raw;
	if (opts.body !== undefined) {
		body = JSON.stringify(opts.body);
		headers['content-type'] ??= 'application/json';
	}
	const res = await fetch(sb.url + path, { method, headers, body, redirect: opts.redirect });
	const text = await res.text();
	let json: any;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

export async function login(
	sb: Sandbox,
	user: { username: string; password: string } = DEMO,
): Promise<string> {
	const res = await call(sb, 'POST', '/api/login_check', { body: user });
	if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
	return res.json.token;
}

/** A client bound to one token. */
export function client(sb: Sandbox, token: string) {
	return (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
		call(sb, method, path, { token, body, headers });
}

export function expectJsendError(res: Res, status: number, code: string): void {
	expect({ status: res.status, jsend: res.json?.status, code: res.json?.code }).toEqual({
		status,
		jsend: 'error',
		code,
	});
	expect(typeof res.json.message).toBe('string');
	expect(res.json).toHaveProperty('data');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function decodeJwt(token: string): Record<string, any> {
	return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}
