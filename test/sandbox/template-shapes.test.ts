/* eslint-disable @typescript-eslint/no-explicit-any -- reads the emulator's JSON answers untyped */
import { call, client, expectJsendError, login, Res, Sandbox, start } from './helpers';

const ROOT = '/api/v2/whatsapp/templates';
const PHONE = '+33612345678';
const MISMATCH = '(#132000) Number of parameters does not match the expected number of params: ';

const FULL = {
	name: 'shipping_update',
	language: 'en',
	category: 'UTILITY',
	header_type: 'TEXT',
	header_text: 'Order {{1}}',
	body: 'Hi {{1}}, order {{2}} ships {{ 3 }}. Track {{2}} online.',
	footer: 'Reply STOP to opt out',
	buttons: [
		{ type: 'QUICK_REPLY', text: 'Stop' },
		{ type: 'URL', text: 'Track', url: 'https://shop.example.com/orders/{{1}}' },
		{ type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+33612345678' },
	],
};

function expectMismatch(res: Res, component: string): void {
	expectJsendError(res, 400, 'TEMPLATE_PARAMS_MISMATCH');
	expect(res.json.message.startsWith(MISMATCH)).toBe(true);
	expect(res.json.data.component).toBe(component);
}

describe('sandbox: template record shapes (templateShape)', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	beforeAll(async () => {
		sb = await start({ reviewDelayMs: null });
		api = client(sb, await login(sb));
	});
	afterEach(() => {
		sb.setConfig({ templateShape: 'flat' });
	});
	afterAll(async () => {
		await sb.close();
	});

	async function create(body: Record<string, unknown>) {
		const res = await api('POST', ROOT, body);
		expect(res.status).toBe(201);
		return res.json.data;
	}

	/** The answers of create, get, list (item) and submit for one new template. */
	async function answers(body: Record<string, unknown>) {
		const created = await create(body);
		const got = (await api('GET', `${ROOT}/${created.id}`)).json.data;
		const listed = (await api('GET', `${ROOT}?limit=1000`)).json.data.items.find(
			(t: any) => t.id === created.id,
		);
		const submitted = (await api('POST', `${ROOT}/${created.id}/submit`)).json.data;
		return { created, got, listed, submitted };
	}

	it('T5: flat (default): create, get, list and submit answer the stored fields as created', async () => {
		expect(sb.config.templateShape).toBe('flat');
		const { created, got, listed, submitted } = await answers({ ...FULL, name: 'flat_one' });
		const record = {
			...FULL,
			name: 'flat_one',
			id: created.id,
			state: 'DRAFT',
			created_at: expect.any(String),
			updated_at: expect.any(String),
		};
		expect(created).toEqual(record);
		expect(got).toEqual(record);
		expect(listed).toEqual(record);
		expect(submitted).toEqual({ ...record, state: 'PENDING', submitted_at: expect.any(String) });
	});

	it("T5: components: Meta's shape (HEADER, BODY, FOOTER, BUTTONS, examples) on create, get, list and submit", async () => {
		sb.setConfig({ templateShape: 'components' });
		const { created, got, listed, submitted } = await answers({ ...FULL, name: 'meta_one' });
		const components = [
			{
				type: 'HEADER',
				format: 'TEXT',
				text: 'Order {{1}}',
				example: { header_text: ['example_1'] },
			},
			{
				type: 'BODY',
				text: FULL.body,
				example: { body_text: [['example_1', 'example_2', 'example_3']] },
			},
			{ type: 'FOOTER', text: 'Reply STOP to opt out' },
			{
				type: 'BUTTONS',
				buttons: [
					{ type: 'QUICK_REPLY', text: 'Stop' },
					{
						type: 'URL',
						text: 'Track',
						url: 'https://shop.example.com/orders/{{1}}',
						example: ['https://shop.example.com/orders/example_1'],
					},
					{ type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+33612345678' },
				],
			},
		];
		const record = {
			id: created.id,
			name: 'meta_one',
			language: 'en',
			category: 'UTILITY',
			state: 'DRAFT',
			created_at: expect.any(String),
			updated_at: expect.any(String),
			parameter_format: 'POSITIONAL',
			components,
		};
		expect(created).toEqual(record);
		expect(got).toEqual(record);
		expect(listed).toEqual(record);
		expect(submitted).toEqual({ ...record, state: 'PENDING', submitted_at: expect.any(String) });
		for (const key of ['body', 'header_type', 'header_text', 'footer', 'buttons'])
			expect(got).not.toHaveProperty(key);
		// The store keeps the flat record.
		expect(sb.state.templates.get(created.id)).toMatchObject({
			body: FULL.body,
			header_text: 'Order {{1}}',
		});
	});

	it('T5: components: only BODY without header, footer or buttons; a media header has a format and no text; named -> NAMED', async () => {
		sb.setConfig({ templateShape: 'components' });
		const plain = await create({ name: 'meta_plain', body: 'Hello there' });
		expect(plain.components).toEqual([{ type: 'BODY', text: 'Hello there' }]);
		expect(plain.parameter_format).toBe('POSITIONAL');

		const seeded = (await api('GET', `${ROOT}?state=APPROVED`)).json.data.items.find(
			(t: any) => t.name === 'order_confirmation',
		);
		expect(seeded.components.map((c: any) => c.type)).toEqual(['HEADER', 'BODY']);
		expect(seeded.components[0]).toMatchObject({ type: 'HEADER', format: 'IMAGE' });
		expect(seeded.components[0]).not.toHaveProperty('text');
		expect(seeded).toMatchObject({
			reviewed_at: expect.any(String),
			submitted_at: expect.any(String),
		});

		const named = await create({
			name: 'meta_named',
			header_type: 'VIDEO',
			body: 'Hi {{customer_name}}, order {{order_id}}',
			buttons: [{ type: 'URL', text: 'Open', url: 'https://shop.example.com/o/{{order_id}}' }],
		});
		expect(named.parameter_format).toBe('NAMED');
		expect(named.components).toEqual([
			{ type: 'HEADER', format: 'VIDEO', example: { header_handle: [expect.any(String)] } },
			{
				type: 'BODY',
				text: 'Hi {{customer_name}}, order {{order_id}}',
				example: {
					body_text_named_params: [
						{ param_name: 'customer_name', example: 'example_customer_name' },
						{ param_name: 'order_id', example: 'example_order_id' },
					],
				},
			},
			{
				type: 'BUTTONS',
				buttons: [
					{
						type: 'URL',
						text: 'Open',
						url: 'https://shop.example.com/o/{{order_id}}',
						example: ['https://shop.example.com/o/example_order_id'],
					},
				],
			},
		]);
	});

	it('T5: components-lowercase: every type and format in lower case on create, get, list and submit', async () => {
		sb.setConfig({ templateShape: 'components-lowercase' });
		const { created, got, listed, submitted } = await answers({ ...FULL, name: 'lower_one' });
		for (const record of [created, got, listed, submitted]) {
			expect(record.components.map((c: any) => c.type)).toEqual([
				'header',
				'body',
				'footer',
				'buttons',
			]);
			expect(record.components[0]).toMatchObject({ format: 'text', text: 'Order {{1}}' });
			expect(record.components[3].buttons.map((b: any) => b.type)).toEqual([
				'quick_reply',
				'url',
				'phone_number',
			]);
			expect(record.components[3].buttons[1]).toMatchObject({
				url: 'https://shop.example.com/orders/{{1}}',
			});
			expect(record).not.toHaveProperty('body');
		}
		const seeded = (await api('GET', `${ROOT}?state=APPROVED`)).json.data.items.find(
			(t: any) => t.name === 'order_confirmation',
		);
		expect(seeded.components[0]).toMatchObject({ type: 'header', format: 'image' });
	});

	it('T5: no-text: only the server fields, name, language and category on create, get, list and submit', async () => {
		sb.setConfig({ templateShape: 'no-text' });
		const { created, got, listed, submitted } = await answers({ ...FULL, name: 'bare_one' });
		const record = {
			id: created.id,
			name: 'bare_one',
			language: 'en',
			category: 'UTILITY',
			state: 'DRAFT',
			created_at: expect.any(String),
			updated_at: expect.any(String),
		};
		expect(created).toEqual(record);
		expect(got).toEqual(record);
		expect(listed).toEqual(record);
		expect(submitted).toEqual({ ...record, state: 'PENDING', submitted_at: expect.any(String) });
		sb.rejectNow(created.id, 'Too promotional.');
		expect((await api('GET', `${ROOT}/${created.id}`)).json.data).toEqual({
			...record,
			state: 'REJECTED',
			reason: 'Too promotional.',
			submitted_at: expect.any(String),
			reviewed_at: expect.any(String),
			updated_at: expect.any(String),
		});
	});

	it('T4: delete answers {id, deleted: true} whatever the shape', async () => {
		sb.setConfig({ templateShape: 'components' });
		const tpl = await create({ name: 'del_shape', body: 'x' });
		expect((await api('DELETE', `${ROOT}/${tpl.id}`)).json.data).toEqual({
			id: tpl.id,
			deleted: true,
		});
	});

	it('T5: POST /__sandbox/config sets templateShape; an unknown value is refused', async () => {
		const ok = await call(sb, 'POST', '/__sandbox/config', { body: { templateShape: 'no-text' } });
		expect(ok.json).toMatchObject({ ok: true, config: { templateShape: 'no-text' } });
		const bad = await call(sb, 'POST', '/__sandbox/config', { body: { templateShape: 'meta' } });
		expect(bad.status).toBe(400);
		expect(bad.json.error).toContain('templateShape');
		expect(sb.config.templateShape).toBe('no-text');
	});
});

describe('sandbox: template sends checked against the placeholders (#132000)', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	let confirmId: number;
	beforeAll(async () => {
		sb = await start({ reviewDelayMs: null });
		api = client(sb, await login(sb));
		confirmId = [...sb.state.templates.values()].find((t) => t.name === 'order_confirmation')!.id;
	});
	afterAll(async () => {
		await sb.close();
	});

	async function approved(body: Record<string, unknown>): Promise<number> {
		const res = await api('POST', ROOT, body);
		expect(res.status).toBe(201);
		sb.approveNow(res.json.data.id);
		return res.json.data.id;
	}

	const send = (id: number, values: Record<string, unknown> = {}) =>
		api('POST', `${ROOT}/${id}/send`, { phone: PHONE, ...values });

	it('T2: positional body: exactly one value per placeholder, in number order; strings and numbers; recorded on the message', async () => {
		const n = sb.state.messages.length;
		const sent = await send(confirmId, { variables: ['Ada', 1001] });
		expect(sent.status).toBe(201);
		expect(sb.state.messages.slice(n)).toEqual([
			expect.objectContaining({
				template_id: confirmId,
				variables: ['Ada', 1001],
				header_variables: null,
				button_variables: null,
			}),
		]);
	});

	it('T2: positional body refusals: none, too few, too many, empty, blank, non-scalar values, an object, a string', async () => {
		const n = sb.state.messages.length;
		const none = await send(confirmId);
		expectMismatch(none, 'body');
		expect(none.json.message).toBe(`${MISMATCH}the body expects {{1}}, {{2}}; got no value`);
		expect(none.json.data).toEqual({ component: 'body', expected: ['{{1}}', '{{2}}'], got: null });
		const few = await send(confirmId, { variables: ['Ada'] });
		expectMismatch(few, 'body');
		expect(few.json.message).toBe(`${MISMATCH}the body expects {{1}}, {{2}}; got 1 value`);
		expect(few.json.data).toEqual({
			component: 'body',
			expected: ['{{1}}', '{{2}}'],
			got: ['Ada'],
		});
		expectMismatch(await send(confirmId, { variables: null }), 'body');
		expectMismatch(await send(confirmId, { variables: [] }), 'body');
		const many = await send(confirmId, { variables: ['Ada', 'A-1', 'extra'] });
		expectMismatch(many, 'body');
		expect(many.json.message).toContain('got 3 values');
		for (const bad of ['', '   ', null, true, { a: 1 }, ['x']]) {
			const res = await send(confirmId, { variables: ['Ada', bad] });
			expectMismatch(res, 'body');
			expect(res.json.message).toContain('{{2}}');
		}
		const object = await send(confirmId, { variables: { 1: 'Ada', 2: 'A-1' } });
		expectMismatch(object, 'body');
		expect(object.json.message).toContain('positional placeholders take a list');
		expectMismatch(await send(confirmId, { variables: 'Ada, A-1' }), 'body');
		expectMismatch(await send(confirmId, { variables: 42 }), 'body');
		expect(sb.state.messages.length).toBe(n);
	});

	it('T2: named body: an object keyed by name; a list, an unknown name, a missing name or an empty value is refused', async () => {
		const id = await approved({
			name: 'named_body',
			body: 'Hi {{customer_name}}, order {{ order_id }} ({{order_id}})',
		});
		const sent = await send(id, { variables: { customer_name: 'Ada', order_id: 'A-1001' } });
		expect(sent.status).toBe(201);
		expect(sb.state.messages.at(-1)).toMatchObject({
			variables: { customer_name: 'Ada', order_id: 'A-1001' },
		});

		const list = await send(id, { variables: ['Ada', 'A-1001'] });
		expectMismatch(list, 'body');
		expect(list.json.data.expected).toEqual(['{{customer_name}}', '{{order_id}}']);
		expect(list.json.message).toContain('named placeholders take an object');
		const unknown = await send(id, {
			variables: { customer_name: 'Ada', order_id: 'A-1', coupon: 'X' },
		});
		expectMismatch(unknown, 'body');
		expect(unknown.json.message).toContain('"coupon"');
		const missing = await send(id, { variables: { customer_name: 'Ada' } });
		expectMismatch(missing, 'body');
		expect(missing.json.message).toContain('got no value for {{order_id}}');
		expectMismatch(await send(id, { variables: { customer_name: 'Ada', order_id: ' ' } }), 'body');
		expectMismatch(await send(id, { variables: { customer_name: 'Ada', order_id: null } }), 'body');
		expectMismatch(await send(id, {}), 'body');
	});

	it("T2: header text placeholders take header_variables, numbered apart from the body's", async () => {
		const id = await approved({
			name: 'header_text',
			header_type: 'TEXT',
			header_text: 'Order {{1}}',
			body: 'Hi {{1}}',
		});
		const sent = await send(id, { header_variables: ['A-1001'], variables: ['Ada'] });
		expect(sent.status).toBe(201);
		expect(sb.state.messages.at(-1)).toMatchObject({
			header_variables: ['A-1001'],
			variables: ['Ada'],
		});

		const noHeader = await send(id, { variables: ['Ada'] });
		expectMismatch(noHeader, 'header');
		expect(noHeader.json.data).toEqual({ component: 'header', expected: ['{{1}}'], got: null });
		expectMismatch(await send(id, { variables: ['Ada', 'A-1001'] }), 'header');
		expectMismatch(
			await send(id, { header_variables: ['A-1001', 'Ada'], variables: ['Ada'] }),
			'header',
		);
		expectMismatch(
			await send(id, { header_variables: { 1: 'A-1001' }, variables: ['Ada'] }),
			'header',
		);
		expectMismatch(await send(id, { header_variables: 'A-1001', variables: ['Ada'] }), 'header');

		const named = await approved({
			name: 'header_named',
			header_text: 'Order {{order_id}}',
			body: 'Thanks',
		});
		expect((await send(named, { header_variables: { order_id: 'A-1' } })).status).toBe(201);
		expectMismatch(await send(named, { header_variables: ['A-1'] }), 'header');
	});

	it('T2: a media header has no placeholders: header_variables is refused', async () => {
		expectMismatch(
			await send(confirmId, { variables: ['Ada', 'A-1'], header_variables: ['x'] }),
			'header',
		);
		expect(
			(await send(confirmId, { variables: ['Ada', 'A-1'], header_variables: [] })).status,
		).toBe(201);
	});

	it('T2: URL buttons: index is the position among ALL buttons (QUICK_REPLY first -> the URL button is 1)', async () => {
		const id = await approved({
			name: 'url_button',
			body: 'Your order ships today.',
			buttons: [
				{ type: 'QUICK_REPLY', text: 'Stop' },
				{ type: 'URL', text: 'Track', url: 'https://shop.example.com/orders/{{1}}' },
			],
		});
		const sent = await send(id, { button_variables: [{ index: 1, variables: ['A-1001'] }] });
		expect(sent.status).toBe(201);
		expect(sb.state.messages.at(-1)).toMatchObject({
			variables: null,
			button_variables: [{ index: 1, variables: ['A-1001'] }],
		});

		const missing = await send(id);
		expectMismatch(missing, 'button 1');
		expect(missing.json.data).toEqual({ component: 'button 1', expected: ['{{1}}'], got: null });
		const wrongIndex = await send(id, { button_variables: [{ index: 0, variables: ['A-1001'] }] });
		expectMismatch(wrongIndex, 'button 0');
		expect(wrongIndex.json.data).toEqual({ component: 'button 0', expected: [], got: ['A-1001'] });
		expectMismatch(
			await send(id, { button_variables: [{ index: 5, variables: ['A-1001'] }] }),
			'button 5',
		);
		expectMismatch(await send(id, { button_variables: [{ index: 1, variables: [] }] }), 'button 1');
		expectMismatch(
			await send(id, { button_variables: [{ index: 1, variables: ['A-1', 'x'] }] }),
			'button 1',
		);
		expectMismatch(
			await send(id, { button_variables: [{ index: 1, variables: [''] }] }),
			'button 1',
		);
		expectMismatch(
			await send(id, {
				button_variables: [
					{ index: 1, variables: ['A-1'] },
					{ index: 1, variables: ['A-1'] },
				],
			}),
			'button 1',
		);
		for (const bad of [
			{ index: 1, variables: ['A-1'] },
			[['A-1']],
			[{ variables: ['A-1'] }],
			[{ index: '1', variables: ['A-1'] }],
			[{ index: -1, variables: [] }],
		]) {
			expectMismatch(await send(id, { button_variables: bad }), 'buttons');
		}
		const structural = await send(id, { button_variables: 'A-1' });
		expect(structural.json.data).toEqual({
			component: 'buttons',
			expected: [{ index: 1, expected: ['{{1}}'] }],
			got: 'A-1',
		});
	});

	it('T2: a template without placeholders accepts a send without values (or empty ones) and refuses stray values', async () => {
		const id = await approved({
			name: 'no_placeholders',
			body: 'Thanks for your order! {{Name}} stays text.',
			buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.example.com' }],
		});
		for (const values of [
			{},
			{ variables: null },
			{ variables: [] },
			{ variables: {} },
			{ button_variables: [] },
			{ button_variables: [{ index: 0, variables: [] }] },
		]) {
			expect((await send(id, values)).status).toBe(201);
		}
		const stray = await send(id, { variables: ['x'] });
		expectMismatch(stray, 'body');
		expect(stray.json.message).toBe(`${MISMATCH}the body has no placeholders; got 1 value`);
		expectMismatch(await send(id, { variables: { x: 'y' } }), 'body');
		expectMismatch(await send(id, { header_variables: ['x'] }), 'header');
		expectMismatch(
			await send(id, { button_variables: [{ index: 0, variables: ['x'] }] }),
			'button 0',
		);
	});

	it('T2/E4: earlier checks first: not APPROVED, then the phone, then the media; a refused send records nothing', async () => {
		const draft = (await api('POST', ROOT, { name: 'draft_params', body: 'Hi {{1}}' })).json.data;
		expectJsendError(await send(draft.id), 400, 'TEMPLATE_NOT_APPROVED');
		expectJsendError(
			await api('POST', `${ROOT}/${confirmId}/send`, { variables: ['x'] }),
			422,
			'VALIDATION_ERROR',
		);
		expectJsendError(
			await api('POST', `${ROOT}/${confirmId}/send`, { phone: '33612', variables: ['x'] }),
			422,
			'INVALID_PHONE',
		);
		expectJsendError(
			await send(confirmId, { header_media_id: 'med_nope', variables: ['x'] }),
			404,
			'NOT_FOUND',
		);

		const form = new FormData();
		form.append('file', new Blob([Buffer.alloc(32)], { type: 'image/png' }), 'h.png');
		const token = await login(sb);
		const upload = await fetch(`${sb.url}/api/v2/whatsapp/media`, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}` },
			body: form,
		});
		const mediaId = ((await upload.json()) as any).data.media_id;
		const n = sb.state.messages.length;
		expectMismatch(await send(confirmId, { header_media_id: mediaId, variables: ['Ada'] }), 'body');
		expect(sb.state.messages.length).toBe(n);
		expect(sb.state.media.get(mediaId)!.used_by).toEqual([]);
		expect(
			(await send(confirmId, { header_media_id: mediaId, variables: ['Ada', 'A-1'] })).status,
		).toBe(201);
		expect(sb.state.media.get(mediaId)!.used_by).toEqual([confirmId]);
	});

	it('T2: with errorCodes http-status the refusal carries code 400, message and data unchanged', async () => {
		sb.setConfig({ errorCodes: 'http-status' });
		try {
			const res = await send(confirmId, { variables: ['Ada'] });
			expect(res.status).toBe(400);
			expect(res.json).toMatchObject({ status: 'error', code: 400, data: { component: 'body' } });
			expect(res.json.message.startsWith(MISMATCH)).toBe(true);
		} finally {
			sb.setConfig({ errorCodes: 'string' });
		}
	});
});
