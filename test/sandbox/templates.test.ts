/* eslint-disable @typescript-eslint/no-explicit-any -- reads the emulator's JSON answers untyped */
import { client, expectJsendError, login, OTHER, Sandbox, sleep, start } from './helpers';

const ROOT = '/api/v2/whatsapp/templates';

describe('sandbox: WhatsApp templates v2', () => {
	let sb: Sandbox;
	let api: ReturnType<typeof client>;
	beforeAll(async () => {
		sb = await start({ reviewDelayMs: 80 });
		api = client(sb, await login(sb));
	});
	afterAll(async () => {
		await sb.close();
	});

	async function create(name: string) {
		const res = await api('POST', ROOT, {
			name,
			language: 'en',
			category: 'MARKETING',
			body: 'Hi {{1}}',
			footer: 'Bye',
		});
		expect(res.status).toBe(201);
		return res.json.data;
	}

	async function pollUntilReviewed(id: number) {
		for (let i = 0; i < 50; i++) {
			const res = await api('GET', `${ROOT}/${id}`);
			if (res.json.data.state !== 'PENDING') return res;
			await sleep(20);
		}
		throw new Error('review did not finish');
	}

	it('T5: create -> 201 DRAFT template with server fields; name and body are required', async () => {
		const tpl = await create('promo_one');
		expect(tpl).toMatchObject({
			name: 'promo_one',
			language: 'en',
			category: 'MARKETING',
			body: 'Hi {{1}}',
			footer: 'Bye',
			state: 'DRAFT',
		});
		expect(Number.isInteger(tpl.id)).toBe(true);
		expect(tpl.created_at).toEqual(tpl.updated_at);
		const bad = await api('POST', ROOT, { name: 'x' });
		expectJsendError(bad, 422, 'VALIDATION_ERROR');
		expect(bad.json.data.violations).toEqual([
			{ propertyPath: 'body', message: 'This value should not be blank.' },
		]);
	});

	it('T1/T2/T3/E4: DRAFT and PENDING sends are 400 with the state; submit -> PENDING -> APPROVED -> send', async () => {
		const tpl = await create('promo_two');
		const draftSend = await api('POST', `${ROOT}/${tpl.id}/send`, { phone: '+33612345678' });
		expectJsendError(draftSend, 400, 'TEMPLATE_NOT_APPROVED');
		expect(draftSend.json.data).toEqual({ state: 'DRAFT' });
		expect(draftSend.json.message).toContain('DRAFT');

		const submitted = await api('POST', `${ROOT}/${tpl.id}/submit`);
		expect(submitted.status).toBe(200);
		expect(submitted.json.data).toMatchObject({
			state: 'PENDING',
			submitted_at: expect.any(String),
		});
		expectJsendError(await api('POST', `${ROOT}/${tpl.id}/submit`), 409, 'INVALID_STATE');

		const pendingSend = await api('POST', `${ROOT}/${tpl.id}/send`, { phone: '+33612345678' });
		expectJsendError(pendingSend, 400, 'TEMPLATE_NOT_APPROVED');
		expect(pendingSend.json.data).toEqual({ state: 'PENDING' });
		expect(pendingSend.json.message).toContain('PENDING');

		const reviewed = await pollUntilReviewed(tpl.id);
		expect(reviewed.json.data).toMatchObject({
			state: 'APPROVED',
			reviewed_at: expect.any(String),
		});
		expect(reviewed.json.data).not.toHaveProperty('reason');

		const n = sb.state.messages.length;
		const sent = await api('POST', `${ROOT}/${tpl.id}/send`, {
			phone: '+33612345678',
			variables: ['Ann'],
		});
		expect(sent.status).toBe(201);
		expect(sent.json.data).toEqual({
			message_id: expect.any(String),
			template_id: tpl.id,
			phone: '+33612345678',
			status: 'queued',
		});
		expect(sb.state.messages.slice(n)).toEqual([
			expect.objectContaining({ type: 'template', template_id: tpl.id, variables: ['Ann'] }),
		]);
		expect((await api('GET', `${ROOT}/${tpl.id}`)).json.data.state).toBe('APPROVED');
	});

	it('T1: a name starting with reject_ is rejected with the default reason; sending it is 400 REJECTED', async () => {
		const tpl = await create('reject_me');
		await api('POST', `${ROOT}/${tpl.id}/submit`);
		const reviewed = await pollUntilReviewed(tpl.id);
		expect(reviewed.json.data).toMatchObject({
			state: 'REJECTED',
			reason: 'Template content violates the messaging policy.',
		});
		const send = await api('POST', `${ROOT}/${tpl.id}/send`, { phone: '+33612345678' });
		expectJsendError(send, 400, 'TEMPLATE_NOT_APPROVED');
		expect(send.json.data).toEqual({
			state: 'REJECTED',
			reason: 'Template content violates the messaging policy.',
		});
	});

	it('T1: reviewOutcome(name, {reject}) rejects with that reason; reviewOutcome(name, {}) approves a reject_ name', async () => {
		sb.reviewOutcome('promo_three', { reject: 'Variables at the start of the body.' });
		const tpl = await create('promo_three');
		await api('POST', `${ROOT}/${tpl.id}/submit`);
		expect((await pollUntilReviewed(tpl.id)).json.data).toMatchObject({
			state: 'REJECTED',
			reason: 'Variables at the start of the body.',
		});
		sb.reviewOutcome('reject_but_fine', {});
		const ok = await create('reject_but_fine');
		await api('POST', `${ROOT}/${ok.id}/submit`);
		expect((await pollUntilReviewed(ok.id)).json.data.state).toBe('APPROVED');
	});

	it('T3: approveNow/rejectNow finish a review at once (the seeded PENDING template has no timer)', async () => {
		const list = await api('GET', `${ROOT}?state=PENDING`);
		const seeded = list.json.data.items.find((t: any) => t.name === 'cart_reminder');
		expect(seeded.state).toBe('PENDING');
		await sleep(120);
		expect((await api('GET', `${ROOT}/${seeded.id}`)).json.data.state).toBe('PENDING');
		sb.rejectNow(seeded.id, 'Too promotional.');
		expect((await api('GET', `${ROOT}/${seeded.id}`)).json.data).toMatchObject({
			state: 'REJECTED',
			reason: 'Too promotional.',
		});
		sb.approveNow(seeded.id);
		expect((await api('GET', `${ROOT}/${seeded.id}`)).json.data.state).toBe('APPROVED');
	});

	it('T5: list filters on state ({items,total}); an unknown state filter is 400', async () => {
		const approved = await api('GET', `${ROOT}?state=APPROVED&limit=100`);
		expect(approved.json.data.items.length).toBe(approved.json.data.total);
		expect(approved.json.data.items.every((t: any) => t.state === 'APPROVED')).toBe(true);
		expect(approved.json.data.items.map((t: any) => t.name)).toContain('order_confirmation');
		expectJsendError(await api('GET', `${ROOT}?state=LIVE`), 400, 'VALIDATION_ERROR');
	});

	it('T2: send needs a valid phone; an unknown header_media_id is 404', async () => {
		const confirm = (await api('GET', `${ROOT}?state=APPROVED`)).json.data.items.find(
			(t: any) => t.name === 'order_confirmation',
		);
		expect(confirm.header_type).toBe('IMAGE');
		expectJsendError(await api('POST', `${ROOT}/${confirm.id}/send`, {}), 422, 'VALIDATION_ERROR');
		expectJsendError(
			await api('POST', `${ROOT}/${confirm.id}/send`, { phone: '33612' }),
			422,
			'INVALID_PHONE',
		);
		expectJsendError(
			await api('POST', `${ROOT}/${confirm.id}/send`, {
				phone: '+33612345678',
				header_media_id: 'med_nope',
			}),
			404,
			'NOT_FOUND',
		);
	});

	it('T4: delete works from DRAFT, PENDING and APPROVED; the template is gone afterwards', async () => {
		const draft = await create('del_draft');
		const pending = await create('del_pending');
		await api('POST', `${ROOT}/${pending.id}/submit`);
		const approved = await create('del_approved');
		sb.approveNow(approved.id);
		for (const t of [draft, pending, approved]) {
			const res = await api('DELETE', `${ROOT}/${t.id}`);
			expect(res.status).toBe(200);
			expect(res.json.data).toEqual({ id: t.id, deleted: true });
			expectJsendError(await api('GET', `${ROOT}/${t.id}`), 404, 'NOT_FOUND');
			expect(sb.state.templates.has(t.id)).toBe(false);
		}
		expectJsendError(await api('DELETE', `${ROOT}/${draft.id}`), 404, 'NOT_FOUND');
		await sleep(120); // the cancelled review timer must not resurrect anything
		expect(sb.state.templates.has(pending.id)).toBe(false);
	});

	it('T5: another user cannot read, submit or delete a template (404)', async () => {
		const tpl = await create('mine_only');
		const other = client(sb, await login(sb, OTHER));
		expectJsendError(await other('GET', `${ROOT}/${tpl.id}`), 404, 'NOT_FOUND');
		expectJsendError(await other('POST', `${ROOT}/${tpl.id}/submit`), 404, 'NOT_FOUND');
		expectJsendError(await other('DELETE', `${ROOT}/${tpl.id}`), 404, 'NOT_FOUND');
		expectJsendError(await api('GET', `${ROOT}/abc`), 404, 'NOT_FOUND');
	});
});
