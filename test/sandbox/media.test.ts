import { call, client, expectJsendError, login, OTHER, Sandbox, start } from './helpers';

const MEDIA = '/api/v2/whatsapp/media';
const TEMPLATES = '/api/v2/whatsapp/templates';

function form(field = 'file', bytes = 2048, name = 'banner.png', type = 'image/png'): FormData {
	const fd = new FormData();
	fd.append('caption', 'hello');
	fd.append(field, new Blob([Buffer.alloc(bytes, 7)], { type }), name);
	return fd;
}

describe('sandbox: media v2', () => {
	let sb: Sandbox;
	let demoToken: string;
	let otherToken: string;
	let confirmId: number;
	beforeAll(async () => {
		sb = await start();
		demoToken = await login(sb);
		otherToken = await login(sb, OTHER);
		confirmId = [...sb.state.templates.values()].find((t) => t.name === 'order_confirmation')!.id;
	});
	afterAll(async () => {
		await sb.close();
	});

	const upload = (token: string, body: BodyInit, headers: Record<string, string> = {}) =>
		call(sb, 'POST', MEDIA, { token, raw: body, headers });

	it('M1/M2: a FormData upload with the part "file" -> 201 {status:"success", data:{media_id:"med_..."}}; stored with owner', async () => {
		const res = await upload(demoToken, form());
		expect(res.status).toBe(201);
		expect(res.json.status).toBe('success');
		expect(res.json.data).toEqual({ media_id: expect.stringMatching(/^med_/) });
		const stored = sb.state.media.get(res.json.data.media_id)!;
		expect(stored).toMatchObject({
			filename: 'banner.png',
			mimetype: 'image/png',
			size: 2048,
			used_by: [],
		});
		expect(stored.userId).toBe(sb.state.userByName('demo@shop.test')!.id);
	});

	it('M1: a Content-Type set by hand without the boundary -> 400 INVALID_MULTIPART; a JSON body too', async () => {
		const n = sb.state.media.size;
		const res = await upload(demoToken, form(), { 'content-type': 'multipart/form-data' });
		expectJsendError(res, 400, 'INVALID_MULTIPART');
		expect(res.json.message).toMatch(/boundary/i);
		const json = await call(sb, 'POST', MEDIA, { token: demoToken, body: { file: 'abc' } });
		expectJsendError(json, 400, 'INVALID_MULTIPART');
		expect(sb.state.media.size).toBe(n);
	});

	it('M1: no part named "file" -> 422 VALIDATION_ERROR on file', async () => {
		const res = await upload(demoToken, form('upload'));
		expectJsendError(res, 422, 'VALIDATION_ERROR');
		expect(res.json.data.violations).toEqual([
			{ propertyPath: 'file', message: 'This value should not be blank.' },
		]);
	});

	it('M3: another user can neither send with the media (403 MEDIA_NOT_OWNED) nor delete it', async () => {
		const mediaId = (await upload(demoToken, form())).json.data.media_id;
		const other = client(sb, otherToken);
		const otherTpl = (await other('POST', TEMPLATES, { name: 'o_tpl', body: 'x' })).json.data;
		sb.approveNow(otherTpl.id);
		const send = await other('POST', `${TEMPLATES}/${otherTpl.id}/send`, {
			phone: '+33612345678',
			header_media_id: mediaId,
		});
		expectJsendError(send, 403, 'MEDIA_NOT_OWNED');
		expectJsendError(await other('DELETE', `${MEDIA}/${mediaId}`), 403, 'MEDIA_NOT_OWNED');
		expect(sb.state.media.get(mediaId)!.used_by).toEqual([]);
	});

	it('M4: media used by a send -> delete 409 MEDIA_IN_USE; an unused one is deleted, then 404', async () => {
		const api = client(sb, demoToken);
		const used = (await upload(demoToken, form())).json.data.media_id;
		const sent = await api('POST', `${TEMPLATES}/${confirmId}/send`, {
			phone: '+33612345678',
			header_media_id: used,
			variables: ['Ada', 'A-1001'],
		});
		expect(sent.status).toBe(201);
		expect(sb.state.messages.at(-1)).toMatchObject({
			header_media_id: used,
			template_id: confirmId,
		});
		expectJsendError(await api('DELETE', `${MEDIA}/${used}`), 409, 'MEDIA_IN_USE');

		const unused = (await upload(demoToken, form('file', 10, 'doc.pdf', 'application/pdf'))).json
			.data.media_id;
		const del = await api('DELETE', `${MEDIA}/${unused}`);
		expect(del.status).toBe(200);
		expect(del.json.data).toEqual({ media_id: unused, deleted: true });
		expectJsendError(await api('DELETE', `${MEDIA}/${unused}`), 404, 'NOT_FOUND');
		expectJsendError(await api('DELETE', `${MEDIA}/${unused}/`), 404, 'NOT_FOUND');
	});

	it('M1: the upload needs a token like every route', async () => {
		expectJsendError(await call(sb, 'POST', MEDIA, { raw: form() }), 401, 'JWT_MISSING');
	});
});
