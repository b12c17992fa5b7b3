// @ts-check
'use strict';
/**
 * The queue-mode scenarios, written once and used by `npm run demo:queue` (scripts/demo-queue.js) and
 * the e2e suite (test/e2e/queue.test.js): the emulator, the deployment (tools/n8n/queue.js: Postgres, Redis, one
 * main, two workers), a webhook workflow pushing order events and an active New Order trigger workflow. Every
 * figure comes from the emulator's own records (events, logins), the workers' logs (who ran what) and n8n's
 * database (execution status); the callers print or assert them.
 */
const p = require('./provision');
const { startQueueDeployment, executionsByWorker } = require('./n8n/queue');

const { n8n } = p;
const WEBHOOK_PATH = 'cm-order-events';
const WEBHOOK_WORKFLOW_ID = 'cmQueueWebhook01';
const TRIGGER_WORKFLOW_ID = 'cmQueueTrigger01';
/** A repeated delivery comes at least this long after the service accepted the event (a shop re-sending). */
const REPEAT_AFTER_MS = 3000;
const CREDENTIAL = { id: p.DEMO_CREDENTIAL_ID, name: 'Commerce Messaging (demo)' };

/**
 * Webhook (answers at once, so the main never waits on a worker) -> Commerce Messaging: Push Order Event, with
 * Deduplicate Across Workers on, as docs/deduplication.md tells a queue-mode user to set it.
 */
function webhookWorkflow() {
  return {
    id: WEBHOOK_WORKFLOW_ID,
    name: 'Queue: webhook -> push order event',
    nodes: [
      {
        parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
        id: 'b1c0a000-0000-4000-8000-000000000001',
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: 'b1c0a000-0000-4000-8000-0000000000aa',
      },
      {
        parameters: {
          resource: 'order',
          operation: 'pushEvent',
          orderId: '={{ $json.body.orderId }}',
          status: '={{ $json.body.status }}',
          options: { deduplicate: true, deduplicateAcrossWorkers: true },
        },
        id: 'b1c0a000-0000-4000-8000-000000000002',
        name: 'Push order event',
        type: p.NODE_TYPE,
        typeVersion: 1,
        position: [220, 0],
        credentials: { commerceMessagingApi: CREDENTIAL },
      },
    ],
    connections: { Webhook: { main: [[{ node: 'Push order event', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
    active: false,
  };
}

/** New Order (status "placed") polled every minute -> Push Order Event "seen" (no dedup: every emission shows). */
function triggerWorkflow() {
  return {
    id: TRIGGER_WORKFLOW_ID,
    name: 'Queue: new order trigger',
    nodes: [
      {
        parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'newOrder', filters: { status: 'placed' } },
        id: 'b1c0a000-0000-4000-8000-000000000003',
        name: 'New order',
        type: 'n8n-nodes-commerce-messaging.commerceMessagingTrigger',
        typeVersion: 1,
        position: [0, 0],
        credentials: { commerceMessagingApi: CREDENTIAL },
      },
      {
        parameters: { resource: 'order', operation: 'pushEvent', orderId: '={{ $json.order_id }}', status: 'seen', options: { deduplicate: false } },
        id: 'b1c0a000-0000-4000-8000-000000000004',
        name: 'Mark seen',
        type: p.NODE_TYPE,
        typeVersion: 1,
        position: [220, 0],
        credentials: { commerceMessagingApi: CREDENTIAL },
      },
    ],
    connections: { 'New order': { main: [[{ node: 'Mark seen', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
    active: false,
  };
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {() => boolean | Promise<boolean>} condition @param {number} timeoutMs */
async function waitFor(condition, timeoutMs, stepMs = 250) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await condition()) return true;
    await sleep(stepMs);
  }
  return condition();
}

/**
 * Runs `tasks` with `clients` of them in flight at once.
 * @template T @param {Array<() => Promise<T>>} tasks @param {number} clients @returns {Promise<T[]>}
 */
async function withClients(tasks, clients) {
  const results = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

/**
 * Starts the emulator and the deployment, with the webhook workflow and the trigger workflow active.
 * @param {{ tarball: string, workers?: number, tokenTtlSeconds?: number }} opts
 */
async function startQueueScenarios(opts) {
  const sandbox = await p.startDemoSandbox({ port: 0, tokenTtlSeconds: opts.tokenTtlSeconds ?? 3600, recordRequests: false });
  try {
    const deployment = await startQueueDeployment({
      tarball: opts.tarball,
      workers: opts.workers ?? 2,
      credentials: [p.demoCredential(sandbox.url)],
      workflows: [webhookWorkflow(), triggerWorkflow()],
      activate: [WEBHOOK_WORKFLOW_ID, TRIGGER_WORKFLOW_ID],
      // n8n logs "Poll trigger initiated for workflow ..." at debug level, in the process that polls (scenario 5).
      logLevel: 'debug',
    });
    const scenarios = new QueueScenarios(sandbox, deployment);
    try {
      await n8n.waitForProductionUrl(scenarios.webhookUrl);
    } catch (error) {
      await deployment.stop();
      throw error;
    }
    return scenarios;
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

class QueueScenarios {
  /**
   * @param {Awaited<ReturnType<typeof p.startDemoSandbox>>} sandbox
   * @param {Awaited<ReturnType<typeof startQueueDeployment>>} deployment
   */
  constructor(sandbox, deployment) {
    this.sandbox = sandbox;
    this.deployment = deployment;
    this.webhookUrl = `${deployment.main.url}/webhook/${WEBHOOK_PATH}`;
    this.demo = /** @type {{ id: number }} */ (sandbox.state.userByName(p.DEMO_USER.username));
  }

  async stop() {
    await this.deployment.stop();
    await this.sandbox.close();
  }

  /** One webhook delivery; @param {string} orderId @param {string} status @returns {Promise<number>} HTTP status */
  async deliver(orderId, status) {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(this.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ orderId, status }),
          signal: AbortSignal.timeout(60_000),
        });
        await res.arrayBuffer();
        return res.status;
      } catch (error) {
        if (attempt >= 2) throw error;
        await sleep(500);
      }
    }
  }

  /** Order events at the emulator, as "orderId:status" in arrival order. @returns {string[]} */
  events() {
    return this.sandbox.state.orderEvents.map((/** @type {{ body: any }} */ e) => `${e.body.order_id}:${e.body.status}`);
  }

  /** @param {string} prefix */
  eventCounts(prefix) {
    /** @type {Map<string, number>} */
    const counts = new Map();
    for (const key of this.events()) if (key.startsWith(prefix)) counts.set(key, (counts.get(key) ?? 0) + 1);
    return counts;
  }

  logins() {
    return this.sandbox.state.logins.length;
  }

  /** Executions per worker (from their logs) and per status (from n8n's database), for one workflow since `sinceId`. */
  async executions(workflowId = WEBHOOK_WORKFLOW_ID, sinceId = 0) {
    const rows = await this.deployment.query(
      'select id, status from execution_entity where "workflowId" = $1 and id > $2 order by id',
      [workflowId, sinceId],
    );
    const byWorker = executionsByWorker(this.deployment.workers);
    /** @type {Record<string, number>} */
    const perWorker = Object.fromEntries(this.deployment.workers.map((w) => [w.name, 0]));
    /** @type {Record<string, number>} */
    const perStatus = {};
    let unattributed = 0;
    for (const row of rows) {
      perStatus[row.status] = (perStatus[row.status] ?? 0) + 1;
      const w = byWorker.get(String(row.id));
      if (w) perWorker[w.worker] = (perWorker[w.worker] ?? 0) + 1;
      else unattributed++;
    }
    return { total: rows.length, perWorker, perStatus, unattributed, rows: /** @type {Array<{ id: number, status: string }>} */ (rows) };
  }

  /**
   * The claim pauses the workers logged (debug level): how many, the longest, the slowest store call behind one,
   * and claims taken without a confirming read-back.
   */
  claimPauses() {
    const pauses = this.deployment.workers.flatMap((w) =>
      [...w.output().matchAll(/claim pause before the read-back.*?"ms":(\d+),"slowestCallMs":(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]),
    );
    const unconfirmed = this.deployment.workers.reduce((n, w) => n + (w.output().split('taken without a confirming read-back').length - 1), 0);
    return {
      count: pauses.length,
      longestMs: Math.max(0, ...pauses.map(([ms]) => ms)),
      slowestCallMs: Math.max(0, ...pauses.map(([, call]) => call)),
      unconfirmed,
    };
  }

  /** The push node's row in n8n's shared deduplication store: its values and its size in the database. */
  async dedupRow() {
    const rows = await this.deployment.query(
      `select json_array_length((value::json)->'data') as "values", octet_length(value::text) as bytes
         from processed_data where "workflowId" = $1`,
      [WEBHOOK_WORKFLOW_ID],
    );
    return { values: Number(rows[0]?.values ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
  }

  async lastExecutionId() {
    const rows = await this.deployment.query('select coalesce(max(id), 0) as id from execution_entity');
    return Number(rows[0].id);
  }

  /**
   * Waits until every execution since `sinceId` has ended (no new, running or waiting one left).
   * @param {number} sinceId @param {number} expected
   */
  async settle(sinceId, expected, timeoutMs = 300_000) {
    return await waitFor(async () => {
      const rows = await this.deployment.query(
        `select count(*)::int as n, count(*) filter (where status in ('new', 'running', 'waiting', 'unknown'))::int as open
           from execution_entity where "workflowId" = $1 and id > $2`,
        [WEBHOOK_WORKFLOW_ID, sinceId],
      );
      return rows[0].n >= expected && rows[0].open === 0;
    }, timeoutMs, 1000);
  }

  /**
   * Scenarios 1, 2 and 4: `orders` orders, each `paid` then `shipped` (the second sent once the first is at the
   * service, so their order is known), and `repeats` deliveries of events the service already accepted, by
   * `clients` concurrent clients.
   * @param {{ prefix: string, orders: number, repeats: number, clients: number }} o
   */
  async burst(o) {
    const sinceId = await this.lastExecutionId();
    const loginsBefore = this.logins();
    const started = Date.now();
    const seen = (/** @type {string} */ key) => this.events().includes(key);
    /** @type {Array<{ key: string, at: number }>} */
    const accepted = [];
    let repeatsSent = 0;
    let delivered = 0;
    /** @param {string} orderId @param {string} status */
    const send = async (orderId, status) => {
      if ((await this.deliver(orderId, status)) === 200) delivered++;
    };
    const orderTasks = Array.from({ length: o.orders }, (_, i) => async () => {
      const orderId = `${o.prefix}-${i + 1}`;
      await send(orderId, 'paid');
      await waitFor(() => seen(`${orderId}:paid`), 120_000);
      accepted.push({ key: `${orderId}:paid`, at: Date.now() });
      await send(orderId, 'shipped');
      await waitFor(() => seen(`${orderId}:shipped`), 120_000);
      accepted.push({ key: `${orderId}:shipped`, at: Date.now() });
      // A shop re-sending a webhook: an event the service accepted a few seconds ago (or the oldest), again.
      const due = Math.floor(((i + 1) * o.repeats) / o.orders) - Math.floor((i * o.repeats) / o.orders);
      for (let r = 0; r < due; r++) {
        const old = accepted.filter((a) => Date.now() - a.at >= REPEAT_AFTER_MS);
        const pool = old.length > 0 ? old : accepted.slice(0, 1);
        const { key } = pool[(i * 7 + r * 13) % pool.length];
        const [id, status] = key.split(':');
        repeatsSent++;
        await send(id, status);
      }
    });
    await withClients(orderTasks, o.clients);
    const calls = o.orders * 2 + repeatsSent;
    await this.settle(sinceId, calls);
    const counts = this.eventCounts(`${o.prefix}-`);
    const inOrder = [...new Set([...counts.keys()].map((k) => k.split(':')[0]))].filter((id) => {
      const keys = this.events().filter((k) => k.startsWith(`${id}:`));
      return keys.indexOf(`${id}:paid`) < keys.indexOf(`${id}:shipped`);
    }).length;
    return {
      calls,
      delivered,
      repeatsSent,
      durationMs: Date.now() - started,
      events: [...counts.values()].reduce((a, b) => a + b, 0),
      distinctEvents: counts.size,
      duplicates: [...counts.values()].filter((n) => n > 1).length,
      missing: o.orders * 2 - counts.size,
      ordersInOrder: inOrder,
      logins: this.logins() - loginsBefore,
      // Since the deployment started (the trigger's first poll logged in before the burst).
      loginsSinceStart: this.logins(),
      executions: await this.executions(WEBHOOK_WORKFLOW_ID, sinceId),
    };
  }

  /**
   * Scenario 3: `pairs` events each delivered twice at the same instant (both calls in flight together).
   * @param {{ prefix: string, pairs: number }} o
   */
  async simultaneous(o) {
    const sinceId = await this.lastExecutionId();
    const keys = Array.from({ length: o.pairs }, (_, i) => `${o.prefix}-${i + 1}`);
    for (const orderId of keys) {
      await Promise.all([this.deliver(orderId, 'paid'), this.deliver(orderId, 'paid')]);
      await sleep(50);
    }
    await this.settle(sinceId, o.pairs * 2);
    const counts = this.eventCounts(`${o.prefix}-`);
    // Which worker ran each delivery: the execution's webhook body names the order.
    const rows = await this.deployment.query(
      `select "executionId" as id, substring(data from '${o.prefix}-[0-9]+') as order_id from execution_data
         where "executionId" > $1 and data like $2`,
      [sinceId, `%${o.prefix}-%`],
    );
    const byWorker = executionsByWorker(this.deployment.workers);
    /** @type {Map<string, Set<string>>} */
    const workersOf = new Map();
    for (const row of rows) {
      const w = byWorker.get(String(row.id));
      if (!w || !row.order_id) continue;
      workersOf.set(row.order_id, new Set([...(workersOf.get(row.order_id) ?? []), w.worker]));
    }
    const twice = [...counts.values()].filter((n) => n > 1).length;
    return {
      pairs: o.pairs,
      sent: counts.size,
      missing: o.pairs - counts.size,
      twice,
      pairsOnTwoWorkers: [...workersOf.values()].filter((s) => s.size > 1).length,
      executions: await this.executions(WEBHOOK_WORKFLOW_ID, sinceId),
    };
  }

  /**
   * Scenario 4b: logins with a short token lifetime, over deliveries spread across `seconds`.
   * @param {{ prefix: string, ttlSeconds: number, seconds: number, perSecond: number }} o
   */
  async shortTokens(o) {
    this.sandbox.setConfig({ tokenTtlSeconds: o.ttlSeconds });
    this.sandbox.expireTokensNow();
    const sinceId = await this.lastExecutionId();
    const loginsBefore = this.logins();
    const started = Date.now();
    let n = 0;
    for (let s = 0; s < o.seconds; s++) {
      const tick = Date.now();
      await Promise.all(Array.from({ length: o.perSecond }, () => this.deliver(`${o.prefix}-${++n}`, 'paid')));
      await sleep(Math.max(0, 1000 - (Date.now() - tick)));
    }
    await this.settle(sinceId, n);
    const durationMs = Date.now() - started;
    const logins = this.logins() - loginsBefore;
    const lifetimes = Math.ceil(durationMs / 1000 / o.ttlSeconds);
    const counts = this.eventCounts(`${o.prefix}-`);
    this.sandbox.setConfig({ tokenTtlSeconds: 3600 });
    return {
      deliveries: n,
      events: counts.size,
      duplicates: [...counts.values()].filter((c) => c > 1).length,
      durationMs,
      logins,
      lifetimes,
      loginsPerWorkerPerLifetime: logins / this.deployment.workers.length / lifetimes,
      executions: await this.executions(WEBHOOK_WORKFLOW_ID, sinceId),
    };
  }

  /** Scenario 5, part one: `count` new orders at the service (the trigger's next poll finds them). */
  addTriggerOrders(/** @type {string} */ prefix, /** @type {number} */ count) {
    const now = Date.now();
    for (let i = 1; i <= count; i++) this.sandbox.state.upsertOrder(this.demo.id, { order_id: `${prefix}-${i}`, status: 'placed' }, now);
  }

  /** Scenario 5, part two: waits for the trigger's emissions and counts them. */
  async triggerResult(/** @type {string} */ prefix, /** @type {number} */ count, timeoutMs = 200_000) {
    const started = Date.now();
    await waitFor(() => this.eventCounts(`${prefix}-`).size >= count, timeoutMs, 1000);
    await sleep(2000);
    const counts = this.eventCounts(`${prefix}-`);
    const executions = await this.executions(TRIGGER_WORKFLOW_ID, 0);
    const pollLine = `Poll trigger initiated for workflow "${triggerWorkflow().name}"`;
    const pollsIn = (/** @type {string} */ log) => log.split(pollLine).length - 1;
    return {
      orders: count,
      emitted: counts.size,
      twice: [...counts.values()].filter((n) => n > 1).length,
      waitedMs: Date.now() - started,
      executions,
      // Polls run in the main (n8n's log line of each poll, counted per process); its executions on workers.
      polls: {
        main: pollsIn(this.deployment.main.output()),
        workers: this.deployment.workers.reduce((n, w) => n + pollsIn(w.output()), 0),
      },
      onWorkers: executions.total - executions.unattributed,
    };
  }

  /**
   * Scenario 6: a burst during which one worker is killed (SIGKILL to its process group, by its own pid).
   * @param {{ prefix: string, events: number, clients: number, killAfter: number }} o
   */
  async workerDies(o) {
    const sinceId = await this.lastExecutionId();
    const victim = this.deployment.workers[0];
    let sent = 0;
    let killed = false;
    const tasks = Array.from({ length: o.events }, (_, i) => async () => {
      if (!killed && sent >= o.killAfter) {
        killed = true;
        victim.kill('SIGKILL');
      }
      sent++;
      return await this.deliver(`${o.prefix}-${i + 1}`, 'paid');
    });
    await withClients(tasks, o.clients);
    const started = Date.now();
    // Executions the dead worker held: Bull fails the stalled jobs, the main marks what is left as crashed.
    await waitFor(async () => {
      const rows = await this.deployment.query(
        `select count(*) filter (where status in ('new', 'running', 'waiting', 'unknown'))::int as open
           from execution_entity where "workflowId" = $1 and id > $2`,
        [WEBHOOK_WORKFLOW_ID, sinceId],
      );
      return rows[0].open === 0;
    }, 240_000, 2000);
    const execs = await this.executions(WEBHOOK_WORKFLOW_ID, sinceId);
    const rows = await this.deployment.query(
      `select e.id, e.status, substring(d.data from '${o.prefix}-[0-9]+') as order_id from execution_entity e
         join execution_data d on d."executionId" = e.id where e."workflowId" = $1 and e.id > $2`,
      [WEBHOOK_WORKFLOW_ID, sinceId],
    );
    const counts = this.eventCounts(`${o.prefix}-`);
    const successful = rows.filter((r) => r.status === 'success').map((r) => r.order_id);
    return {
      deliveries: o.events,
      killed: victim.name,
      recoveryMs: Date.now() - started,
      executions: execs,
      events: counts.size,
      twice: [...counts.values()].filter((n) => n > 1).length,
      lostAmongSuccessful: successful.filter((id) => !counts.has(`${id}:paid`)).length,
      notSuccessful: rows.filter((r) => r.status !== 'success').length,
      notSuccessfulButSent: rows.filter((r) => r.status !== 'success' && counts.has(`${r.order_id}:paid`)).length,
      executionsWithoutData: o.events - rows.length,
    };
  }
}

module.exports = { startQueueScenarios, QueueScenarios, webhookWorkflow, triggerWorkflow, WEBHOOK_WORKFLOW_ID, TRIGGER_WORKFLOW_ID, n8n };
