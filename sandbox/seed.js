// @ts-check
'use strict';
/**
 * Seed data. 'empty': the three users only. 'demo': users plus the demo account's data
 * (45 contacts, 3 automations, 25 products, 5 orders, 3 templates) and a little data for other@shop.test.
 * Timestamps are fixed (in the past) so the seed is deterministic.
 */

const DEMO_USERS = [
	{ username: 'demo@shop.test', password: 'demo-password', apiAccess: true, pluginKey: 'demo-plugin-key' },
	{ username: 'noaccess@shop.test', password: 'noaccess-password', apiAccess: false, pluginKey: null },
	{ username: 'other@shop.test', password: 'other-password', apiAccess: true, pluginKey: 'other-plugin-key' },
];

const FIRST = ['Alice', 'Bruno', 'Chloe', 'David', 'Emma', 'Farid', 'Giulia', 'Hugo', 'Ines'];
const LAST = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert'];
const PRODUCTS = ['T-shirt', 'Hoodie', 'Cap', 'Sneakers', 'Backpack'];
const COLOURS = ['black', 'white', 'navy', 'red', 'green'];
const BASE_MS = Date.parse('2025-01-06T09:00:00.000Z');
const HOUR = 3600_000;

/** @param {number} ms */
const iso = (ms) => new Date(ms).toISOString();

/** @param {import('./store').Store} store */
function seedUsers(store) {
	for (const u of DEMO_USERS) store.addUser(u);
}

/** @param {import('./store').Store} store */
function seedDemo(store) {
	const demo = /** @type {import('./context').User} */ (store.userByName('demo@shop.test'));
	const other = /** @type {import('./context').User} */ (store.userByName('other@shop.test'));

	for (let i = 1; i <= 45; i++) {
		const firstname = FIRST[(i - 1) % FIRST.length];
		const lastname = LAST[(i - 1) % LAST.length];
		store.addContact(demo.id, {
			firstname, lastname,
			phone: `+336100${String(i).padStart(5, '0')}`,
			email: `${firstname.toLowerCase()}.${lastname.toLowerCase()}.${i}@example.test`,
		}, iso(BASE_MS + i * HOUR));
	}

	store.addAutomation(demo.id, 'Order paid: thank-you WhatsApp', 'order_paid');
	store.addAutomation(demo.id, 'Abandoned cart recovery', 'cart_abandoned');
	store.addAutomation(demo.id, 'CRM tag added: welcome flow', 'crm_tag_added');

	const products = store.productsOf(demo.id);
	for (let i = 1; i <= 25; i++) {
		const id = 1000 + i;
		const at = iso(BASE_MS + i * 60_000);
		products.set(String(id), {
			id,
			name: `${PRODUCTS[(i - 1) % PRODUCTS.length]} ${COLOURS[Math.floor((i - 1) / PRODUCTS.length) % COLOURS.length]}`,
			price: Math.round((9.9 + i * 3.5) * 100) / 100,
			sku: `SKU-${id}`,
			stock: (i * 7) % 40,
			created_at: at,
			updated_at: at,
		});
	}

	const orders = [
		['ORD-1001', 'paid', 0], ['ORD-1002', 'shipped', 30], ['ORD-1003', 'pending', 60],
		['ORD-1004', 'cancelled', 90], ['ORD-1005', 'paid', 120],
	];
	for (const [orderId, status, hours] of orders) {
		store.upsertOrder(demo.id, { order_id: orderId, status, total: 49.9, currency: 'EUR' }, BASE_MS + Number(hours) * HOUR);
	}

	const t0 = iso(BASE_MS);
	const approved = store.addTemplate(demo.id, {
		name: 'order_confirmation', language: 'en', category: 'UTILITY', header_type: 'IMAGE',
		body: 'Hello {{1}}, your order {{2}} is confirmed. Thank you!',
	}, 'APPROVED', t0);
	approved.submitted_at = t0;
	approved.reviewed_at = t0;
	store.addTemplate(demo.id, {
		name: 'welcome_offer', language: 'en', category: 'MARKETING', body: 'Welcome {{1}}! Here is 10% off: {{2}}',
	}, 'DRAFT', t0);
	// Stays PENDING until a test approves or rejects it (no review timer for seeded templates).
	const pending = store.addTemplate(demo.id, {
		name: 'cart_reminder', language: 'en', category: 'MARKETING', body: 'Hi {{1}}, you left items in your cart.',
	}, 'PENDING', t0);
	pending.submitted_at = t0;

	store.addContact(other.id, { firstname: 'Olga', lastname: 'Other', phone: '+4915112345678', email: 'olga@example.test' }, t0);
	store.addContact(other.id, { firstname: 'Omar', lastname: 'Other', phone: '+4915112345679', email: 'omar@example.test' }, t0);
	store.addAutomation(other.id, 'Other account: order paid', 'order_paid');
}

module.exports = { seedUsers, seedDemo, DEMO_USERS };
