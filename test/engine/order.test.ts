import type { IDataObject } from 'n8n-workflow';

import {
	forgetProcessState,
	orderEvent,
} from '../../nodes/CommerceMessaging/helpers/deduplication';
import { CREDENTIAL_TYPE, Engine, pairedInputs } from '../../tools/harness/engine';
import { credentialsFor, OTHER, startSandbox, type Sandbox } from '../../tools/harness/sandbox';
import { hashOf, NODE_STATE, savedHashes } from './lib/savedEvents';

const ORDER_PATH = '/api/v1/order/';
const HISTORY_PATH = '/api/v1/order/history/';

interface LoggedRequest {
	method: string;
	path: string;
	url: string;
	status: number;
}

describe("Order, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());

	const requests = (method: string, path: string): LoggedRequest[] =>
		sandbox.state.requests.filter((r: LoggedRequest) => r.method === method && r.path === path);
	const eventsFor = (orderId: string): IDataObject[] =>
		sandbox.state.orderEvents
			.filter((e: { body: IDataObject }) => e.body.order_id === orderId)
			.map((e: { body: IDataObject }) => e.body);
	const push = (extra: IDataObject = {}) => ({
		resource: 'order',
		operation: 'pushEvent',
		orderId: '={{ $json.orderId }}',
		status: '={{ $json.status }}',
		...extra,
	});
	/** Whether the node's saved copy holds an event sent through the emulator's demo account. */
	const saved = (engine: Engine, orderId: string, status = 'paid') =>
		savedHashes(engine.staticData).includes(
			hashOf(credentialsFor(sandbox), orderEvent(orderId, status)),
		);

	describe('Push Event', () => {
		it("V1: sends order_id and status with the optional fields, and outputs the service's answer", async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'pushEvent',
					orderId: ' V1-ORD-1 ',
					status: 'paid',
					additionalFields: {
						total: '={{ "129.90" }}',
						currency: 'EUR',
						customerPhone: '+49 151 2345 6789',
						customerEmail: 'ada@example.com',
						contactId: '12',
						createdAt: '2025-01-31T18:30:00Z',
						customFields: {
							field: [
								{ name: 'shipping_method', value: 'express' },
								{ name: 'status', value: 'ignored' },
							],
						},
					},
				},
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
			expect(result.items[0].json).toMatchObject({ order_id: 'V1-ORD-1', status: 'paid' });
			expect(typeof result.items[0].json.received_at).toBe('string');
			expect(pairedInputs(result)).toEqual([0]);

			const [event] = eventsFor('V1-ORD-1');
			expect(event).toEqual({
				order_id: 'V1-ORD-1',
				status: 'paid',
				total: 129.9,
				currency: 'EUR',
				created_at: '2025-01-31T18:30:00.000Z',
				customer: { phone: '+4915123456789', email: 'ada@example.com', contact_id: 12 },
				shipping_method: 'express',
			});
			const history = sandbox.state.ordersAscending(sandbox.state.userByName('demo@shop.test').id);
			expect(history.find((o: IDataObject) => o.order_id === 'V1-ORD-1')).toMatchObject({
				status: 'paid',
			});
		});

		it('V1: bad input (phone, total, contact id, date, empty id) fails before any call, naming the item and value', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const before = requests('POST', ORDER_PATH).length;
			const result = await engine.run({
				parameters: push({
					additionalFields: {
						customerPhone: '={{ $json.phone ?? "" }}',
						total: '={{ $json.total ?? 10 }}',
						contactId: '={{ $json.contactId ?? "" }}',
						createdAt: '={{ $json.createdAt ?? "" }}',
					},
				}),
				items: [
					{ json: { orderId: 'V1-BAD-1', status: 'paid', phone: '0151 2345' } },
					{ json: { orderId: 'V1-BAD-2', status: 'paid', total: 'twelve' } },
					{ json: { orderId: 'V1-BAD-3', status: 'paid', contactId: 'abc' } },
					{ json: { orderId: 'V1-BAD-4', status: 'paid', createdAt: 'last tuesday' } },
					{ json: { orderId: '  ', status: 'paid' } },
					{ json: { orderId: 'V1-BAD-6', status: '' } },
				],
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			expect(pairedInputs(result)).toEqual([0, 1, 2, 3, 4, 5]);
			const errors = result.items.map((item) => item.json.error);
			expect(errors[0]).toMatch(/Item 0: "0151 2345" is not an international phone number/);
			expect(errors[1]).toMatch(/Item 1: the total "twelve" is not a decimal number/);
			expect(errors[2]).toMatch(/Item 2: the contact ID "abc" is not a whole number/);
			expect(errors[3]).toMatch(/Item 3: the created at date "last tuesday" is not a valid date/);
			expect(errors[4]).toMatch(/Item 4: the order ID is empty/);
			expect(errors[5]).toMatch(/Item 5: the status is empty/);
			expect(requests('POST', ORDER_PATH).length).toBe(before);
		});

		it('E2: a service failure shows its message and code; without Continue On Fail the run stops on that item', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			sandbox.faults.inject({ method: 'POST', path: ORDER_PATH, kind: '500', times: 1 });
			const result = await engine.run({
				parameters: push(),
				items: [{ json: { orderId: 'E2-ORD-1', status: 'paid' } }],
			});
			expect(result.error?.message).toMatch(/Internal server error/);
			expect(result.error?.message).toMatch(/INTERNAL_ERROR/);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(eventsFor('E2-ORD-1')).toHaveLength(0);
		});
	});

	describe('Deduplication (V4)', () => {
		it('V4: the same order twice in one run is sent once; the second item is output as skipped, paired to it', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: push(),
				items: [
					{ json: { orderId: 'V4-ORD-1', status: 'paid' } },
					{ json: { orderId: 'V4-ORD-1', status: 'paid' } },
				],
			});
			expect(result.error).toBeUndefined();
			expect(eventsFor('V4-ORD-1')).toHaveLength(1);
			expect(result.items).toHaveLength(2);
			expect(pairedInputs(result)).toEqual([0, 1]);
			expect(result.items[0].json).toMatchObject({ order_id: 'V4-ORD-1', status: 'paid' });
			expect(result.items[0].json.skipped).toBeUndefined();
			expect(result.items[1].json).toMatchObject({
				order_id: 'V4-ORD-1',
				status: 'paid',
				skipped: true,
				reason: 'duplicate',
				dedupKey: 'order:V4-ORD-1:paid',
			});
			const firstSentAt = Date.parse(String(result.items[1].json.firstSentAt));
			expect(Math.abs(firstSentAt - Date.now())).toBeLessThan(60_000);
		});

		it('V4: a later run of the same workflow skips it too, while a new status of that order is sent', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const first = await engine.run({
				parameters: push(),
				items: [{ json: { orderId: 'V4-ORD-2', status: 'paid' } }],
			});
			expect(first.error).toBeUndefined();
			// n8n saves static data only when it is marked changed: the node must mark it.
			expect((engine.staticData as { __dataChanged?: boolean }).__dataChanged).toBe(true);
			expect(saved(engine, 'V4-ORD-2')).toBe(true);

			const second = await engine.run({
				parameters: push(),
				items: [
					{ json: { orderId: 'V4-ORD-2', status: 'paid' } },
					{ json: { orderId: 'V4-ORD-2', status: 'shipped' } },
				],
			});
			expect(second.error).toBeUndefined();
			expect(second.items[0].json).toMatchObject({
				skipped: true,
				dedupKey: 'order:V4-ORD-2:paid',
			});
			expect(second.items[1].json).toMatchObject({ order_id: 'V4-ORD-2', status: 'shipped' });
			expect(second.items[1].json.skipped).toBeUndefined();
			expect(eventsFor('V4-ORD-2').map((e) => e.status)).toEqual(['paid', 'shipped']);
			expect(saved(engine, 'V4-ORD-2', 'shipped')).toBe(true);
			// Only hashes and times are kept, not the shop's order ids.
			expect(JSON.stringify(engine.staticData)).not.toContain('V4-ORD-2');
		});

		it('V4: a run where everything is skipped leaves the saved state untouched', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			await engine.run({
				parameters: push(),
				items: [{ json: { orderId: 'V4-ORD-3', status: 'paid' } }],
			});
			const again = await engine.run({
				parameters: push(),
				items: [{ json: { orderId: 'V4-ORD-3', status: 'paid' } }],
			});
			expect(again.items[0].json.skipped).toBe(true);
			expect((engine.staticData as { __dataChanged?: boolean }).__dataChanged).toBe(false);
			expect(eventsFor('V4-ORD-3')).toHaveLength(1);
		});

		it('V4: a failed send is not recorded, so the retry in the next run is sent', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			sandbox.faults.inject({ method: 'POST', path: ORDER_PATH, kind: '500', times: 1 });
			const failed = await engine.run({
				parameters: push(),
				items: [{ json: { orderId: 'V4-ORD-4', status: 'paid' } }],
			});
			expect(failed.error?.message).toMatch(/INTERNAL_ERROR/);
			expect(eventsFor('V4-ORD-4')).toHaveLength(0);
			expect(saved(engine, 'V4-ORD-4')).toBe(false);

			const retried = await engine.run({
				parameters: push(),
				items: [{ json: { orderId: 'V4-ORD-4', status: 'paid' } }],
			});
			expect(retried.error).toBeUndefined();
			expect(retried.items[0].json.skipped).toBeUndefined();
			expect(eventsFor('V4-ORD-4')).toHaveLength(1);
		});

		it('V4: events accepted before a later item stops the run are remembered, so retrying the execution skips them', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const items = [
				{ json: { orderId: 'V4-ORD-5', status: 'paid', phone: '+4915100000005' } },
				{ json: { orderId: 'V4-ORD-6', status: 'paid', phone: 'not a phone' } },
			];
			const parameters = push({ additionalFields: { customerPhone: '={{ $json.phone }}' } });
			const stopped = await engine.run({ parameters, items });
			expect(stopped.error?.message).toMatch(/Item 1: "not a phone"/);
			expect(eventsFor('V4-ORD-5')).toHaveLength(1);
			expect((engine.staticData as { __dataChanged?: boolean }).__dataChanged).toBe(true);

			items[1].json.phone = '+4915100000006';
			const retried = await engine.run({ parameters, items });
			expect(retried.error).toBeUndefined();
			expect(retried.items[0].json).toMatchObject({ skipped: true, order_id: 'V4-ORD-5' });
			expect(retried.items[1].json).toMatchObject({ order_id: 'V4-ORD-6', status: 'paid' });
			expect(eventsFor('V4-ORD-5')).toHaveLength(1);
			expect(eventsFor('V4-ORD-6')).toHaveLength(1);
		});

		it('V4/E2: with Continue On Fail, sent, failed, skipped and bad items each get one output paired to them', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			// The second POST of the run is answered with an error (HTTP 200, JSend status "error").
			const before = requests('POST', ORDER_PATH).length;
			sandbox.faults.inject({
				method: 'POST',
				path: ORDER_PATH,
				kind: 'slow',
				delayMs: 1,
				times: 1,
			});
			sandbox.faults.inject({
				method: 'POST',
				path: ORDER_PATH,
				kind: 'jsend-error-200',
				times: 1,
			});
			const result = await engine.run({
				parameters: push({ additionalFields: { customerPhone: '={{ $json.phone ?? "" }}' } }),
				items: [
					{ json: { orderId: 'V4-COF-1', status: 'paid' } },
					{ json: { orderId: 'V4-COF-2', status: 'paid' } },
					{ json: { orderId: 'V4-COF-1', status: 'paid' } },
					{ json: { orderId: 'V4-COF-3', status: 'paid', phone: '12' } },
					{ json: { orderId: 'V4-COF-2', status: 'paid' } },
				],
				continueOnFail: true,
			});
			const posts = requests('POST', ORDER_PATH).length - before;
			expect(result.error).toBeUndefined();
			expect(pairedInputs(result)).toEqual([0, 1, 2, 3, 4]);
			const [sent, failed, skipped, bad, retried] = result.items.map((item) => item.json);
			expect(sent).toMatchObject({ order_id: 'V4-COF-1', status: 'paid' });
			expect(failed).toMatchObject({ code: 'INTERNAL_ERROR' });
			expect(skipped).toMatchObject({ skipped: true, order_id: 'V4-COF-1' });
			expect(bad.error).toMatch(/Item 3: "12" is not an international phone number/);
			// The failed event was not recorded, so the same event later in the run is sent.
			expect(retried).toMatchObject({ order_id: 'V4-COF-2', status: 'paid' });
			expect(retried.skipped).toBeUndefined();
			expect(posts).toBe(3);
			expect(eventsFor('V4-COF-1')).toHaveLength(1);
			expect(eventsFor('V4-COF-2')).toHaveLength(1);
		});

		it('V4: with Deduplicate off, both identical events are sent and nothing is stored', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: push({ options: { deduplicate: false } }),
				items: [
					{ json: { orderId: 'V4-OFF-1', status: 'paid' } },
					{ json: { orderId: 'V4-OFF-1', status: 'paid' } },
				],
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.skipped)).toEqual([undefined, undefined]);
			expect(eventsFor('V4-OFF-1')).toHaveLength(2);
			expect(engine.staticData[NODE_STATE]).toBeUndefined();
		});

		it('V4: once the window has passed the event is sent again', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const parameters = push({ options: { deduplicationWindowHours: 2 } });
			const items = [{ json: { orderId: 'V4-WIN-1', status: 'paid' } }];
			await engine.run({ parameters, items });
			expect((await engine.run({ parameters, items })).items[0].json.skipped).toBe(true);

			// Three hours later, for the saved state and for what the process remembers of its own sends alike.
			const realNow = Date.now.bind(Date);
			const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 3 * 3600 * 1000);
			try {
				const later = await engine.run({ parameters, items });
				expect(later.error).toBeUndefined();
				expect(later.items[0].json.skipped).toBeUndefined();
			} finally {
				clock.mockRestore();
			}
			expect(eventsFor('V4-WIN-1')).toHaveLength(2);
		});

		it('V4: a run whose items have a shorter window never forgets an event a longer window still holds, across a restart too', async () => {
			const parameters = push({ options: { deduplicationWindowHours: '={{ $json.window }}' } });

			const realNow = Date.now.bind(Date);
			const hoursLater = async <T>(hours: number, run: () => Promise<T>) => {
				const clock = jest
					.spyOn(Date, 'now')
					.mockImplementation(() => realNow() + hours * 3_600_000);
				try {
					return await run();
				} finally {
					clock.mockRestore();
				}
			};
			for (const restart of [false, true]) {
				const orderId = `V4-LONG-${restart ? 'RESTART' : 'PROCESS'}`;
				const items = [{ json: { orderId, status: 'paid', window: 24 } }];
				const engine = new Engine(credentialsFor(sandbox));
				await engine.run({ parameters, items });
				if (restart) forgetProcessState();
				// Two hours later, another event whose window is one hour: the run saves its memory.
				await hoursLater(2, async () => {
					await engine.run({
						parameters,
						items: [{ json: { orderId: `${orderId}-SHORT`, status: 'paid', window: 1 } }],
					});
				});
				if (restart) forgetProcessState();
				const repeat = await hoursLater(3, async () => await engine.run({ parameters, items }));
				expect(repeat.items[0].json.skipped).toBe(true);
				expect(eventsFor(orderId)).toHaveLength(1);
			}
		});

		it('V4: a window that is not a positive number fails the item before any call', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const result = await engine.run({
				parameters: push({ options: { deduplicationWindowHours: '={{ $json.window }}' } }),
				items: [{ json: { orderId: 'V4-BADWIN-1', status: 'paid', window: 'a day' } }],
			});
			expect(result.error?.message).toMatch(
				/Item 0: the deduplication window "a day" is not a decimal number/,
			);
			expect(eventsFor('V4-BADWIN-1')).toHaveLength(0);
		});

		it('V4: the same event through a credential for another Base URL, or for another username, is sent again', async () => {
			const otherService = await startSandbox();
			try {
				const engine = new Engine(credentialsFor(sandbox));
				const items = [{ json: { orderId: 'V4-ACC-1', status: 'paid' } }];
				const userOf = (e: { userId: unknown }) => e.userId;
				const events = (service: Sandbox) =>
					service.state.orderEvents.filter(
						(e: { body: IDataObject }) => e.body.order_id === 'V4-ACC-1',
					);
				expect(
					(await engine.run({ parameters: push(), items })).items[0].json.skipped,
				).toBeUndefined();

				engine.credentialsHelper.setCredentials(CREDENTIAL_TYPE, credentialsFor(otherService));
				const elsewhere = await engine.run({ parameters: push(), items });
				expect(elsewhere.error).toBeUndefined();
				expect(elsewhere.items[0].json.skipped).toBeUndefined();
				expect(events(otherService)).toHaveLength(1);

				engine.credentialsHelper.setCredentials(CREDENTIAL_TYPE, credentialsFor(sandbox, OTHER));
				const otherUser = await engine.run({ parameters: push(), items });
				expect(otherUser.error).toBeUndefined();
				expect(otherUser.items[0].json.skipped).toBeUndefined();
				expect(new Set(events(sandbox).map(userOf)).size).toBe(2);

				// Back on the first account, it is a duplicate there.
				engine.credentialsHelper.setCredentials(CREDENTIAL_TYPE, credentialsFor(sandbox));
				const again = await engine.run({ parameters: push(), items });
				expect(again.items[0].json).toMatchObject({
					order_id: 'V4-ACC-1',
					skipped: true,
					reason: 'duplicate',
				});
				expect(events(sandbox)).toHaveLength(2);
				expect(events(otherService)).toHaveLength(1);
			} finally {
				await otherService.close();
			}
		});

		it("V4: a real duplicate stays skipped when only the credential's name changes, or its Base URL is written differently", async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const items = [{ json: { orderId: 'V4-ACC-2', status: 'paid' } }];
			await engine.run({ parameters: push(), items });
			const renamed = await engine.run({
				parameters: push(),
				items,
				credential: { id: '1', name: 'Shop account (renamed)' },
			});
			expect(renamed.items[0].json).toMatchObject({
				order_id: 'V4-ACC-2',
				skipped: true,
				reason: 'duplicate',
			});
			engine.credentialsHelper.setCredentials(
				CREDENTIAL_TYPE,
				credentialsFor(sandbox, undefined, { baseUrl: ` ${sandbox.url}/ ` }),
			);
			const rewritten = await engine.run({ parameters: push(), items });
			expect(rewritten.error).toBeUndefined();
			expect(rewritten.items[0].json).toMatchObject({
				order_id: 'V4-ACC-2',
				skipped: true,
				reason: 'duplicate',
			});
			expect(eventsFor('V4-ACC-2')).toHaveLength(1);
		});

		it('V4: after a restart, the copy saved in static data still skips the event', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const items = [{ json: { orderId: 'V4-RESTART-1', status: 'paid' } }];
			await engine.run({ parameters: push(), items });
			expect(saved(engine, 'V4-RESTART-1')).toBe(true);
			forgetProcessState();
			const afterRestart = await engine.run({ parameters: push(), items });
			expect(afterRestart.items[0].json).toMatchObject({
				order_id: 'V4-RESTART-1',
				skipped: true,
				reason: 'duplicate',
			});
			// Each run saves everything the process knows: a copy saved by any later run has it too.
			await engine.run({
				parameters: push(),
				items: [{ json: { orderId: 'V4-RESTART-2', status: 'paid' } }],
			});
			expect(saved(engine, 'V4-RESTART-1')).toBe(true);
			expect(saved(engine, 'V4-RESTART-2')).toBe(true);
			expect(eventsFor('V4-RESTART-1')).toHaveLength(1);
		});

		it('V4: a copy that another running n8n process saved is reported, unless Deduplicate Across Workers is on', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			await engine.run({
				parameters: push(),
				items: [{ json: { orderId: 'V4-PROC-1', status: 'paid' } }],
			});
			const hintsOf = (result: Awaited<ReturnType<Engine['run']>>) =>
				(
					(
						result.run.data.resultData.runData['Commerce Messaging'][0] as {
							hints?: Array<{ message: string }>;
						}
					).hints ?? []
				).map((hint) => hint.message);
			// What a queue-mode worker leaves in the workflow: its own copy, saved a moment ago.
			const copy = (engine.staticData[NODE_STATE] as IDataObject).deduplication as IDataObject;
			const fromWorker = () => ({
				...copy,
				process: 'another-worker',
				copy: 'its-memory',
				at: Math.floor(Date.now() / 1000),
			});
			(engine.staticData[NODE_STATE] as IDataObject).deduplication = fromWorker();
			const warned = await engine.run({
				parameters: push(),
				items: [{ json: { orderId: 'V4-PROC-2', status: 'paid' } }],
			});
			expect(hintsOf(warned)).toEqual([
				expect.stringMatching(
					/Another n8n process .* only with the option Deduplicate Across Workers on/,
				),
			]);

			(engine.staticData[NODE_STATE] as IDataObject).deduplication = fromWorker();
			const quiet = await engine.run({
				parameters: push({ options: { deduplicateAcrossWorkers: true } }),
				items: [{ json: { orderId: 'V4-PROC-3', status: 'paid' } }],
			});
			expect(quiet.error).toBeUndefined();
			// No word of another process; this engine has no shared store (no database), which the node says instead.
			expect(hintsOf(quiet)).toEqual([
				expect.stringMatching(/^Deduplicate Across Workers could not reach n8n's shared store/),
			]);
		});
	});

	describe('Get History', () => {
		it('V1/L3: Return All walks every page, newest first, one output item per order', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			// More orders than one page of 100.
			const seeded = await engine.run({
				parameters: push(),
				items: Array.from({ length: 130 }, (_, i) => ({
					json: { orderId: `HIST-${String(i).padStart(3, '0')}`, status: 'pending' },
				})),
			});
			expect(seeded.error).toBeUndefined();
			const demoId = sandbox.state.userByName('demo@shop.test').id;
			const total = sandbox.state.ordersAscending(demoId).length;
			expect(total).toBeGreaterThan(130);

			const before = requests('GET', HISTORY_PATH).length;
			const result = await engine.run({
				parameters: { resource: 'order', operation: 'getHistory', returnAll: true },
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(total);
			expect(pairedInputs(result)).toEqual([0]);
			const ids = result.items.map((item) => item.json.order_id);
			expect(new Set(ids).size).toBe(total);
			expect(ids[ids.length - 1]).toBe('ORD-1001');
			const pages = requests('GET', HISTORY_PATH).slice(before);
			expect(pages.length).toBe(Math.ceil(total / 100));
			expect(new URL(pages[1].url, sandbox.url).searchParams.get('currentPage')).toBe('2');
		});

		it('V1/L3: a Limit stops exactly there with one page request', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const before = requests('GET', HISTORY_PATH).length;
			const result = await engine.run({
				parameters: { resource: 'order', operation: 'getHistory', returnAll: false, limit: 7 },
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(7);
			const pages = requests('GET', HISTORY_PATH).slice(before);
			expect(pages).toHaveLength(1);
			expect(new URL(pages[0].url, sandbox.url).searchParams.get('limit')).toBe('7');
		});

		it('V1: filters are sent as status, date_from and date_to (ISO 8601) and the service applies them', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const before = requests('GET', HISTORY_PATH).length;
			const result = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'getHistory',
					returnAll: true,
					filters: {
						status: 'paid',
						dateFrom: '2025-01-06T00:00:00Z',
						dateTo: '2025-01-08T00:00:00+01:00',
					},
				},
			});
			expect(result.error).toBeUndefined();
			const [page] = requests('GET', HISTORY_PATH).slice(before);
			const query = new URL(page.url, sandbox.url).searchParams;
			expect(query.get('status')).toBe('paid');
			expect(query.get('date_from')).toBe('2025-01-06T00:00:00.000Z');
			expect(query.get('date_to')).toBe('2025-01-07T23:00:00.000Z');
			// Seeded: ORD-1001 paid on Jan 6, ORD-1005 paid on Jan 11.
			expect(result.items.map((item) => item.json.order_id)).toEqual(['ORD-1001']);
		});

		it("V1: a date without a zone is read in the workflow's time zone and sent in UTC", async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const before = requests('GET', HISTORY_PATH).length;
			const result = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'getHistory',
					returnAll: false,
					limit: 1,
					filters: { dateFrom: '2025-01-06T00:00:00' },
				},
			});
			expect(result.error).toBeUndefined();
			const [page] = requests('GET', HISTORY_PATH).slice(before);
			const sent = new URL(page.url, sandbox.url).searchParams.get('date_from') ?? '';
			expect(sent).toMatch(/^2025-01-0[56]T\d\d:00:00\.000Z$/);
		});

		it('V1: a bad date, or Date From after Date To, fails before any call', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const before = requests('GET', HISTORY_PATH).length;
			const bad = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'getHistory',
					returnAll: true,
					filters: { dateFrom: '={{ "soon" }}' },
				},
			});
			expect(bad.error?.message).toMatch(/Item 0: the Date From "soon" is not a valid date/);
			const swapped = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'getHistory',
					returnAll: true,
					filters: { dateFrom: '2025-02-01T00:00:00Z', dateTo: '2025-01-01T00:00:00Z' },
				},
			});
			expect(swapped.error?.message).toMatch(
				/Item 0: Date From \(2025-02-01T00:00:00.000Z\) is after Date To/,
			);
			expect(requests('GET', HISTORY_PATH).length).toBe(before);
		});

		it('E2: with Continue On Fail a failing history call gives an error item with the service code', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			sandbox.faults.inject({
				method: 'GET',
				path: HISTORY_PATH,
				kind: 'jsend-error-200',
				times: 1,
			});
			const result = await engine.run({
				parameters: {
					resource: 'order',
					operation: 'getHistory',
					returnAll: false,
					limit: 3,
					requestOptions: { maxAttempts: 1 },
				},
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
			expect(result.items[0].json).toMatchObject({ code: 'INTERNAL_ERROR' });
			expect(pairedInputs(result)).toEqual([0]);
		});
	});
});
