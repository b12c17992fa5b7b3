import { Engine, pairedInputs } from '../../tools/harness/engine';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

const ROOT = '/api/v2/whatsapp/templates';
const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });

/** Uploads a header image straight to the emulator, as Media > Upload would (that resource is tested on its own). */
async function uploadMedia(sandbox: Sandbox): Promise<string> {
	const login = await fetch(`${sandbox.url}/api/login_check`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ username: DEMO.username, password: DEMO.password }),
	});
	const { token } = (await login.json()) as { token: string };
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(64)], { type: 'image/png' }), 'header.png');
	const upload = await fetch(`${sandbox.url}/api/v2/whatsapp/media`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}` },
		body: form,
	});
	const answer = (await upload.json()) as { data: { media_id: string } };
	return answer.data.media_id;
}

describe("Template (v2), run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	let demoUserId: number;
	const addTemplate = (name: string, state: string) =>
		sandbox.state.addTemplate(
			demoUserId,
			{ name, language: 'en', body: 'Hi {{1}}' },
			state,
			new Date().toISOString(),
		);
	const requestsSince = (from: number) =>
		(
			sandbox.state.requests as Array<{ method: string; path: string; url: string; at: number }>
		).slice(from);

	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: 50 });
		demoUserId = sandbox.state.userByName(DEMO.username).id;
	});
	afterAll(async () => await sandbox.close());

	it('T1/T3/T5: create -> submit -> wait for approval -> send with a header media id -> delete, on the v2 paths', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const firstRequest = sandbox.state.requests.length;

		const created = await engine.run({
			parameters: {
				resource: 'template',
				operation: 'create',
				name: 'spring_sale',
				language: 'en_US',
				category: 'MARKETING',
				body: 'Hello {{1}}, your code is {{2}}',
				additionalFields: {
					headerType: 'IMAGE',
					footer: 'Reply STOP to unsubscribe',
					buttons: {
						button: [{ type: 'URL', text: 'Shop now', url: 'https://shop.example.com/sale' }],
					},
				},
			},
		});
		expect(created.error).toBeUndefined();
		const template = created.items[0].json;
		expect(template).toMatchObject({
			name: 'spring_sale',
			state: 'DRAFT',
			category: 'MARKETING',
			language: 'en_US',
		});
		expect(sandbox.state.templates.get(template.id)).toMatchObject({
			state: 'DRAFT',
			header_type: 'IMAGE',
			footer: 'Reply STOP to unsubscribe',
			buttons: [{ type: 'URL', text: 'Shop now', url: 'https://shop.example.com/sale' }],
		});

		const submitted = await engine.run({
			parameters: { resource: 'template', operation: 'submit', templateId: byId(template.id) },
		});
		expect(submitted.items[0].json).toMatchObject({ id: template.id, state: 'PENDING' });

		const approved = await engine.run({
			parameters: {
				resource: 'template',
				operation: 'waitForApproval',
				templateId: byId(template.id),
				initialInterval: 0.02,
				timeout: 0.1,
			},
		});
		expect(approved.error).toBeUndefined();
		expect(approved.items[0].json).toMatchObject({
			id: template.id,
			state: 'APPROVED',
			approved: true,
		});

		const mediaId = await uploadMedia(sandbox);
		const messagesBefore = sandbox.state.messages.length;
		const sent = await engine.run({
			parameters: {
				resource: 'template',
				operation: 'send',
				templateId: byId(template.id),
				phone: '={{ $json.phone }}',
				variables: {
					mappingMode: 'defineBelow',
					value: { 'body:1': '={{ $json.name }}', 'body:2': 'SPRING10' },
				},
				headerMedia: 'mediaId',
				headerMediaId: mediaId,
			},
			items: [{ json: { phone: '+33 6 12 34 56 78', name: 'Ada' } }],
		});
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json).toMatchObject({
			template_id: template.id,
			phone: '+33612345678',
			status: 'queued',
		});
		expect(sandbox.state.messages.length).toBe(messagesBefore + 1);
		expect(sandbox.state.messages.at(-1)).toMatchObject({
			type: 'template',
			template_id: template.id,
			phone: '+33612345678',
			variables: ['Ada', 'SPRING10'],
			header_media_id: mediaId,
		});

		const deleted = await engine.run({
			parameters: { resource: 'template', operation: 'delete', templateId: byId(template.id) },
		});
		expect(deleted.items[0].json).toEqual({ id: template.id, deleted: true });
		expect(sandbox.state.templates.has(template.id)).toBe(false);

		// T5: every template call used the v2 root without a trailing slash.
		const calls = requestsSince(firstRequest)
			.filter((request) => request.path.startsWith(ROOT))
			.map((request) => `${request.method} ${request.path}`);
		expect(calls).toEqual(
			expect.arrayContaining([
				`POST ${ROOT}`,
				`POST ${ROOT}/${template.id}/submit`,
				`GET ${ROOT}/${template.id}`,
				`POST ${ROOT}/${template.id}/send`,
				`DELETE ${ROOT}/${template.id}`,
			]),
		);
		expect(calls.filter((call) => call.endsWith('/'))).toEqual([]);
		expect(engine.logins).toBe(1);
	});

	it('T1: a review can reject a submitted template; Get shows REJECTED with the reason', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const draft = addTemplate('reject_me_please', 'DRAFT');
		const submitted = await engine.run({
			parameters: { resource: 'template', operation: 'submit', templateId: byId(draft.id) },
		});
		expect(submitted.items[0].json.state).toBe('PENDING');
		// The reviewer's answer, at once instead of after the review delay.
		sandbox.rejectNow(draft.id, 'The body promotes a forbidden product.');

		const result = await engine.run({
			parameters: { resource: 'template', operation: 'get', templateId: byId(draft.id) },
		});
		expect(result.items[0].json).toMatchObject({
			id: draft.id,
			state: 'REJECTED',
			reason: 'The body promotes a forbidden product.',
		});
	});

	it('T1/E2: submitting a template that is not a DRAFT shows the service message and code, and changes nothing', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('already_approved', 'APPROVED');
		const result = await engine.run({
			parameters: { resource: 'template', operation: 'submit', templateId: byId(approved.id) },
		});
		expect(result.error?.message).toMatch(/APPROVED/);
		expect(result.error?.message).toMatch(/INVALID_STATE/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(sandbox.state.templates.get(approved.id).state).toBe('APPROVED');
	});

	it('T4: deletes templates in DRAFT, PENDING, APPROVED and REJECTED states, one output item per input', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const draft = addTemplate('delete_draft', 'DRAFT');
		const pending = addTemplate('delete_pending', 'PENDING');
		const approved = addTemplate('delete_approved', 'APPROVED');
		const rejected = addTemplate('delete_rejected', 'REJECTED');
		const result = await engine.run({
			parameters: {
				resource: 'template',
				operation: 'delete',
				templateId: byId('={{ $json.id }}'),
			},
			items: [draft, pending, approved, rejected].map((template) => ({
				json: { id: template.id },
			})),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([
			{ id: draft.id, deleted: true },
			{ id: pending.id, deleted: true },
			{ id: approved.id, deleted: true },
			{ id: rejected.id, deleted: true },
		]);
		expect(pairedInputs(result)).toEqual([0, 1, 2, 3]);
		for (const template of [draft, pending, approved, rejected])
			expect(sandbox.state.templates.has(template.id)).toBe(false);
	});

	it('T4/E2: deleting an unknown template shows NOT_FOUND; with Continue On Fail the error item is paired', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const keep = addTemplate('delete_keep_going', 'DRAFT');
		const result = await engine.run({
			parameters: {
				resource: 'template',
				operation: 'delete',
				templateId: byId('={{ $json.id }}'),
			},
			items: [{ json: { id: 987654 } }, { json: { id: keep.id } }],
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(2);
		expect(pairedInputs(result)).toEqual([0, 1]);
		expect(result.items[0].json).toMatchObject({ code: 'NOT_FOUND', httpCode: '404' });
		expect(result.items[1].json).toEqual({ id: keep.id, deleted: true });
		expect(sandbox.state.templates.has(keep.id)).toBe(false);
	});

	it('T5: an empty template id fails before any call', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: { resource: 'template', operation: 'get', templateId: byId('={{ $json.id }}') },
			items: [{ json: {} }],
		});
		expect(result.error?.message).toMatch(/Item 0: the template ID is empty/);
		expect(sandbox.state.requests.length).toBe(before);
	});

	it('T1/L3: Get Many filters by state on the service and pages with currentPage, page and limit', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		for (const name of ['list_pending_a', 'list_pending_b', 'list_pending_c'])
			addTemplate(name, 'PENDING');
		addTemplate('list_draft', 'DRAFT');
		const stored = [...sandbox.state.templates.values()].filter(
			(template: { userId: number; state: string }) =>
				template.userId === demoUserId && template.state === 'PENDING',
		);
		sandbox.setConfig({ maxPageSize: 2 });
		const before = sandbox.state.requests.length;
		try {
			const result = await engine.run({
				parameters: {
					resource: 'template',
					operation: 'getAll',
					returnAll: true,
					filters: { state: 'PENDING' },
				},
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.id).sort()).toEqual(
				stored.map((t: { id: number }) => t.id).sort(),
			);
			expect(result.items.every((item) => item.json.state === 'PENDING')).toBe(true);
			const listCalls = requestsSince(before).filter((request) => request.path === ROOT);
			expect(stored.length).toBeGreaterThanOrEqual(4);
			expect(listCalls.length).toBe(Math.ceil(stored.length / 2));
			expect(listCalls[1].url).toMatch(/currentPage=2/);
			expect(listCalls[1].url).toMatch(/[?&]page=2/);
			expect(listCalls[1].url).toMatch(/state=PENDING/);
		} finally {
			sandbox.setConfig({ maxPageSize: 1000 });
		}
	});

	it('T1: a State filter that is not one of the states fails naming the states, before any call', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: {
				resource: 'template',
				operation: 'getAll',
				returnAll: true,
				filters: { state: '={{ "approved" }}' },
			},
		});
		expect(result.error?.message).toBe(
			'Item 0: the state filter "approved" is not one of APPROVED, DRAFT, PENDING, REJECTED',
		);
		expect(result.error?.description).toBe('Choose one of APPROVED, DRAFT, PENDING, REJECTED.');
		expect(requestsSince(before)).toHaveLength(0);
	});

	it('L3: Get Many with a Limit stops at the limit', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: { resource: 'template', operation: 'getAll', returnAll: false, limit: 2 },
		});
		expect(result.items).toHaveLength(2);
		expect(pairedInputs(result)).toEqual([0]);
	});

	it('E3: a bad template name or a text header without text fails before any call', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = sandbox.state.requests.length;
		const count = sandbox.state.templates.size;
		const result = await engine.run({
			parameters: {
				resource: 'template',
				operation: 'create',
				name: '={{ $json.name }}',
				body: 'Hi',
				additionalFields: { headerType: '={{ $json.header }}' },
			},
			items: [
				{ json: { name: 'Spring Sale!', header: 'NONE' } },
				{ json: { name: 'text_header', header: 'TEXT' } },
			],
			continueOnFail: true,
		});
		expect(result.items[0].json.error).toMatch(
			/Item 0: "Spring Sale!" is not a valid template name/,
		);
		expect(result.items[1].json.error).toMatch(/Item 1: Header Type "Text" needs a Header Text/);
		expect(sandbox.state.requests.length).toBe(before);
		expect(sandbox.state.templates.size).toBe(count);
	});

	it('E3: a draft without a body gets the service validation error naming the field', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'template',
				operation: 'create',
				name: 'no_body',
				body: '={{ $json.text }}',
			},
			items: [{ json: {} }],
		});
		expect(result.error?.message).toMatch(/body/);
		expect(result.error?.message).toMatch(/VALIDATION_ERROR/);
	});
});
