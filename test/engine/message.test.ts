import { Engine, pairedInputs } from '../../tools/harness/engine';
import { batchSpans, earlyArrivals } from '../../tools/harness/pacing';
import {
	credentialsFor,
	startSandbox,
	type Sandbox,
	type SandboxRequestLog,
} from '../../tools/harness/sandbox';

const MESSAGE_PATH = '/api/whatsapp/';
// +999 has the shape of an E.164 number, but no country uses that code: the service (and its emulator) refuses it.
const UNASSIGNED_NUMBER = '+9991234567';

describe("Message, run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.close());

	const messageRequests = (): SandboxRequestLog[] =>
		sandbox.state.requests.filter(
			(r: SandboxRequestLog) => r.method === 'POST' && r.path === MESSAGE_PATH,
		);
	const messagesTo = (phone: string) =>
		sandbox.state.messages.filter(
			(m: { type: string; phone: string }) => m.type === 'whatsapp' && m.phone === phone,
		);

	it('C2: sends a WhatsApp message with the additional and custom fields; the service stores it', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'message',
				operation: 'send',
				phone: '+49 151 2345 6789',
				message: 'Hello Ada, your order ORD-1001 has shipped: https://shop.example.com/track/1001',
				additionalFields: {
					previewUrl: true,
					contactId: 7,
					externalId: 'ORD-1001',
					customFields: { field: [{ name: 'campaign', value: 'shipping' }] },
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ phone: '+4915123456789', status: 'queued' });
		expect(result.items[0].json.message_id).toMatch(/^wamid\./);
		expect(pairedInputs(result)).toEqual([0]);

		const stored = sandbox.state.messages.find(
			(m: { message_id: string }) => m.message_id === result.items[0].json.message_id,
		);
		expect(stored).toMatchObject({
			type: 'whatsapp',
			phone: '+4915123456789',
			message: 'Hello Ada, your order ORD-1001 has shipped: https://shop.example.com/track/1001',
			preview_url: true,
			contact_id: 7,
			external_id: 'ORD-1001',
			campaign: 'shipping',
		});
		expect(stored.userId).toBe(sandbox.state.userByName('demo@shop.test').id);
	});

	it('C2: phone numbers as people paste them: a trunk (0) after the country code and invisible marks are dropped', async () => {
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: {
				resource: 'message',
				operation: 'send',
				phone: '={{ $json.phone }}',
				message: 'Pasted numbers',
			},
			items: [
				{ json: { phone: '+49 (0) 151 2345 6789' } },
				{ json: { phone: '0044 (0)20 7946 0958' } },
				{ json: { phone: '\u202a+49 151 23456789\u202c' } },
				{ json: { phone: '+49\u200b15123456789' } },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.phone)).toEqual([
			'+4915123456789',
			'+442079460958',
			'+4915123456789',
			'+4915123456789',
		]);
	});

	it('C2: a phone number that is not E.164 fails the item naming the number, and costs no API call', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const requestsBefore = sandbox.state.requests.length;
		const messagesBefore = sandbox.state.messages.length;
		const result = await engine.run({
			parameters: {
				resource: 'message',
				operation: 'send',
				phone: '={{ $json.phone }}',
				message: 'Hi',
			},
			items: [{ json: { phone: '0151 2345 6789' } }],
		});
		expect(result.error?.message).toBe(
			'Item 0: "0151 2345 6789" is not an international phone number',
		);
		expect(result.error?.context?.itemIndex).toBe(0);
		// Not even the login: the check runs before the first request.
		expect(sandbox.state.requests.length).toBe(requestsBefore);
		expect(engine.logins).toBe(0);
		expect(sandbox.state.messages.length).toBe(messagesBefore);
	});

	it("C2/E2: the service's INVALID_PHONE answer is shown with its message and code", async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'message',
				operation: 'send',
				phone: UNASSIGNED_NUMBER,
				message: 'Hi',
			},
		});
		expect(result.error?.message).toMatch(/INVALID_PHONE/);
		expect(result.error?.message).toContain(`Invalid phone number "${UNASSIGNED_NUMBER}"`);
		expect(result.error?.httpCode).toBe('422');
		expect(result.error?.context?.itemIndex).toBe(0);
		// The call was made, and refused: nothing stored.
		expect(messageRequests().at(-1)).toMatchObject({ status: 422 });
		expect(messagesTo(UNASSIGNED_NUMBER)).toHaveLength(0);
	});

	it('L2: with 2 items per batch and 1 s between batches, 6 sends go out in 3 batches, each on its schedule', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = messageRequests().length;
		const phones = Array.from({ length: 6 }, (_, i) => `+3361000100${i}`);
		const runStart = Date.now();
		const result = await engine.run({
			parameters: {
				resource: 'message',
				operation: 'send',
				phone: '={{ $json.phone }}',
				message: 'Batch test',
				options: { batching: { batch: { batchSize: 2, batchInterval: 1000 } } },
			},
			items: phones.map((phone) => ({ json: { phone } })),
		});
		expect(result.error).toBeUndefined();
		expect(pairedInputs(result)).toEqual([0, 1, 2, 3, 4, 5]);

		const arrivals = messageRequests()
			.slice(before)
			.map((request) => request.at);
		expect(arrivals).toHaveLength(6);
		// Sends 3-4 no sooner than a second after the run began, sends 5-6 no sooner than two.
		expect(earlyArrivals(arrivals, runStart, { size: 2, intervalMs: 1000 })).toEqual([]);
		// A batch's two sends go out together, released by one timer: far less than the interval apart (a send per
		// interval would put them 1000 ms apart). Half an interval is the margin for a loaded machine.
		for (const span of batchSpans(arrivals, 2)) expect(span).toBeLessThan(500);
		for (const phone of phones) expect(messagesTo(phone)).toHaveLength(1);
	});

	it('L2: without Continue On Fail, a failed item stops the run: items waiting for a later batch are not sent', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const phones = [
			'+336100020000',
			'bad',
			...Array.from({ length: 4 }, (_, i) => `+33610002000${i + 2}`),
		];
		const result = await engine.run({
			parameters: {
				resource: 'message',
				operation: 'send',
				phone: '={{ $json.phone }}',
				message: 'Stop test',
				options: { batching: { batch: { batchSize: 2, batchInterval: 300 } } },
			},
			items: phones.map((phone) => ({ json: { phone } })),
		});
		expect(result.error?.message).toBe('Item 1: "bad" is not an international phone number');
		expect(result.error?.description).toMatch(/ Item 0 went through before the run stopped;/);
		expect(phones.map((phone) => messagesTo(phone).length)).toEqual([1, 0, 0, 0, 0, 0]);
	});

	it('L2: batching is on without touching the options: 50 sends, then the next batch a second after the first', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = messageRequests().length;
		const items = Array.from({ length: 52 }, (_, i) => ({
			json: { phone: `+4917000${String(i).padStart(5, '0')}` },
		}));
		const runStart = Date.now();
		const result = await engine.run({
			parameters: {
				resource: 'message',
				operation: 'send',
				phone: '={{ $json.phone }}',
				message: 'Default batching',
			},
			items,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(52);

		const arrivals = messageRequests()
			.slice(before)
			.map((request) => request.at);
		expect(arrivals).toHaveLength(52);
		// A rate of 50 per second, counted from the start of a batch: the 51st send no sooner than a second after the
		// run began. (That a batch goes out together is shown with batches of 2 above: 50 sends are too many to bound
		// in time on a loaded machine.)
		expect(earlyArrivals(arrivals, runStart, { size: 50, intervalMs: 1000 })).toEqual([]);
		// The batch is no smaller: a run of 52 waits once, so its last send goes before two seconds (a batch of 25 or
		// fewer would hold it at least two). Generous on a loaded machine, since only the first batch's pace adds to it.
		expect(Math.max(...arrivals) - runStart).toBeLessThan(2000);
	}, 15_000);

	it.each([
		[
			'a login that takes 1.5 s',
			{ method: 'POST', path: '/api/login_check', kind: 'slow', delayMs: 1_500 },
		],
		[
			'a first send answered 429 with Retry-After 2 s',
			{ method: 'POST', path: MESSAGE_PATH, kind: '429', retryAfter: 2 },
		],
	] as const)(
		'L2: after %s, the batches due meanwhile do not go out together',
		async (_, fault) => {
			const engine = new Engine(credentialsFor(sandbox));
			const before = messageRequests().length;
			sandbox.faults.inject({ ...fault, times: 1 });
			const result = await engine.run({
				parameters: {
					resource: 'message',
					operation: 'send',
					phone: '={{ $json.phone }}',
					message: 'Batch after a delay',
					options: { batching: { batch: { batchSize: 2, batchInterval: 1_000 } } },
				},
				items: Array.from({ length: 8 }, (_, i) => ({ json: { phone: `+3361000200${i}` } })),
			});
			sandbox.faults.clear();
			expect(result.error).toBeUndefined();
			const arrivals = messageRequests()
				.slice(before)
				.filter((request) => request.status < 300)
				.map((request) => request.at)
				.sort((a, b) => a - b);
			expect(arrivals).toHaveLength(8);
			// At most 2 sends in any stretch of the interval: the send two places on comes at least an interval later
			// (less half of it: a loaded machine may delay a send, bringing it nearer the next batch).
			const crowded = arrivals.flatMap((at, k) =>
				k + 2 < arrivals.length && arrivals[k + 2] - at < 500
					? [`sends ${k} and ${k + 2}: ${arrivals[k + 2] - at} ms`]
					: [],
			);
			expect(crowded).toEqual([]);
		},
		20_000,
	);

	it('C2/E2: with Continue On Fail, good and bad items are each answered and paired; only good ones are sent', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const items = [
			{ json: { phone: '+33612340001', text: 'first' } },
			{ json: { phone: 'call me', text: 'bad number' } },
			{ json: { phone: UNASSIGNED_NUMBER, text: 'unassigned number' } },
			{ json: { phone: '+33612340004', text: '' } },
			{ json: { phone: '+33612340005', text: 'last' } },
		];
		const before = messageRequests().length;
		const result = await engine.run({
			parameters: {
				resource: 'message',
				operation: 'send',
				phone: '={{ $json.phone }}',
				message: '={{ $json.text }}',
			},
			items,
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(5);
		expect(pairedInputs(result)).toEqual([0, 1, 2, 3, 4]);
		const [first, badNumber, unassigned, emptyText, last] = result.items.map((item) => item.json);
		expect(first).toMatchObject({ phone: '+33612340001', status: 'queued' });
		expect(badNumber.error).toBe('Item 1: "call me" is not an international phone number');
		expect(unassigned).toMatchObject({ code: 'INVALID_PHONE', httpCode: '422' });
		expect(unassigned.serviceMessage).toContain(UNASSIGNED_NUMBER);
		expect(emptyText.error).toBe('Item 3: the message text is empty');
		expect(last).toMatchObject({ phone: '+33612340005', status: 'queued' });

		// Only the three items that passed the node's checks reached the service.
		expect(messageRequests().length - before).toBe(3);
		expect(messagesTo('+33612340001')).toHaveLength(1);
		expect(messagesTo('+33612340005')).toHaveLength(1);
		expect(messagesTo('+33612340004')).toHaveLength(0);
	});
});
