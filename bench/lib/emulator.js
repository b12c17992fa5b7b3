'use strict';
/**
 * The emulator in its own process (child_process.fork), so it never shares an event loop or a heap with a
 * contender. The parent drives it over IPC: {id, cmd, args} -> {id, ok, result | error}.
 * Counters are read from the emulator's own store (request log, logins, rate-limit stats, received events).
 */
const { startSandbox } = require('../../sandbox');
const { serve } = require('./ipc');

let sandbox;
let cpuAtClear = process.cpuUsage();
let clearedAt = Date.now();

const commands = {
	async start(options) {
		sandbox = await startSandbox({ port: 0, seed: 'empty', recordRequests: true, reviewDelayMs: null, ...options });
		return { url: sandbox.url, pid: process.pid };
	},
	setConfig(patch) {
		return sandbox.setConfig(patch);
	},
	reset(seed = 'empty') {
		sandbox.reset(seed);
		return true;
	},
	/** n contacts for one user, as if created through the API (the store's own addContact). */
	seedContacts({ username, count }) {
		const store = sandbox.state;
		const user = store.userByName(username);
		const createdAt = new Date().toISOString();
		for (let i = 0; i < count; i++) {
			store.addContact(
				user.id,
				{ firstname: `First${i}`, lastname: `Last${i}`, phone: `+4915${String(100000000 + i)}`, email: `c${i}@shop.test` },
				createdAt,
			);
		}
		return store.contactsOf(user.id).length;
	},
	/** Every token issued so far is refused from now on (401 "Invalid JWT Signature"): the next run starts without one. */
	rotateSigningKey() {
		sandbox.rotateSigningKey();
		return true;
	},
	/** Forget what earlier runs sent: request log, logins, rate-limit buckets and stats, events, messages. */
	clearCounters() {
		const store = sandbox.state;
		for (const list of [store.requests, store.logins, store.orderEvents, store.cartEvents, store.messages]) list.length = 0;
		store.stats.earlyRetries = 0;
		store.stats.rateLimited = 0;
		// Rate-limit buckets start full for every run (setConfig with rateLimit resets them).
		sandbox.setConfig({ rateLimit: sandbox.config.rateLimit });
		cpuAtClear = process.cpuUsage();
		clearedAt = Date.now();
		return true;
	},
	counters() {
		const store = sandbox.state;
		const byStatus = {};
		let first = Infinity;
		let last = 0;
		for (const entry of store.requests) {
			byStatus[entry.status] = (byStatus[entry.status] ?? 0) + 1;
			if (entry.at < first) first = entry.at;
			if (entry.at > last) last = entry.at;
		}
		const orderEvents = new Set(store.orderEvents.map((e) => `${e.body.order_id}\u0000${e.body.status}`));
		const messages = new Set(store.messages.map((m) => m.message));
		// Orders whose events arrived in another order than sent (shipped before paid): the service then keeps
		// the older status as the order's current one.
		const firstStatus = new Map();
		let outOfOrder = 0;
		for (const { body } of store.orderEvents) {
			if (!firstStatus.has(body.order_id)) firstStatus.set(body.order_id, body.status);
			else if (firstStatus.get(body.order_id) === 'shipped' && body.status === 'paid') outOfOrder++;
		}
		const cpu = process.cpuUsage(cpuAtClear);
		return {
			requests: store.requests.length,
			byStatus,
			logins: store.logins.length,
			earlyRetries: store.stats.earlyRetries,
			rateLimited: store.stats.rateLimited,
			orderEvents: store.orderEvents.length,
			distinctOrderEvents: orderEvents.size,
			outOfOrder,
			messages: store.messages.length,
			distinctMessages: messages.size,
			cpuMs: (cpu.user + cpu.system) / 1000,
			sinceClearMs: Date.now() - clearedAt,
			firstRequestAt: store.requests.length ? first : null,
			lastRequestAt: store.requests.length ? last : null,
			rssMb: process.memoryUsage().rss / 1048576,
		};
	},
	async close() {
		await sandbox?.close();
		setImmediate(() => process.exit(0));
		return true;
	},
};

serve(commands);
