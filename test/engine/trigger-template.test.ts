/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { EmulatorData, PollHarness } from '../../tools/harness/poll';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

type Json = Record<string, unknown>;

const TEMPLATES = '/api/v2/whatsapp/templates';
const REVIEW_DELAY_MS = 40;

describe('Commerce Messaging Trigger, Template Review Finished, polled by n8n against the emulator', () => {
	let sandbox: Sandbox;
	let data: EmulatorData;
	const newHarness = (filters: Json = {}) =>
		new PollHarness(credentialsFor(sandbox), { event: 'templateReviewed', filters });
	const outcomes = (poll: { items: Array<{ json: Json }> }) =>
		poll.items.map(({ json }) => ({
			id: json.id,
			event: json.event,
			state: json.state,
			reason: json.reason,
		}));
	const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

	/**
	 * The service's own API, as a shop back-end would call it: create a DRAFT, then submit it for review. Returns the
	 * id and the state the submit answered (the review clock may finish the review any moment after).
	 */
	async function submitOverTheApi(name: string): Promise<{ id: number; submittedState: unknown }> {
		const token = (sandbox as unknown as { issueToken(username: string): string }).issueToken(
			DEMO.username,
		);
		const call = async (method: string, path: string, body?: Json) => {
			const response = await fetch(`${sandbox.url}${path}`, {
				method,
				headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
				body: body ? JSON.stringify(body) : undefined,
			});
			return ((await response.json()) as { data: Json }).data;
		};
		const draft = await call('POST', TEMPLATES, {
			name,
			body: 'Hello {{1}}',
			language: 'en',
			category: 'UTILITY',
		});
		const submitted = await call('POST', `${TEMPLATES}/${String(draft.id)}/submit`);
		return { id: draft.id as number, submittedState: submitted.state };
	}

	beforeAll(async () => {
		sandbox = await startSandbox({ maxPageSize: 10, reviewDelayMs: REVIEW_DELAY_MS });
		data = new EmulatorData(sandbox);
	});
	afterAll(async () => await sandbox.close());

	it('T1/T3: the first poll emits none of the templates reviewed before it', async () => {
		const harness = newHarness();
		const first = await harness.activate();
		expect(first.error).toBeUndefined();
		expect(first.emitted).toBe(false);
		// The seed's order_confirmation was APPROVED long ago: the window starts at its review.
		const reviewed = Date.parse(sandbox.state.templates.get(1).reviewed_at);
		expect(harness.nodeStaticData.cursor).toEqual({
			event: 'templateReviewed',
			state: { from: new Date(reviewed).toISOString(), seen: [['1', reviewed]] },
		});
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('T1/T3: a template moved PENDING -> APPROVED and another PENDING -> REJECTED each fire once, with the outcome and reason', async () => {
		const harness = newHarness();
		await harness.activate();
		const approved = data.addPendingTemplate('trigger_approved');
		const rejected = data.addPendingTemplate('trigger_rejected');
		expect((await harness.poll()).emitted).toBe(false);
		sandbox.approveNow(approved.id);
		await pause(2);
		sandbox.rejectNow(rejected.id, 'The body mentions a competitor.');
		const poll = await harness.poll();
		expect(outcomes(poll)).toEqual([
			{ id: approved.id, event: 'approved', state: 'APPROVED', reason: undefined },
			{
				id: rejected.id,
				event: 'rejected',
				state: 'REJECTED',
				reason: 'The body mentions a competitor.',
			},
		]);
		expect(poll.items[0].json).toMatchObject({
			name: 'trigger_approved',
			body: 'Body of trigger_approved',
		});
		expect(poll.items[0].json.reviewed_at).toBe(
			sandbox.state.templates.get(approved.id).reviewed_at,
		);
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('T3: a template submitted over the API and reviewed by the service between two polls fires, though no poll saw it PENDING', async () => {
		const harness = newHarness();
		await harness.activate();
		sandbox.reviewOutcome('reject_by_rule', {
			reject: 'Promotional content in a UTILITY template.',
		});
		const approved = await submitOverTheApi('api_submitted');
		const rejected = await submitOverTheApi('reject_by_rule');
		// PENDING as the submits answered: the review clock (40 ms) may already have finished the first one by the
		// time the second submit returns, so the live state is not what shows it was submitted.
		expect([approved.submittedState, rejected.submittedState]).toEqual(['PENDING', 'PENDING']);
		const [approvedId, rejectedId] = [approved.id, rejected.id];
		// The service's review timer finishes both; no poll runs meanwhile.
		const reviewed = () =>
			[approvedId, rejectedId].every((id) => sandbox.state.templates.get(id).state !== 'PENDING');
		for (let waited = 0; !reviewed() && waited < 5000; waited += REVIEW_DELAY_MS)
			await pause(REVIEW_DELAY_MS);
		expect(sandbox.state.templates.get(approvedId).state).toBe('APPROVED');
		const poll = await harness.poll();
		expect(outcomes(poll)).toEqual(
			expect.arrayContaining([
				{ id: approvedId, event: 'approved', state: 'APPROVED', reason: undefined },
				{
					id: rejectedId,
					event: 'rejected',
					state: 'REJECTED',
					reason: 'Promotional content in a UTILITY template.',
				},
			]),
		);
		expect(poll.items).toHaveLength(2);
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('T3: reviews finished in the same instant, before and after a poll, across page boundaries, fire once each', async () => {
		const harness = newHarness();
		await harness.activate();
		const batch = Array.from({ length: 14 }, (_, i) => data.addPendingTemplate(`batch_${i}`));
		const instant = new Date(Date.now() + 5).toISOString();
		const review = (template: { id: number }) => {
			sandbox.approveNow(template.id);
			sandbox.state.templates.get(template.id).reviewed_at = instant;
		};
		batch.slice(0, 10).forEach(review);
		expect(outcomes(await harness.poll()).map((o) => o.id)).toEqual(
			batch.slice(0, 10).map((t) => t.id),
		);
		batch.slice(10).forEach(review);
		expect(outcomes(await harness.poll()).map((o) => o.id)).toEqual(
			batch.slice(10).map((t) => t.id),
		);
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('T3: the Outcome filter "Approved Only" emits approvals only, and a rejection never fires later', async () => {
		const harness = newHarness({ outcome: 'APPROVED' });
		await harness.activate();
		const good = data.addPendingTemplate('only_good');
		const bad = data.addPendingTemplate('only_bad');
		sandbox.rejectNow(bad.id, 'Nope.');
		sandbox.approveNow(good.id);
		expect(outcomes(await harness.poll()).map((o) => o.id)).toEqual([good.id]);
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('T3: Fetch Test Event returns the most recently reviewed template with its outcome, and leaves the state alone', async () => {
		const harness = newHarness({ outcome: 'REJECTED' });
		await harness.activate();
		const state = JSON.stringify(harness.staticData);
		const rejected = data.addPendingTemplate('manual_rejected');
		sandbox.rejectNow(rejected.id, 'Too long.');
		await pause(2);
		sandbox.approveNow(data.addPendingTemplate('manual_approved').id);
		const manual = await harness.fetchTestEvent();
		expect(outcomes(manual)).toEqual([
			{ id: rejected.id, event: 'rejected', state: 'REJECTED', reason: 'Too long.' },
		]);
		expect(JSON.stringify(harness.staticData)).toBe(state);
		expect(outcomes(await harness.poll()).map((o) => o.id)).toEqual([rejected.id]);
	});
});
