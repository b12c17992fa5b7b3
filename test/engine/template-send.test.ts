import { Engine, pairedInputs } from '../../tools/harness/engine';
import { batchSpans, earlyArrivals } from '../../tools/harness/pacing';
import {
	credentialsFor,
	DEMO,
	OTHER,
	startSandbox,
	type Sandbox,
} from '../../tools/harness/sandbox';

const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
/** Template > Send's Variables as the editor stores them once mapped: placeholder id -> value. */
const mapped = (value: Record<string, unknown> | null) => ({ mappingMode: 'defineBelow', value });
const sendPath = (id: number) => `/api/v2/whatsapp/templates/${id}/send`;

describe("Template > Send, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	let demoUserId: number;
	const addTemplate = (name: string, state: string, extra: Record<string, unknown> = {}) =>
		sandbox.state.addTemplate(
			demoUserId,
			{ name, language: 'en', body: 'Hi {{1}}', ...extra },
			state,
			new Date().toISOString(),
		);
	const requestsSince = (from: number) =>
		(sandbox.state.requests as Array<{ method: string; path: string; at: number }>).slice(from);

	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: 50 });
		demoUserId = sandbox.state.userByName(DEMO.username).id;
	});
	afterAll(async () => await sandbox.close());

	const sendParameters = (templateId: unknown, extra: Record<string, unknown> = {}) => ({
		resource: 'template',
		operation: 'send',
		templateId: byId(templateId),
		phone: '={{ $json.phone }}',
		variables: mapped({ 'body:1': 'Ada' }),
		...extra,
	});

	it.each(['DRAFT', 'PENDING'])(
		'T2/E4: sending a %s template fails with its state shown and no message sent',
		async (state) => {
			const engine = new Engine(credentialsFor(sandbox));
			const template = addTemplate(`not_ready_${state.toLowerCase()}`, state);
			const messages = sandbox.state.messages.length;
			const result = await engine.run({
				parameters: sendParameters(template.id),
				items: [{ json: { phone: '+33612345678' } }],
			});
			expect(result.error?.message).toContain(`it is ${state}`);
			expect(result.error?.message).toMatch(/TEMPLATE_NOT_APPROVED/);
			expect(result.error?.httpCode).toBe('400');
			expect(result.error?.context?.state).toBe(state);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(sandbox.state.messages.length).toBe(messages);
		},
	);

	it('T1/T2/E4: a REJECTED template is not to be submitted again: the error says to create a corrected one', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const template = addTemplate('was_rejected', 'REJECTED');
		const result = await engine.run({
			parameters: sendParameters(template.id),
			items: [{ json: { phone: '+33612345678' } }],
		});
		expect(result.error?.context?.state).toBe('REJECTED');
		expect(result.error?.description).toMatch(
			/ Create a corrected template, submit it for review and send it once it is APPROVED\.$/,
		);
		expect(result.error?.description).not.toMatch(/\.\./);
		// Submitting is the step for a draft only: one in review waits, and a state the document does not list is checked.
		for (const [state, advice] of [
			['PENDING', 'Wait until its review is over'],
			['DRAFT', 'Submit the template for review'],
			['PAUSED', 'Check its state in the service'],
		]) {
			const template = addTemplate(`advice_${state.toLowerCase()}`, state);
			const refused = await engine.run({
				parameters: sendParameters(template.id),
				items: [{ json: { phone: '+33612345678' } }],
			});
			expect(refused.error?.description).toMatch(
				new RegExp(` ${advice} and send it once it is APPROVED\\.$`),
			);
		}
	});

	it('T2/E4: with Continue On Fail each item is answered: a message, the state error (code, state), the phone error', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('cof_approved', 'APPROVED');
		const pending = addTemplate('cof_pending', 'PENDING');
		const messages = sandbox.state.messages.length;
		const result = await engine.run({
			parameters: { ...sendParameters('={{ $json.template }}') },
			items: [
				{ json: { template: approved.id, phone: '+4915123456789' } },
				{ json: { template: pending.id, phone: '+4915123456789' } },
				{ json: { template: approved.id, phone: '0151 234' } },
			],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
		expect(result.items[0].json).toMatchObject({ template_id: approved.id, status: 'queued' });
		expect(result.items[1].json).toMatchObject({
			code: 'TEMPLATE_NOT_APPROVED',
			state: 'PENDING',
			httpCode: '400',
		});
		expect(result.items[2].json.error).toMatch(
			/Item 2: "0151 234" is not an international phone number/,
		);
		expect(sandbox.state.messages.length).toBe(messages + 1);
	});

	it('T2: Check State Before Sending reads the template and makes no send request for a PENDING one', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const pending = addTemplate('checked_pending', 'PENDING');
		const before = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: sendParameters(pending.id, { options: { checkState: true } }),
			items: [{ json: { phone: '+33612345678' } }],
		});
		expect(result.error?.message).toMatch(
			/Item 0: template "checked_pending" \(ID \d+\) is PENDING, so it was not sent/,
		);
		expect(result.error?.context?.state).toBe('PENDING');
		const calls = requestsSince(before).map((request) => `${request.method} ${request.path}`);
		expect(calls).toContain(`GET /api/v2/whatsapp/templates/${pending.id}`);
		expect(calls.filter((call) => call.endsWith('/send'))).toEqual([]);
		expect(result.error?.description).toMatch(/^It is still in review\./);
		// A state outside the document's four (a provider's PAUSED) gets advice that fits any state.
		const paused = addTemplate('checked_paused', 'PAUSED');
		const unknown = await engine.run({
			parameters: sendParameters(paused.id, { options: { checkState: true } }),
			items: [{ json: { phone: '+33612345678' } }],
		});
		expect(unknown.error?.message).toMatch(/is PAUSED, so it was not sent/);
		expect(unknown.error?.description).toBe(
			'It is neither a draft nor in review: check its state in the service.',
		);
	});

	it('T2: Check State Before Sending shows the rejection reason of a REJECTED template', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const rejected = addTemplate('checked_rejected', 'DRAFT');
		sandbox.rejectNow(rejected.id, 'Too promotional for the Utility category.');
		const result = await engine.run({
			parameters: sendParameters(rejected.id, { options: { checkState: true } }),
			items: [{ json: { phone: '+33612345678' } }],
			continueOnFail: true,
		});
		expect(result.items[0].json).toMatchObject({ state: 'REJECTED' });
		expect(result.items[0].json.error).toMatch(/is REJECTED/);
		expect(result.items[0].json.description).toMatch(/Too promotional for the Utility category/);
		expect(requestsSince(0).filter((request) => request.path === sendPath(rejected.id))).toEqual(
			[],
		);
	});

	it('T2: Check State Before Sending reads an APPROVED template once per run, then sends every item', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('checked_approved', 'APPROVED');
		const before = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: sendParameters(approved.id, { options: { checkState: true } }),
			items: [
				{ json: { phone: '+33612345671' } },
				{ json: { phone: '+33612345672' } },
				{ json: { phone: '+33612345673' } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.phone)).toEqual([
			'+33612345671',
			'+33612345672',
			'+33612345673',
		]);
		const calls = requestsSince(before).filter((request) =>
			request.path.includes(`/templates/${approved.id}`),
		);
		expect(calls.filter((request) => request.method === 'GET')).toHaveLength(1);
		expect(calls.filter((request) => request.path === sendPath(approved.id))).toHaveLength(3);
	});

	it('C2: a bad phone number costs no call at all', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('bad_phone', 'APPROVED');
		const before = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: sendParameters(approved.id),
			items: [{ json: { phone: '12345' } }],
		});
		expect(result.error?.message).toMatch(/Item 0: "12345" is not an international phone number/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(sandbox.state.requests.length).toBe(before);
		expect(engine.logins).toBe(0);
	});

	it('T5: variables can come as JSON, an array in order or an object by number', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('json_variables', 'APPROVED', { body: 'Hi {{1}}, order {{2}}' });
		const result = await engine.run({
			parameters: sendParameters(approved.id, {
				variables: mapped(null),
				options: { variablesJson: '={{ $json.variables }}' },
			}),
			items: [
				{ json: { phone: '+33612345678', variables: '["Ada", 1001]' } },
				{ json: { phone: '+33612345678', variables: '{"1": "Bob", "2": "A-7"}' } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.status)).toEqual(['queued', 'queued']);
		const sent = sandbox.state.messages.filter(
			(message: { template_id: number }) => message.template_id === approved.id,
		);
		// A template of numbered placeholders takes a list in number order, however the values were given.
		expect(sent.map((message: { variables: unknown }) => message.variables)).toEqual([
			['Ada', '1001'],
			['Bob', 'A-7'],
		]);
	});

	it('T5: variables given twice, an empty variable or broken JSON fail before any call', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('bad_variables', 'APPROVED', { body: 'Hi {{1}}, order {{2}}' });
		const before = sandbox.state.requests.length;
		const run = async (variable: string, variablesJson: string) =>
			await engine.run({
				parameters: sendParameters(approved.id, {
					variables: mapped(null),
					options: { templateVariables: { variable: [{ value: variable }] }, variablesJson },
				}),
				items: [{ json: { phone: '+33612345678', empty: '' } }],
				continueOnFail: true,
			});
		const twice = await run('Listed', '["Ada"]');
		expect(twice.items[0].json.error).toMatch(/Item 0: the variables are given twice/);
		const empty = await run('={{ $json.empty }}', '');
		expect(empty.items[0].json.error).toMatch(/Item 0: the variable \{\{1\}\} is empty/);
		const broken = await run('Ada', '["Ada", ');
		expect(broken.items[0].json.error).toMatch(/Item 0: Variables \(JSON\) is not valid JSON/);
		expect(pairedInputs(broken)).toEqual([0]);
		expect(sandbox.state.requests.length).toBe(before);
	});

	it('T5/M3: a header media id uploaded by another account is refused by the service with its code', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('foreign_media', 'APPROVED', { header_type: 'IMAGE' });
		const login = await fetch(`${sandbox.url}/api/login_check`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ username: OTHER.username, password: OTHER.password }),
		});
		const { token } = (await login.json()) as { token: string };
		const form = new FormData();
		form.append('file', new Blob([new Uint8Array(32)], { type: 'image/jpeg' }), 'other.jpg');
		const upload = await fetch(`${sandbox.url}/api/v2/whatsapp/media`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}` },
			body: form,
		});
		const mediaId = ((await upload.json()) as { data: { media_id: string } }).data.media_id;
		const messages = sandbox.state.messages.length;
		const result = await engine.run({
			parameters: sendParameters(approved.id, {
				headerMedia: 'mediaId',
				headerMediaId: '={{ $json.media_id }}',
			}),
			items: [{ json: { phone: '+33612345678', media_id: mediaId } }],
		});
		expect(result.error?.message).toMatch(/MEDIA_NOT_OWNED/);
		expect(result.error?.httpCode).toBe('403');
		expect(sandbox.state.messages.length).toBe(messages);
	});

	it('L2: a bulk send goes out in batches, each on its schedule', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('batched', 'APPROVED');
		const before = sandbox.state.requests.length;
		const runStart = Date.now();
		const result = await engine.run({
			parameters: sendParameters(approved.id, {
				options: { batching: { batch: { batchSize: 2, batchInterval: 1000 } } },
			}),
			items: [1, 2, 3, 4, 5].map((n) => ({ json: { phone: `+3361234567${n}` } })),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(5);
		const arrivals = requestsSince(before)
			.filter((request) => request.path === sendPath(approved.id))
			.map((request) => request.at);
		expect(arrivals).toHaveLength(5);
		// Items 0-1, 2-3 and 4 form three batches: the second no sooner than 1 s after the run began, the third 2 s.
		expect(earlyArrivals(arrivals, runStart, { size: 2, intervalMs: 1000 })).toEqual([]);
		// A batch's two sends go out together, released by one timer: far less than the interval apart (a send per
		// interval would put them 1000 ms apart). Half an interval is the margin for a loaded machine.
		for (const span of batchSpans(arrivals, 2)) expect(span).toBeLessThan(500);
	});

	it('L2: without the option, sends are still spread out: 50 items, then the next batch a second after the first', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('batched_default', 'APPROVED');
		const before = sandbox.state.requests.length;
		const runStart = Date.now();
		const result = await engine.run({
			parameters: sendParameters(approved.id, { phone: '+33612345678' }),
			items: Array.from({ length: 52 }, () => ({ json: {} })),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(52);
		const arrivals = requestsSince(before)
			.filter((request) => request.path === sendPath(approved.id))
			.map((request) => request.at);
		expect(arrivals).toHaveLength(52);
		// 50 per second, counted from the start of a batch: the 51st send no sooner than a second after the run began.
		expect(earlyArrivals(arrivals, runStart, { size: 50, intervalMs: 1000 })).toEqual([]);
		// That the batch is no smaller is shown by Message > Send WhatsApp's run, whose sends go out side by side: these
		// go to one recipient, one after the other, at whatever pace the machine keeps.
	});
});
