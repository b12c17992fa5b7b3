/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a model that runs its own virtual clock */
/**
 * Deduplicate Across Workers in queue mode's worst case, as a model: 50 order events, each delivered twice at the
 * same instant, 50 ms apart, on two worker processes, against a store that behaves as n8n's deduplication helper
 * does in 'entries' mode (each call reads the node's row, waits, and writes back the row it read with its own values,
 * so a row read before can bring back or take out any value). The real EventPush and SharedClaims run, each process
 * with its own module copy (memory, in-flight map, shared history); the clock is virtual and every random choice is
 * seeded, so a run is the same each time. test/e2e/queue.test.js measures the same scenario in a real n8n; there the
 * race this model reproduces at will is rare.
 */
import type { EventIdentity } from '../../nodes/CommerceMessaging/helpers/deduplication';

type Timer = { at: number; order: number; resolve: () => void };
const clock = { now: 1_700_000_043_200_000, timers: [] as Timer[], order: 0 };
function sleep(ms: number) {
	return new Promise<void>((resolve) => {
		clock.timers.push({ at: clock.now + Math.max(0, ms), order: clock.order++, resolve });
		clock.timers.sort((a, b) => a.at - b.at || a.order - b.order);
	});
}
/** Runs the work to its end, moving the clock to each next timer once nothing else can run. */
async function runAll(work: Promise<unknown>) {
	let done = false;
	const settled = work.finally(() => (done = true));
	while (!done) {
		await new Promise<void>((resolve) => setImmediate(resolve));
		if (done) break;
		const next = clock.timers.shift();
		if (!next) throw new Error('nothing scheduled and the work is not done');
		clock.now = Math.max(clock.now, next.at);
		next.resolve();
	}
	await settled;
}

/** A seeded generator (mulberry32): every random choice of a run, the node's included. */
function seeded(seed: number) {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

const sends = new Map<string, number>();
jest.mock('../../transport/request', () => ({
	...jest.requireActual('../../transport/request'),
	pause: async (_ctx: unknown, ms: number) => await sleep(ms),
	apiRequest: async (_ctx: unknown, _route: string, spec: { body: { orderId: string } }) => {
		await sleep(50);
		sends.set(spec.body.orderId, (sends.get(spec.body.orderId) ?? 0) + 1);
		return { orderId: spec.body.orderId, accepted: true };
	},
}));

/**
 * How long a store call takes, and its gap from reading the row to writing it: always below the claim's least pause
 * (SETTLE_MS in sharedDeduplication.ts), and far below it with `shortGaps`. A Fischer claim alone holds only while no
 * chain of overlapping calls outlasts its pause.
 */
function latencyOf(random: () => number, shortGaps: boolean) {
	const total = shortGaps ? 5 + random() * 245 : 5 + random() * 795;
	const gap = shortGaps ? Math.min(100, total * 0.3) : Math.min(250, total * random());
	const beforeRead = (total - gap) * random();
	return { beforeRead, gap, after: total - gap - beforeRead };
}

class Store {
	row: string[] = Array.from({ length: 900 }, (_, i) => `earlier-${i}`);
	constructor(
		private readonly random: () => number,
		private readonly shortGaps: boolean,
	) {}
	private async update(change: (row: string[]) => void) {
		const { beforeRead, gap, after } = latencyOf(this.random, this.shortGaps);
		await sleep(beforeRead);
		const row = [...this.row];
		await sleep(gap);
		change(row);
		this.row = row;
		await sleep(after);
	}
	async check(values: unknown[], maxEntries: number) {
		const processed: unknown[] = [];
		await this.update((row) => {
			const had = new Set(row);
			for (const value of values)
				if (had.has(String(value))) processed.push(value);
				else row.push(String(value));
			row.splice(0, row.length - maxEntries);
		});
		return { processed, new: values.filter((value) => !processed.includes(value)) };
	}
	async remove(values: unknown[]) {
		await this.update((row) => {
			for (const value of values)
				if (row.includes(String(value))) row.splice(row.indexOf(String(value)), 1);
		});
	}
}

type Deduplication = typeof import('../../nodes/CommerceMessaging/helpers/deduplication');
function newProcess() {
	let module!: Deduplication;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module per worker process
		module = require('../../nodes/CommerceMessaging/helpers/deduplication') as Deduplication;
	});
	return module;
}

async function execution(worker: Deduplication, store: Store, orderId: string) {
	const node = {
		id: 'push',
		name: 'Push Event',
		type: 'x',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const staticData = {};
	const ctx = {
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) =>
			name === 'options.deduplicateAcrossWorkers' ? true : fallback,
		getInputData: () => [{ json: { orderId } }],
		getCredentials: async () => ({ baseUrl: 'https://shop.test', username: 'u', password: 'p' }),
		getNode: () => node,
		getWorkflow: () => ({ id: 'wf-1', name: 'wf', active: true }),
		getWorkflowStaticData: () => staticData,
		helpers: {
			checkProcessedAndRecord: async (
				values: unknown[],
				_scope: string,
				options: { maxEntries: number },
			) => await store.check(values, options.maxEntries),
			removeProcessed: async (values: unknown[]) => await store.remove(values),
		},
	};
	const push = await worker.EventPush.start(ctx as never, 1, () => ({
		identity: worker.orderEvent(orderId, 'paid') as EventIdentity,
		identifiers: { orderId },
	}));
	await push.send(0, 'orderEvent', { orderId });
	await push.finish();
}

/** Scenario 3 once: what the service received of each of the 50 events. */
async function trial(random: () => number, shortGaps: boolean) {
	sends.clear();
	const store = new Store(random, shortGaps);
	const processes = [newProcess(), newProcess()];
	const work: Array<Promise<void>> = [];
	for (let pair = 0; pair < 50; pair++) {
		const first = random() < 0.5 ? 0 : 1;
		// About three pairs in four ran on two workers in the real runs.
		const second = random() < 0.76 ? 1 - first : first;
		for (const worker of [first, second])
			work.push(
				sleep(pair * 50 + random() * 40).then(
					async () => await execution(processes[worker], store, `order-${pair}`),
				),
			);
	}
	await runAll(Promise.all(work));
	const counts = Array.from({ length: 50 }, (_, pair) => sends.get(`order-${pair}`) ?? 0);
	return {
		lost: counts.filter((n) => n === 0).length,
		twice: counts.filter((n) => n > 1).length,
	};
}

async function trials(seed: number, count: number, shortGaps: boolean) {
	const random = seeded(seed);
	jest.spyOn(Math, 'random').mockImplementation(random);
	const totals = { lost: 0, twice: 0, worstTwice: 0 };
	for (let n = 0; n < count; n++) {
		const { lost, twice } = await trial(random, shortGaps);
		totals.lost += lost;
		totals.twice += twice;
		totals.worstTwice = Math.max(totals.worstTwice, twice);
	}
	return totals;
}

describe('Deduplicate Across Workers, modelled: 50 events delivered twice at the same instant', () => {
	beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => Math.floor(clock.now)));
	afterAll(() => jest.restoreAllMocks());

	// The figures depend on the seed: a change to the protocol's random draws deals other runs. What must hold is the
	// comparison with the claim alone (its figures in docs/deduplication.md).
	it('V4: with gaps under 100 ms, none of 2,500 events is lost, and at most 5 of 50 go twice', async () => {
		const totals = await trials(7, 50, true);
		expect(totals.lost).toBe(0);
		expect(totals.worstTwice).toBeLessThanOrEqual(5);
	}, 300_000);

	it('V4: with gaps up to 250 ms, where chains of calls bring back claims of executions that gave up, the yield marks keep nearly every event', async () => {
		const totals = await trials(11, 100, false);
		// The claim alone fails both (its figures: docs/deduplication.md, yield marks).
		expect(totals.lost).toBeLessThanOrEqual(3);
		expect(totals.worstTwice).toBeLessThanOrEqual(5);
	}, 300_000);
});
