'use strict';
/**
 * Contender 1, the floor: a script with a plain keep-alive HTTP client (undici, one connection) making exactly
 * the calls the job needs: one login, then one request per item (or per page of 1000, the largest page the
 * service serves), one at a time like n8n items. It renews the token before it expires (from the JWT `exp`,
 * same margin as the node) and waits exactly Retry-After on a 429.
 */
const { Pool } = require('undici');

const PAGE_SIZE = 1000;

class RawClient {
	constructor(baseUrl, user) {
		this.pool = new Pool(baseUrl, { connections: 1, pipelining: 1, keepAliveTimeout: 60_000 });
		this.user = user;
		this.token = '';
		this.renewAt = 0;
		this.logins = 0;
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

	async login() {
		const { status, json } = await this.send('POST', '/api/login_check', { username: this.user.username, password: this.user.password }, false);
		if (status !== 200 || !json.token) throw new Error(`login failed: HTTP ${status}`);
		this.token = json.token;
		this.logins++;
		const claims = JSON.parse(Buffer.from(json.token.split('.')[1], 'base64url').toString('utf8'));
		const lifetime = (claims.exp - claims.iat) * 1000;
		this.renewAt = claims.exp * 1000 - Math.min(60_000, lifetime / 10);
	}

	/** One API call: token renewed first when due; 429 waits Retry-After; an expired token logs in once. */
	async call(method, path, body) {
		let relogged = false;
		for (;;) {
			if (!this.token || Date.now() >= this.renewAt) await this.login();
			const response = await this.send(method, path, body);
			if (response.status === 429) {
				const seconds = Number(response.headers['retry-after'] ?? 1);
				await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
				continue;
			}
			if (response.status === 401 && !relogged) {
				relogged = true;
				this.token = '';
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

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** @returns {Promise<{outputs: number, pageSize?: number}>} */
async function runRaw({ job, url, user, items }) {
	const client = new RawClient(url, user);
	const outputs = [];
	try {
		if (job.kind === 'orders') {
			for (const { json } of items) outputs.push(await client.call('POST', '/api/v1/order/', { order_id: json.orderId, status: json.status }));
		} else if (job.kind === 'whatsapp') {
			let batchStarted = Date.now();
			for (let i = 0; i < items.length; i++) {
				if (i > 0 && i % job.batch.size === 0) {
					// The node's pacing: a full pause after each batch ('end'), or batches that start an interval apart.
					await sleep(job.batch.pauseFrom === 'start' ? job.batch.intervalMs - (Date.now() - batchStarted) : job.batch.intervalMs);
					batchStarted = Date.now();
				}
				outputs.push(await client.call('POST', '/api/whatsapp/', { phone: items[i].json.phone, message: items[i].json.message }));
			}
		} else if (job.kind === 'contacts') {
			let received = 0;
			for (let page = 1; ; page++) {
				const data = await client.call('GET', `/api/contacts/?currentPage=${page}&page=${page}&limit=${PAGE_SIZE}`);
				for (const record of data.items) outputs.push(record);
				received += data.items.length;
				if (data.items.length === 0 || received >= data.total) break;
			}
			return { outputs: outputs.length, pageSize: PAGE_SIZE, clientLogins: client.logins };
		}
		return { outputs: outputs.length, clientLogins: client.logins };
	} catch (error) {
		return { outputs: outputs.length, clientLogins: client.logins, error: String(error.message ?? error) };
	} finally {
		await client.close();
	}
}

module.exports = { runRaw };
