/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { isLoginRequest, withHostile, type HostileServer } from '../../tools/harness/hostile';
import {
	EmulatorData,
	failingAfterFirstPage,
	PollHarness,
	type PollOutcome,
} from '../../tools/harness/poll';
import { credentialsFor, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

type Logged = { method: string; path: string; url: string; status: number };
type Contact = { id: number; firstname: string; created_at: string };

const SMALL_RETRIES = { maxAttempts: 2, maxRetryWaitSeconds: 1 };

describe('Commerce Messaging Trigger, New Contact, polled by n8n against the emulator', () => {
	let sandbox: Sandbox;
	let data: EmulatorData;
	const requestsSince = () => {
		const start = sandbox.state.requests.length;
		return (): Logged[] =>
			sandbox.state.requests.slice(start).filter((r: Logged) => r.path === '/api/contacts/');
	};
	const demoContacts = (): Contact[] =>
		sandbox.state.contactsOf(sandbox.state.userByName('demo@shop.test').id) as Contact[];
	const newHarness = () =>
		new PollHarness(credentialsFor(sandbox), {
			event: 'newContact',
			requestOptions: SMALL_RETRIES,
		});

	beforeAll(async () => {
		// Ten contacts a page at most, whatever the node asks for: new contacts span several pages.
		sandbox = await startSandbox({ maxPageSize: 10 });
		data = new EmulatorData(sandbox);
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.faults.clear());

	it('C1: n8n runs it as a polling trigger on the schedule chosen in the node (Poll Times, every minute by default)', async () => {
		const harness = newHarness();
		expect(harness.description).toMatchObject({
			name: 'commerceMessagingTrigger',
			polling: true,
			inputs: [],
			outputs: ['main'],
			icon: { light: 'file:commerceMessaging.svg', dark: 'file:commerceMessaging.dark.svg' },
			credentials: [{ name: 'commerceMessagingApi', required: true }],
		});
		expect(harness.description.properties.filter((p) => p.name === 'pollTimes')).toHaveLength(1);
		await harness.activate();
		expect(harness.resolvedParameters).toMatchObject({
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			event: 'newContact',
		});
		// A second workflow with the trigger gets the same single schedule parameter.
		expect(newHarness().description.properties.filter((p) => p.name === 'pollTimes')).toHaveLength(
			1,
		);
	});

	it('C1: the first poll records where "now" is and emits none of the existing contacts', async () => {
		const harness = newHarness();
		const first = await harness.activate();
		expect(first.error).toBeUndefined();
		expect(first.emitted).toBe(false);
		const newest = demoContacts()[demoContacts().length - 1];
		expect(harness.nodeStaticData.cursor).toEqual({
			event: 'newContact',
			state: { lastId: newest.id, createdAt: newest.created_at },
		});
		const again = await harness.poll();
		expect(again.emitted).toBe(false);
	});

	it('C1/L3: contacts created between polls are emitted once each, oldest first, across page boundaries', async () => {
		const harness = newHarness();
		await harness.activate();
		const created = data.addContacts(25, 'Span');
		const calls = requestsSince();
		const poll = await harness.poll();
		expect(poll.error).toBeUndefined();
		expect(poll.items.map((item) => item.json.id)).toEqual(created.map((c) => c.id));
		expect(poll.items[0].json).toMatchObject({ firstname: 'Span0' });
		// The list was read from its last page backwards, down to the page holding the previous newest contact.
		const pages = calls().map((r) => new URL(r.url, sandbox.url).searchParams.get('page'));
		const total = demoContacts().length;
		const lastPage = Math.ceil(total / 10);
		expect(pages).toEqual(['1', ...[0, 1, 2].map((back) => String(lastPage - back))]);
		const next = await harness.poll();
		expect(next.emitted).toBe(false);
	});

	it('C1/L3: a poll costs requests in proportion to what is new, not to the size of the account', async () => {
		data.addContacts(400, 'Old');
		const harness = newHarness();
		await harness.activate();
		const quiet = requestsSince();
		expect((await harness.poll()).emitted).toBe(false);
		expect(quiet()).toHaveLength(2);
		const created = data.addContacts(3, 'Few');
		const busy = requestsSince();
		const poll = await harness.poll();
		expect(poll.items.map((item) => item.json.id)).toEqual(created.map((c) => c.id));
		expect(busy().length).toBeLessThanOrEqual(3);
	});

	it('L1/E5: a poll that fails (503 beyond the retry limit) emits nothing and changes nothing; the next one emits each contact once', async () => {
		const harness = newHarness();
		await harness.activate();
		const before = JSON.stringify(harness.staticData);
		const created = data.addContacts(5, 'Outage');
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '503', times: 10 });
		const failed = await harness.poll();
		expect(failed.emitted).toBe(false);
		expect(failed.error?.message).toMatch(/SERVICE_UNAVAILABLE/);
		expect(JSON.stringify(harness.staticData)).toBe(before);
		sandbox.faults.clear();
		const recovered = await harness.poll();
		expect(recovered.items.map((item) => item.json.id)).toEqual(created.map((c) => c.id));
		expect((await harness.poll()).emitted).toBe(false);
	});

	it('L1/L3: a poll failing half-way through its pages loses nothing and duplicates nothing', async () => {
		const harness = newHarness();
		await harness.activate();
		const before = JSON.stringify(harness.staticData);
		const created = data.addContacts(25, 'Half');
		const failed = await failingAfterFirstPage(sandbox, '/api/contacts/', () => harness.poll());
		expect(failed.error).toBeDefined();
		expect(failed.emitted).toBe(false);
		expect(JSON.stringify(harness.staticData)).toBe(before);
		const recovered = await harness.poll();
		const ids = recovered.items.map((item) => item.json.id);
		expect(ids).toEqual(created.map((c) => c.id));
		expect(new Set(ids).size).toBe(25);
	});

	it('L3: a service that ignores the page number is reported, not taken for "nothing new"', async () => {
		const harness = newHarness();
		await harness.activate();
		data.addContacts(12, 'Paging');
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'ignore-page', times: 2 });
		const poll = await harness.poll();
		expect(poll.error?.message).toMatch(/ignore the page parameter/);
		const recovered = await harness.poll();
		expect(recovered.items).toHaveLength(12);
	});

	it.each(['nested-total', 'repeat-last', 'no-total'])(
		'L3: with the "%s" list server, new contacts are emitted once each and the pages asked are the ones needed',
		async (paging) => {
			sandbox.setConfig({ paging });
			try {
				const harness = newHarness();
				expect((await harness.activate()).error).toBeUndefined();
				const created = data.addContacts(13, `Paging-${paging}`);
				const calls = requestsSince();
				const poll = await harness.poll();
				expect(poll.error).toBeUndefined();
				expect(poll.items.map((item) => item.json.id)).toEqual(created.map((c) => c.id));
				const pages = calls().map((r) =>
					new URL(r.url, sandbox.url).searchParams.get('currentPage'),
				);
				const lastPage = Math.ceil(demoContacts().length / 10);
				if (paging === 'no-total') {
					// No last page to start from: page 1 tells so, then the whole list is read in order.
					expect(pages[0]).toBe('1');
					expect(pages.slice(1, 3)).toEqual(['1', '2']);
					expect(pages.length).toBeLessThanOrEqual(lastPage + 2);
				} else {
					// From the total: page 1, then backwards from the last page, never a page past the end.
					expect(pages.slice(0, 2)).toEqual(['1', String(lastPage)]);
					expect(pages.every((page) => Number(page) <= lastPage)).toBe(true);
				}
				expect((await harness.poll()).emitted).toBe(false);
			} finally {
				sandbox.setConfig({ paging: 'standard' });
			}
		},
	);

	it("C1: Fetch Test Event returns the newest contact and leaves the workflow's state alone", async () => {
		const harness = newHarness();
		const before = await harness.fetchTestEvent();
		expect(before.error).toBeUndefined();
		const newest = demoContacts()[demoContacts().length - 1];
		expect(before.items).toHaveLength(1);
		expect(before.items[0].json).toMatchObject({ id: newest.id, firstname: newest.firstname });
		expect(harness.staticData).toEqual({});
		await harness.activate();
		const state = JSON.stringify(harness.staticData);
		const [latest] = data.addContacts(1, 'Latest');
		const manual = await harness.fetchTestEvent();
		expect(manual.items.map((item) => item.json.id)).toEqual([latest.id]);
		expect(JSON.stringify(harness.staticData)).toBe(state);
		// The scheduled poll still emits it: the test fetch consumed nothing.
		expect((await harness.poll()).items.map((item) => item.json.id)).toEqual([latest.id]);
	});

	it('A6: neither the state, the emitted items nor a poll error carry the password, the plugin key or the token', async () => {
		const harness = newHarness();
		await harness.activate();
		data.addContacts(2, 'Secret');
		const emitted = await harness.poll();
		sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '503', times: 10 });
		const failed = await harness.poll();
		const token = String(harness.credentialsHelper.stored.commerceMessagingApi.sessionToken);
		expect(token.length).toBeGreaterThan(20);
		const visible = JSON.stringify([
			harness.staticData,
			emitted.items,
			failed.error?.message,
			failed.error?.description,
		]);
		for (const secret of [token, 'demo-password', 'demo-plugin-key'])
			expect(visible).not.toContain(secret);
	});

	describe('a contact id the service hands out again', () => {
		const ids = (poll: PollOutcome) => {
			expect(poll.error).toBeUndefined();
			return poll.items.map((item) => item.json.id);
		};
		/**
		 * MySQL's auto-increment after the newest contacts were deleted and the server restarted: the next contacts get
		 * their ids again. Deletes the demo account's `count` newest contacts, which must be the newest of the emulator.
		 */
		const deleteNewest = (count: number) => {
			const removed = demoContacts().splice(-count, count);
			sandbox.state.contacts.splice(-count, count);
			sandbox.state._seq.contact -= count;
			return removed;
		};
		const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

		it('C1: a contact created with the id of a deleted newest contact is emitted, once, as the new contact it is', async () => {
			const harness = newHarness();
			await harness.activate();
			const [first] = data.addContacts(1, 'Before');
			expect(ids(await harness.poll())).toEqual([first.id]);
			deleteNewest(1);
			await pause(5);
			const [again] = data.addContacts(1, 'Reissued');
			expect(again.id).toBe(first.id);
			const poll = await harness.poll();
			expect(poll.items.map((item) => item.json)).toEqual([
				expect.objectContaining({ id: first.id, firstname: 'Reissued0' }),
			]);
			expect((await harness.poll()).emitted).toBe(false);
		});

		it('C1: several reissued ids beside a new one are each emitted once, in id order', async () => {
			const harness = newHarness();
			await harness.activate();
			const before = data.addContacts(3, 'Three');
			expect(ids(await harness.poll())).toEqual(before.map((c) => c.id));
			deleteNewest(2);
			await pause(5);
			const after = data.addContacts(3, 'Again');
			expect(after.map((c) => c.id)).toEqual([before[1].id, before[2].id, before[2].id + 1]);
			expect(ids(await harness.poll())).toEqual(after.map((c) => c.id));
			expect((await harness.poll()).emitted).toBe(false);
			expect(harness.nodeStaticData.cursor).toEqual({
				event: 'newContact',
				state: { lastId: before[2].id + 1, createdAt: (after[2] as unknown as Contact).created_at },
			});
		});

		it('C1: contacts without a created_at are judged by their id alone: new ids are emitted, a reissued one is not', async () => {
			const harness = newHarness();
			await harness.activate();
			const bare = data.addContacts(2, 'Bare') as unknown as Contact[];
			for (const contact of bare) delete (contact as Partial<Contact>).created_at;
			expect(ids(await harness.poll())).toEqual(bare.map((c) => c.id));
			expect((await harness.poll()).emitted).toBe(false);
			deleteNewest(1);
			const [again] = data.addContacts(1, 'BareAgain') as unknown as Contact[];
			delete (again as Partial<Contact>).created_at;
			expect((await harness.poll()).emitted).toBe(false);
			const [next] = data.addContacts(1, 'Dated');
			expect(ids(await harness.poll())).toEqual([next.id]);
		});
	});

	it('C1: contacts of another account are never emitted', async () => {
		const harness = newHarness();
		await harness.activate();
		new EmulatorData(sandbox, 'other@shop.test').addContacts(3, 'Other');
		const [mine] = data.addContacts(1, 'Mine');
		const poll = await harness.poll();
		expect(poll.items.map((item) => item.json.id)).toEqual([mine.id]);
	});
});

describe('Commerce Messaging Trigger, New Contact, against a hostile service: reading backwards keeps the list guards', () => {
	const credentials = (server: HostileServer) => ({
		baseUrl: server.url,
		username: 'alice@shop.test',
		password: 'hostile-test-password',
	});
	const answer = (response: ServerResponse, status: number, body: unknown) => {
		response.writeHead(status, { 'content-type': 'application/json' });
		response.end(JSON.stringify(body));
	};

	/**
	 * A contact list under a total far beyond any account whose every page holds contacts never served before, with
	 * ids above all earlier ones: read backwards, no page ever reaches a known contact. Past 40 pages it answers 400,
	 * so a reader without a ceiling fails with another message instead of reading on.
	 */
	const endlessBackwards = (padding = 0) => {
		let nextId = 0;
		let pages = 0;
		return (request: IncomingMessage, response: ServerResponse): boolean => {
			if (isLoginRequest(request)) return false;
			if (++pages > 40) {
				answer(response, 400, { status: 'error', code: 'BAD_REQUEST', message: 'Too many pages' });
				return true;
			}
			const limit = Number(new URL(request.url ?? '', 'http://x').searchParams.get('limit'));
			const items = Array.from({ length: limit }, () => ({
				id: ++nextId,
				firstname: 'Endless',
				note: 'x'.repeat(padding),
			}));
			answer(response, 200, { status: 'success', data: { items, total: 1_000_000_000 } });
			return true;
		};
	};

	it('L3: a poll whose pages never reach a known contact fails at Max Records, not reading on', async () => {
		await withHostile(endlessBackwards(), async (server) => {
			const harness = new PollHarness(credentials(server), {
				event: 'newContact',
				requestOptions: { maxRecords: 300 },
			});
			expect((await harness.activate()).error).toBeUndefined();
			const before = server.calls().length;
			const poll = await harness.poll();
			expect(poll.error?.message).toMatch(
				/^The list goes on beyond 300 records, the most read in one go \(.*Max Records\)/,
			);
			// A poll has no Limit to offer.
			expect((poll.error as { description?: string }).description).toMatch(
				/raise .*Max Records\.$/,
			);
			// Page 1, then the last pages backwards: the fourth read passes 300 contacts.
			expect(server.calls().length - before).toBe(4);
		});
	});

	it('L3: a poll over such pages of large contacts fails at Max List Size (MB)', async () => {
		await withHostile(endlessBackwards(5_000), async (server) => {
			const harness = new PollHarness(credentials(server), {
				event: 'newContact',
				requestOptions: { maxListMegabytes: 2 },
			});
			expect((await harness.activate()).error).toBeUndefined();
			const before = server.calls().length;
			const poll = await harness.poll();
			expect(poll.error?.message).toMatch(/^The list goes on beyond 2 MB of answers/);
			// About 0.5 MB a page: the fifth read passes 2 MB.
			expect(server.calls().length - before).toBe(5);
		});
	});

	it('C1: a contact whose 20 KB id carries line breaks fails the poll with a message on one bounded line', async () => {
		const forged = `${'7'.repeat(20_000)}\nForged line\r\u2028`;
		await withHostile(
			(request, response) => {
				if (isLoginRequest(request)) return false;
				answer(response, 200, {
					status: 'success',
					data: { items: [{ id: 1 }, { id: forged }], total: 2 },
				});
				return true;
			},
			async (server) => {
				const activation = await new PollHarness(credentials(server), {
					event: 'newContact',
				}).activate();
				expect(activation.error?.message).toMatch(
					/^The service returned a contact without an integer id: "7{80}\.\.\."$/,
				);
				expect(activation.error?.message).not.toMatch(/[\r\n\u2028\u2029]/);
				expect(activation.error?.message.length).toBeLessThan(200);
			},
		);
	});
});
