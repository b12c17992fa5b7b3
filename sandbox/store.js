// @ts-check
'use strict';
/**
 * The in-memory data of the emulator. One Store lives as long as the sandbox; reset() clears it IN PLACE
 * (arrays emptied, maps cleared) so references held by tests stay live.
 *
 * Per-user records (contacts, templates, media) carry their owner as a NON-enumerable `userId` property:
 * readable by tests, never serialised into API answers.
 */
const { seedUsers, seedDemo } = require('./seed');

/**
 * @typedef {import('./context').User} User
 * @typedef {Record<string, any> & { id: number, userId: number }} Contact
 * @typedef {'DRAFT' | 'PENDING' | 'APPROVED' | 'REJECTED'} TemplateState
 * @typedef {Record<string, any> & { id: number, name: string, state: TemplateState, userId: number }} Template
 * @typedef {{ media_id: string, filename: string, mimetype: string, size: number, created_at: string,
 *   used_by: number[], userId: number }} Media
 * @typedef {Record<string, any> & { id: string | number, name: string, created_at: string, updated_at: string }} Product
 * @typedef {Record<string, any> & { order_id: string, status: string, created_at: string, updated_at: string,
 *   created_ms: number }} Order
 * @typedef {{ byId: Map<string, Order>, list: Order[], sorted: boolean }} OrderBook
 * @typedef {{ id: number, name: string, trigger: string, userId: number }} Automation
 * @typedef {{ userId: number, body: any, at: number }} EventRecord
 * @typedef {{ userId: number, username: string, at: number }} LoginRecord
 * @typedef {'demo' | 'empty'} SeedName
 */

/**
 * @template {object} T
 * @param {T} obj
 * @param {number} userId
 * @returns {T & { userId: number }}
 */
function owned(obj, userId) {
	Object.defineProperty(obj, 'userId', { value: userId, enumerable: false, writable: false });
	return /** @type {T & { userId: number }} */ (obj);
}

class Store {
	constructor() {
		/** @type {User[]} */ this.users = [];
		/** @type {Contact[]} all users' contacts, creation order */ this.contacts = [];
		/** @type {Map<number, Template>} */ this.templates = new Map();
		/** @type {Map<string, Media>} */ this.media = new Map();
		/** @type {Map<number, Map<string, Product>>} userId -> productId (as string) -> product */
		this.products = new Map();
		/** @type {Map<number, OrderBook>} userId -> order history */ this.orders = new Map();
		/** @type {Map<number, Automation>} automation definitions (not listable over the API) */
		this.automations = new Map();
		/** @type {EventRecord[]} */ this.orderEvents = [];
		/** @type {EventRecord[]} */ this.cartEvents = [];
		/** @type {Array<Record<string, any> & { userId: number, at: number }>} */ this.automationInstances = [];
		/** @type {Array<Record<string, any> & { type: 'whatsapp' | 'template', userId: number, at: number }>} */
		this.messages = [];
		/** @type {LoginRecord[]} */ this.logins = [];
		/** @type {import('./context').RequestLogEntry[]} */ this.requests = [];
		this.stats = { earlyRetries: 0, rateLimited: 0 };
		/** @type {Map<number, Contact[]>} */ this._contactsByUser = new Map();
		/** @type {Map<number, User>} */ this._usersById = new Map();
		/** @type {Map<string, User>} */ this._usersByName = new Map();
		/** @type {Record<string, number>} */ this._seq = {};
		this._lastOrderMs = 0;
	}

	/**
	 * Empties everything in place and seeds again.
	 * @param {SeedName} [seed]
	 */
	reset(seed = 'demo') {
		for (const arr of [this.users, this.contacts, this.orderEvents, this.cartEvents, this.automationInstances,
			this.messages, this.logins, this.requests]) arr.length = 0;
		for (const map of [this.templates, this.media, this.products, this.orders, this.automations,
			this._contactsByUser, this._usersById, this._usersByName]) map.clear();
		this.stats.earlyRetries = 0;
		this.stats.rateLimited = 0;
		this._seq = {};
		this._lastOrderMs = 0;
		seedUsers(this);
		if (seed === 'demo') seedDemo(this);
		else if (seed !== 'empty') throw new Error(`unknown seed "${String(seed)}" (demo or empty)`);
	}

	/** @param {string} kind */
	nextId(kind) {
		this._seq[kind] = (this._seq[kind] ?? 0) + 1;
		return this._seq[kind];
	}

	// ---- users

	/**
	 * @param {{ username: string, password: string, apiAccess?: boolean, pluginKey?: string | null }} spec
	 * @returns {User}
	 */
	addUser({ username, password, apiAccess = true, pluginKey = null }) {
		if (!username || !password) throw new Error('addUser needs username and password');
		if (this._usersByName.has(username)) throw new Error(`user ${username} exists`);
		const user = { id: this.nextId('user'), username, password, apiAccess, pluginKey };
		this.users.push(user);
		this._usersById.set(user.id, user);
		this._usersByName.set(username, user);
		return user;
	}

	/** @param {number} id */
	userById(id) {
		return this._usersById.get(id);
	}

	/** @param {string} username */
	userByName(username) {
		return this._usersByName.get(username);
	}

	// ---- contacts

	/**
	 * @param {number} userId
	 * @param {Record<string, any>} fields
	 * @param {string} createdAt
	 */
	addContact(userId, fields, createdAt) {
		const contact = owned({
			firstname: null, lastname: null, email: null, ...fields,
			id: this.nextId('contact'), created_at: createdAt,
		}, userId);
		this.contacts.push(contact);
		this.contactsOf(userId).push(contact);
		return contact;
	}

	/** @param {number} userId @returns {Contact[]} */
	contactsOf(userId) {
		let list = this._contactsByUser.get(userId);
		if (!list) this._contactsByUser.set(userId, (list = []));
		return list;
	}

	// ---- templates

	/**
	 * @param {number} userId
	 * @param {Record<string, any>} fields
	 * @param {TemplateState} state
	 * @param {string} createdAt
	 */
	addTemplate(userId, fields, state, createdAt) {
		/** @type {Template} */
		const tpl = owned({
			language: null, category: null, header_type: null, ...fields,
			id: this.nextId('template'), name: String(fields.name), state, created_at: createdAt, updated_at: createdAt,
		}, userId);
		this.templates.set(tpl.id, tpl);
		return tpl;
	}

	/**
	 * A template visible to this user (another user's template is "not found").
	 * @param {number} userId
	 * @param {number} id
	 */
	templateOf(userId, id) {
		const tpl = this.templates.get(id);
		return tpl && tpl.userId === userId ? tpl : undefined;
	}

	// ---- media

	/**
	 * @param {number} userId
	 * @param {{ filename: string, mimetype: string, size: number }} file
	 * @param {string} mediaId
	 * @param {string} createdAt
	 */
	addMedia(userId, file, mediaId, createdAt) {
		const media = owned({ media_id: mediaId, ...file, created_at: createdAt, used_by: /** @type {number[]} */ ([]) }, userId);
		this.media.set(mediaId, media);
		return media;
	}

	// ---- products

	/** @param {number} userId @returns {Map<string, Product>} */
	productsOf(userId) {
		let map = this.products.get(userId);
		if (!map) this.products.set(userId, (map = new Map()));
		return map;
	}

	// ---- orders

	/** @param {number} userId @returns {OrderBook} */
	orderBook(userId) {
		let book = this.orders.get(userId);
		if (!book) this.orders.set(userId, (book = { byId: new Map(), list: [], sorted: true }));
		return book;
	}

	/**
	 * Upserts the history record of an order event: created_at when first seen, updated_at every time.
	 * @param {number} userId
	 * @param {Record<string, any>} body
	 * @param {number} atMs
	 * @returns {Order}
	 */
	upsertOrder(userId, body, atMs) {
		const book = this.orderBook(userId);
		const iso = new Date(atMs).toISOString();
		const existing = book.byId.get(body.order_id);
		if (existing) {
			for (const key of Object.keys(body)) {
				if (key !== '__proto__' && key !== 'created_at') existing[key] = body[key];
			}
			existing.updated_at = iso;
			return existing;
		}
		/** @type {Order} */
		const order = /** @type {any} */ ({ ...body, created_at: iso, updated_at: iso });
		Object.defineProperty(order, 'created_ms', { value: atMs, enumerable: false });
		book.byId.set(body.order_id, order);
		const last = book.list[book.list.length - 1];
		if (last && (last.created_ms > atMs || (last.created_ms === atMs && last.order_id < order.order_id))) book.sorted = false;
		book.list.push(order);
		return order;
	}

	/**
	 * Orders of a user, newest first by created_at, ties by order_id (ascending).
	 * @param {number} userId
	 * @returns {Order[]} oldest first; read it backwards for newest first
	 */
	ordersAscending(userId) {
		const book = this.orderBook(userId);
		if (!book.sorted) {
			book.list.sort((a, b) => a.created_ms - b.created_ms || (a.order_id < b.order_id ? 1 : a.order_id > b.order_id ? -1 : 0));
			book.sorted = true;
		}
		return book.list;
	}

	/** A timestamp for a new order that never goes backwards. */
	orderClock() {
		this._lastOrderMs = Math.max(Date.now(), this._lastOrderMs);
		return this._lastOrderMs;
	}

	// ---- automations

	/** @param {number} userId @param {string} name @param {string} trigger */
	addAutomation(userId, name, trigger) {
		const a = owned({ id: this.nextId('automation'), name, trigger }, userId);
		this.automations.set(a.id, a);
		return a;
	}
}

module.exports = { Store, owned };
