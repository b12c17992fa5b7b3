/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { Engine, pairedInputs } from '../../tools/harness/engine';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });

describe("Template > Wait for Approval, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	let demoUserId: number;
	const addTemplate = (name: string, state: string) =>
		sandbox.state.addTemplate(
			demoUserId,
			{ name, language: 'en', body: 'Hi {{1}}' },
			state,
			new Date().toISOString(),
		);
	const pollsOf = (id: number, from: number) =>
		(sandbox.state.requests as Array<{ method: string; path: string; at: number }>)
			.slice(from)
			.filter(
				(request) =>
					request.method === 'GET' && request.path === `/api/v2/whatsapp/templates/${id}`,
			);
	const waitParameters = (templateId: unknown, extra: Record<string, unknown> = {}) => ({
		resource: 'template',
		operation: 'waitForApproval',
		templateId: byId(templateId),
		initialInterval: 0.01,
		timeout: 0.05,
		...extra,
	});

	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: 80 });
		demoUserId = sandbox.state.userByName(DEMO.username).id;
	});
	afterAll(async () => await sandbox.close());

	/** Submits through the node, so the emulator's review clock starts as it would in a workflow. */
	async function submitted(engine: Engine, name: string): Promise<number> {
		const draft = addTemplate(name, 'DRAFT');
		const result = await engine.run({
			parameters: { resource: 'template', operation: 'submit', templateId: byId(draft.id) },
		});
		expect(result.items[0].json.state).toBe('PENDING');
		return draft.id;
	}

	it('T3: polls a submitted template until the review approves it, then outputs it', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		// The review ends when the test says so, after the node has seen PENDING twice.
		sandbox.setConfig({ reviewDelayMs: null });
		try {
			const id = await submitted(engine, 'wait_until_approved');
			const before = sandbox.state.requests.length;
			const waiting = engine.run({ parameters: waitParameters(id, { timeout: 0.5 }) });
			while (pollsOf(id, before).length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
			sandbox.approveNow(id);
			const result = await waiting;
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
			expect(result.items[0].json).toMatchObject({
				id,
				state: 'APPROVED',
				approved: true,
				name: 'wait_until_approved',
			});
			expect(sandbox.state.templates.get(id).state).toBe('APPROVED');
			expect(pollsOf(id, before).length).toBeGreaterThanOrEqual(3);
		} finally {
			sandbox.setConfig({ reviewDelayMs: 80 });
		}
	});

	it('T3: with the review clock running, a wait ends APPROVED without help', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const id = await submitted(engine, 'wait_for_clock');
		const result = await engine.run({ parameters: waitParameters(id, { timeout: 0.5 }) });
		expect(result.items[0].json).toMatchObject({ id, state: 'APPROVED', approved: true });
	});

	it('T3: the intervals between checks grow (x1.5), so long reviews cost few requests', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const pending = addTemplate('slow_review', 'PENDING');
		const before = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: waitParameters(pending.id, { initialInterval: 0.05, timeout: 0.02 }),
		});
		expect(result.error?.message).toMatch(/still PENDING/);
		const times = pollsOf(pending.id, before).map((request) => request.at);
		const gaps = times.slice(1).map((time, index) => time - times[index]);
		// Waits of 50, 75, 112, 169, 253, 380 ms, the last one cut at the 1.2 s timeout: each check comes no sooner than
		// its wait after the one before (a busy machine only delays it, and then the timeout cuts the last wait).
		const waits = [50, 75, 112, 169, 253, 380, 570];
		expect(times.length).toBeGreaterThanOrEqual(4);
		gaps.slice(0, -1).forEach((gap, index) => expect(gap).toBeGreaterThanOrEqual(waits[index] - 2));
		// A fixed 50 ms interval would check 24 times in 1.2 s.
		expect(times.length).toBeLessThanOrEqual(9);
	});

	it('T1/T3: a REJECTED review fails the item with the reason from the template', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		sandbox.reviewOutcome('wait_rejected', { reject: 'Button URL points to a blocked domain.' });
		const id = await submitted(engine, 'wait_rejected');
		const result = await engine.run({ parameters: waitParameters(id) });
		expect(result.error?.message).toMatch(
			/Item 0: template "wait_rejected" \(ID \d+\) was REJECTED: Button URL points to a blocked domain\./,
		);
		expect(result.error?.context?.state).toBe('REJECTED');
		expect(sandbox.state.templates.get(id).state).toBe('REJECTED');
	});

	it('T1/T3: On Rejection "Output Item" outputs the template with approved = false and the reason', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		sandbox.reviewOutcome('wait_rejected_output', {
			reject: 'Marketing content in a Utility template.',
		});
		const id = await submitted(engine, 'wait_rejected_output');
		const result = await engine.run({
			parameters: waitParameters(id, { options: { onRejection: 'outputItem' } }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			id,
			state: 'REJECTED',
			approved: false,
			reason: 'Marketing content in a Utility template.',
		});
		expect(pairedInputs(result)).toEqual([0]);
	});

	it('T3: an Initial Interval under the panel minimum fails before any check: the waits are never a tight loop', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const template = addTemplate('wait_interval_too_short', 'PENDING');
		const before = sandbox.state.requests.length;
		const result = await engine.run({
			parameters: waitParameters(template.id, { initialInterval: '={{ 0.000001 }}' }),
		});
		expect(result.error?.message).toBe(
			'Item 0: the Initial Interval 0.000001 is below the minimum of 0.01',
		);
		expect(pollsOf(template.id, before)).toHaveLength(0);
	});

	it('T3: a review that does not end in time gives an error with the last state and how long it waited', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		// No review clock: it stays PENDING.
		const pending = addTemplate('never_reviewed', 'PENDING');
		const started = Date.now();
		const result = await engine.run({ parameters: waitParameters(pending.id, { timeout: 0.002 }) });
		expect(result.error?.message).toMatch(
			/Item 0: template "never_reviewed" \(ID \d+\) is still PENDING after waiting 0\.\d+ s \(timeout 0\.12 s\)/,
		);
		expect(result.error?.context?.state).toBe('PENDING');
		expect(Date.now() - started).toBeGreaterThanOrEqual(110);
	});

	it('T3: a DRAFT is never approved by waiting: the error says to submit it first, after one check', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const draft = addTemplate('forgot_to_submit', 'DRAFT');
		const before = sandbox.state.requests.length;
		const result = await engine.run({ parameters: waitParameters(draft.id) });
		expect(result.error?.message).toMatch(/is a DRAFT, so it will never be approved/);
		expect(result.error?.description).toMatch(/Submit for Review/);
		expect(result.error?.context?.state).toBe('DRAFT');
		expect(pollsOf(draft.id, before)).toHaveLength(1);
	});

	it('T3: with Continue On Fail, each item is answered by its own outcome', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const approved = addTemplate('cof_wait_approved', 'APPROVED');
		const rejected = addTemplate('cof_wait_rejected', 'DRAFT');
		sandbox.rejectNow(rejected.id, 'Duplicate of an existing template.');
		const result = await engine.run({
			parameters: waitParameters('={{ $json.id }}'),
			items: [
				{ json: { id: approved.id } },
				{ json: { id: rejected.id } },
				{ json: { id: 555555 } },
			],
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(3);
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
		expect(result.items[0].json).toMatchObject({ id: approved.id, approved: true });
		expect(result.items[1].json).toMatchObject({ state: 'REJECTED' });
		expect(result.items[1].json.error).toMatch(/Duplicate of an existing template/);
		expect(result.items[2].json).toMatchObject({ code: 'NOT_FOUND', httpCode: '404' });
	});
});
