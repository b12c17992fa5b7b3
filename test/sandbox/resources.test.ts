/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-explicit-any -- test code: runs in jest, not inside n8n, and reads the emulator's JSON answers untyped */
import { client, expectJsendError, login, OTHER, Sandbox, start } from './helpers';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('sandbox: contacts, messages, orders, carts, automations', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	let demoId: number;
	beforeAll(async () => {
		sb = await start();
		api = client(sb, await login(sb));
		demoId = sb.state.userByName('demo@shop.test')!.id;
	});
	afterAll(async () => {
		await sb.close();
	});

	describe('contacts (C1, E3)', () => {
		it('E3: a contact with only firstname -> 422 VALIDATION_ERROR with a violation on phone', async () => {
			const res = await api('POST', '/api/contacts/', { firstname: 'Ann' });
			expectJsendError(res, 422, 'VALIDATION_ERROR');
			expect(res.json.data.violations).toEqual([
				{ propertyPath: 'phone', message: 'This value should not be blank.' },
			]);
			expect(res.json.message).toContain('phone');
		});

		it('C1: an invalid phone -> 422 INVALID_PHONE naming the number', async () => {
			const res = await api('POST', '/api/contacts/', { firstname: 'Ann', phone: '0612345678' });
			expectJsendError(res, 422, 'INVALID_PHONE');
			expect(res.json.message).toContain('0612345678');
		});

		it('C1: creates a contact: 201, integer id, ISO created_at, extra fields kept; listed last', async () => {
			const res = await api('POST', '/api/contacts/', {
				firstname: 'Ann',
				phone: '+33612345678',
				tags: ['vip'],
				id: 999,
			});
			expect(res.status).toBe(201);
			expect(res.json.status).toBe('success');
			const c = res.json.data;
			expect(c).toMatchObject({
				firstname: 'Ann',
				lastname: null,
				phone: '+33612345678',
				email: null,
				tags: ['vip'],
			});
			expect(Number.isInteger(c.id)).toBe(true);
			expect(c.id).not.toBe(999);
			expect(c.created_at).toMatch(ISO);
			const list = await api('GET', '/api/contacts/?currentPage=3&page=3&limit=20');
			expect(list.json.data.total).toBe(46);
			expect(list.json.data.items.at(-1)).toEqual(c);
			expect(sb.state.contacts.at(-1)!.userId).toBe(demoId);
		});
	});

	describe('WhatsApp message (C2)', () => {
		it('C2: 201 {message_id, phone, status:"queued"}, recorded', async () => {
			const res = await api('POST', '/api/whatsapp/', { phone: '+33612345678', message: 'Hello' });
			expect(res.status).toBe(201);
			expect(res.json.data).toEqual({
				message_id: expect.any(String),
				phone: '+33612345678',
				status: 'queued',
			});
			expect(sb.state.messages.at(-1)).toMatchObject({
				type: 'whatsapp',
				userId: demoId,
				phone: '+33612345678',
				message: 'Hello',
			});
		});

		it('C2: invalid phone -> 422 INVALID_PHONE; missing message -> 422 VALIDATION_ERROR', async () => {
			const n = sb.state.messages.length;
			expectJsendError(
				await api('POST', '/api/whatsapp/', { phone: '+1', message: 'x' }),
				422,
				'INVALID_PHONE',
			);
			const missing = await api('POST', '/api/whatsapp/', { phone: '+33612345678' });
			expectJsendError(missing, 422, 'VALIDATION_ERROR');
			expect(missing.json.data.violations[0].propertyPath).toBe('message');
			expect(sb.state.messages.length).toBe(n);
		});
	});

	describe('order events and history (V1, V4)', () => {
		it('V1: 201 {order_id, status, received_at}; every event is recorded (no dedup), history upserted', async () => {
			const n = sb.state.orderEvents.length;
			const first = await api('POST', '/api/v1/order/', {
				order_id: 'A-1',
				status: 'pending',
				total: 10,
			});
			expect(first.status).toBe(201);
			expect(first.json.data).toEqual({
				order_id: 'A-1',
				status: 'pending',
				received_at: expect.stringMatching(ISO),
			});
			await new Promise((r) => setTimeout(r, 5));
			await api('POST', '/api/v1/order/', { order_id: 'A-1', status: 'paid' });
			await api('POST', '/api/v1/order/', { order_id: 'A-1', status: 'paid' });
			expect(sb.state.orderEvents.slice(n).map((e) => e.body.status)).toEqual([
				'pending',
				'paid',
				'paid',
			]);
			expect(sb.state.orderEvents.at(-1)).toMatchObject({
				userId: demoId,
				body: { order_id: 'A-1', status: 'paid' },
			});
			const history = await api('GET', '/api/v1/order/history/?limit=1');
			const order = history.json.data.results[0];
			expect(order).toMatchObject({ order_id: 'A-1', status: 'paid', total: 10 });
			expect(order.created_at).toBe(first.json.data.received_at);
			expect(order.updated_at > order.created_at).toBe(true);
		});

		it('V1: order_id and status are required strings', async () => {
			const n = sb.state.orderEvents.length;
			const res = await api('POST', '/api/v1/order/', { order_id: 12 });
			expectJsendError(res, 422, 'VALIDATION_ERROR');
			expect(res.json.data.violations.map((v: any) => v.propertyPath)).toEqual([
				'order_id',
				'status',
			]);
			expect(sb.state.orderEvents.length).toBe(n);
		});

		it('V1: history is newest first (ties by order_id) and filters on status, date_from, date_to', async () => {
			await api('POST', '/api/v1/order/', { order_id: 'B-2', status: 'shipped' });
			await api('POST', '/api/v1/order/', { order_id: 'B-1', status: 'shipped' });
			const all = (await api('GET', '/api/v1/order/history/?limit=100')).json.data.results;
			for (let i = 1; i < all.length; i++) {
				const [a, b] = [all[i - 1], all[i]];
				expect(
					a.created_at > b.created_at || (a.created_at === b.created_at && a.order_id < b.order_id),
				).toBe(true);
			}
			const shipped = (await api('GET', '/api/v1/order/history/?status=shipped')).json.data.results;
			expect(shipped.map((o: any) => o.order_id).sort()).toEqual(['B-1', 'B-2', 'ORD-1002']);
			const window = (
				await api('GET', '/api/v1/order/history/?date_from=2025-01-07T00:00:00Z&date_to=2025-01-10')
			).json.data.results;
			expect(window.map((o: any) => o.order_id)).toEqual(['ORD-1004', 'ORD-1003', 'ORD-1002']);
			expectJsendError(
				await api('GET', '/api/v1/order/history/?date_from=yesterday'),
				400,
				'VALIDATION_ERROR',
			);
		});
	});

	describe('cart events (V2)', () => {
		it('V2: 201 {cart_id, total, recovery:"scheduled"}, customer references optional, recorded', async () => {
			const res = await api('POST', '/api/v1/cart/', {
				cart_id: 'C-1',
				total: 59.9,
				customer: { phone: '+33612345678', email: 'a@b.test', contact_id: 3 },
			});
			expect(res.status).toBe(201);
			expect(res.json.data).toEqual({ cart_id: 'C-1', total: 59.9, recovery: 'scheduled' });
			expect(sb.state.cartEvents.at(-1)).toMatchObject({
				userId: demoId,
				body: { cart_id: 'C-1', total: 59.9 },
			});
			expect((await api('POST', '/api/v1/cart/', { cart_id: 'C-2', total: 0 })).status).toBe(201);
		});

		it('V2: total as a numeric string -> 422 naming total; missing cart_id -> 422; bad customer phone -> INVALID_PHONE', async () => {
			const n = sb.state.cartEvents.length;
			const str = await api('POST', '/api/v1/cart/', { cart_id: 'C-3', total: '12.50' });
			expectJsendError(str, 422, 'VALIDATION_ERROR');
			expect(str.json.message).toContain('total');
			expect(str.json.data.violations[0].propertyPath).toBe('total');
			expectJsendError(await api('POST', '/api/v1/cart/', { total: 3 }), 422, 'VALIDATION_ERROR');
			expectJsendError(
				await api('POST', '/api/v1/cart/', {
					cart_id: 'C-4',
					total: 3,
					customer: { phone: '123' },
				}),
				422,
				'INVALID_PHONE',
			);
			expectJsendError(
				await api('POST', '/api/v1/cart/', { cart_id: 'C-4', total: 3, customer: 'bob' }),
				422,
				'VALIDATION_ERROR',
			);
			expect(sb.state.cartEvents.length).toBe(n);
		});
	});

	describe('automation instances (V3)', () => {
		it('V3: 201 {instance_id, automation_id, status:"started", payload}', async () => {
			const res = await api('POST', '/api/v1/automations/instances/', {
				automation_id: 2,
				payload: { cart_id: 'C-1' },
			});
			expect(res.status).toBe(201);
			expect(res.json.data).toEqual({
				instance_id: expect.any(Number),
				automation_id: 2,
				status: 'started',
				payload: { cart_id: 'C-1' },
			});
			const bare = await api('POST', '/api/v1/automations/instances/', { automation_id: 1 });
			expect(bare.json.data.payload).toEqual({});
			expect(sb.state.automationInstances.at(-1)).toMatchObject({
				automation_id: 1,
				userId: demoId,
			});
		});

		it.each([
			[{}, 'automation_id'],
			[{ automation_id: '1' }, 'automation_id'],
			[{ automation_id: 1.5 }, 'automation_id'],
			[{ automation_id: 1, payload: [1] }, 'payload'],
			[{ automation_id: 1, payload: 'x' }, 'payload'],
			[{ automation_id: 1, payload: null }, 'payload'],
		])('V3: %j -> 422 VALIDATION_ERROR on %s', async (body, field) => {
			const res = await api('POST', '/api/v1/automations/instances/', body);
			expectJsendError(res, 422, 'VALIDATION_ERROR');
			expect(res.json.data.violations[0].propertyPath).toBe(field);
		});

		it("V3: an unknown automation, or another user's, -> 404 NOT_FOUND", async () => {
			expectJsendError(
				await api('POST', '/api/v1/automations/instances/', { automation_id: 999 }),
				404,
				'NOT_FOUND',
			);
			expectJsendError(
				await api('POST', '/api/v1/automations/instances/', { automation_id: 4 }),
				404,
				'NOT_FOUND',
			);
			const other = client(sb, await login(sb, OTHER));
			expect(
				(await other('POST', '/api/v1/automations/instances/', { automation_id: 4 })).status,
			).toBe(201);
			expectJsendError(
				await other('POST', '/api/v1/automations/instances/', { automation_id: 1 }),
				404,
				'NOT_FOUND',
			);
		});
	});
});
