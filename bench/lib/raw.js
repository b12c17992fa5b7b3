'use strict';
/**
 * The floors: a script with a plain keep-alive HTTP client (undici) making exactly the calls the job needs: one
 * login, then one request per item (or per page of 1000, the largest page the service serves). Two of them:
 *  - `raw`: as many requests in flight as the node's default Concurrency, with the same rules as the node (one
 *    order's events one after the other, in order; one login shared by all lanes; a Retry-After holds every lane;
 *    after page 1 of a list with a total, the other pages side by side);
 *  - `rawSequential`: one request at a time, like a plain loop over n8n items.
 * Both renew the token before it expires (from the JWT, same margin as the node) and wait exactly Retry-After.
 */
const { Pool } = require('undici');

const PAGE_SIZE = 1000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

class RawClient {
	/** `ca`: a certificate to trust for an https Base URL (the bench's wire serves a self-signed one). */
	constructor(baseUrl, user, connections, ca) {
		this.pool = new Pool(baseUrl, { connections, pipelining: 1, keepAliveTimeout: 60_000, ...(ca ? { connect: { ca } } : {}) });
		this.user = user;
		this.token = '';
		this.renewAt = 0;
		this.logins = 0;
		this.loginInFlight = undefined;
		this.pausedUntil = 0;
	}

	async send(method, path, body, auth = true) {
		const headers = { accept: 'application/json' };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (auth) headers.authorization = `Bearer ${this.token}`;
		const response = await this.pool.request({
			method,
			path,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.body.text();
		return { status: response.statusCode, headers: response.headers, json: text ? JSON.parse(text) : {} };
	}

	/** One login for every lane: a lane that finds one in flight waits for it. */
	async login() {
		if (!this.loginInFlight) {
			this.loginInFlight = (async () => {
				const { status, json } = await this.send('POST', '/api/login_check', { username: this.user.username, password: this.user.password }, false);
				if (status !== 200 || !json.token) throw new Error(`login failed: HTTP ${status}`);
				this.token = json.token;
				this.logins++;
				const claims = JSON.parse(Buffer.from(json.token.split('.')[1], 'base64url').toString('utf8'));
				const lifetime = (claims.exp - claims.iat) * 1000;
				this.renewAt = claims.exp * 1000 - Math.min(60_000, lifetime / 10);
			})().finally(() => (this.loginInFlight = undefined));
		}
		await this.loginInFlight;
	}

	/** One API call: token renewed first when due; 429 holds every lane for Retry-After; a refused token logs in once. */
	async call(method, path, body) {
		let relogged = false;
		for (;;) {
			if (this.pausedUntil > Date.now()) {
				await sleep(this.pausedUntil - Date.now());
				continue;
			}
			if (this.loginInFlight || !this.token || Date.now() >= this.renewAt) await this.login();
			const sentWith = this.token;
			const response = await this.send(method, path, body);
			if (response.status === 429) {
				const seconds = Number(response.headers['retry-after'] ?? 1);
				this.pausedUntil = Math.max(this.pausedUntil, Date.now() + seconds * 1000);
				continue;
			}
			if (response.status === 401 && !relogged) {
				relogged = true;
				if (this.token === sentWith) this.token = '';
				continue;
			}
			if (response.status < 200 || response.status >= 300 || response.json.status !== 'success') {
				throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(response.json).slice(0, 200)}`);
			}
			return response.json.data;
		}
	}

	close() {
		return this.pool.close();
	}
}

/** `count` tasks, at most `concurrency` at once, tasks with the same key one after the other in input order. */
async function inLanes(count, concurrency, keyOf, run) {
	let free = concurrency;
	const waiting = [];
	const acquire = () => (free > 0 ? (free--, Promise.resolve()) : new Promise((resolve) => waiting.push(resolve)));
	const release = () => (waiting.length ? waiting.shift()() : free++);
	const lastOfKey = new Map();
	const tasks = [];
	for (let i = 0; i < count; i++) {
		const key = keyOf(i);
		const previous = key === undefined ? undefined : lastOfKey.get(key);
		const task = (async () => {
			if (previous) await previous;
			await acquire();
			try {
				await run(i);
			} finally {
				release();
			}
		})();
		if (key !== undefined) lastOfKey.set(key, task);
		tasks.push(task);
	}
	await Promise.all(tasks);
}

/** @returns {Promise<{outputs: number, pageSize?: number, concurrency: number}>} */
async function runRaw({ job, url, user, items, concurrency = 1, ca }) {
	const client = new RawClient(url, user, concurrency, ca);
	let outputs = 0;
	try {
		if (job.kind === 'orders') {
			await inLanes(items.length, concurrency, (i) => items[i].json.orderId, async (i) => {
				const { json } = items[i];
				await client.call('POST', '/api/v1/order/', { order_id: json.orderId, status: json.status });
				outputs++;
			});
		} else if (job.kind === 'whatsapp') {
			// The node's pacing: batch k starts k intervals after the first (a rate across lanes, rule L2).
			const started = Date.now();
			await inLanes(items.length, concurrency, () => undefined, async (i) => {
				await sleep(started + Math.floor(i / job.batch.size) * job.batch.intervalMs - Date.now());
				await client.call('POST', '/api/whatsapp/', { phone: items[i].json.phone, message: items[i].json.message });
				outputs++;
			});
		} else if (job.kind === 'contacts') {
			const page = (n) => client.call('GET', `/api/contacts/?currentPage=${n}&page=${n}&limit=${PAGE_SIZE}`);
			const first = await page(1);
			outputs += first.items.length;
			const pages = Math.ceil(first.total / PAGE_SIZE);
			if (concurrency > 1 && Number.isFinite(pages)) {
				await inLanes(Math.max(0, pages - 1), concurrency, () => undefined, async (i) => {
					outputs += (await page(i + 2)).items.length;
				});
			} else {
				for (let n = 2, received = first.items.length; received < first.total; n++) {
					const data = await page(n);
					if (!data.items.length) break;
					received += data.items.length;
					outputs += data.items.length;
				}
			}
			return { outputs, pageSize: PAGE_SIZE, clientLogins: client.logins, concurrency };
		}
		return { outputs, clientLogins: client.logins, concurrency };
	} catch (error) {
		return { outputs, clientLogins: client.logins, concurrency, error: String(error.message ?? error) };
	} finally {
		await client.close();
	}
}

module.exports = { runRaw };
