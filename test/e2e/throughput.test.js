// @ts-check
'use strict';
/**
 * Throughput in a REAL n8n 2.x process (`n8n execute`): 400 order events (200 orders, each `paid` then `shipped`)
 * pushed with Request Options > Concurrency 8 against an emulator with a round trip and jitter, so lanes really
 * overtake each other. The emulator's own records judge: every event exactly once, each order's `paid` before its
 * `shipped`, one login, the outputs in input order.
 */
const p = require('../../tools/provision');
const { orderEventsWorkflow } = require('./lib/testWorkflows');
const { selectedVersions } = require('./lib/versions');

const { n8n } = p;
const MAJOR = 2;
const ORDERS = 200;

(selectedVersions().includes(MAJOR) ? describe : describe.skip)(
  `n8n ${n8n.VERSIONS[MAJOR]} (real process): order events with Concurrency 8`,
  () => {
    /** @type {Awaited<ReturnType<typeof p.startDemoSandbox>>} */
    let sandbox;
    /** @type {import('../../tools/n8n').N8nHome | undefined} */
    let home;
    const workflow = orderEventsWorkflow(ORDERS, 8);

    beforeAll(async () => {
      const tarball = process.env.CM_E2E_TARBALL;
      if (!tarball) throw new Error('CM_E2E_TARBALL is not set: run with -c test/e2e/jest.config.js (its globalSetup packs the package)');
      sandbox = await p.startDemoSandbox({ port: 0 });
      ({ home } = await p.provisionN8n({ major: MAJOR, tarball, sandboxUrl: sandbox.url, extraWorkflows: [workflow] }));
    }, 600_000);

    afterAll(async () => {
      await sandbox?.close();
      if (home) n8n.removeHome(home);
    });

    it('V1/V4/A3: every event reaches the service exactly once, each order paid before shipped, with one login', async () => {
      if (!home) throw new Error('no n8n home');
      sandbox.reset();
      sandbox.setConfig({ latencyMs: 5, latencyJitterMs: 15 });
      const loginsBefore = sandbox.loginCount();
      const result = await n8n.executeWorkflow(home, workflow.id, { timeoutMs: 180_000 });
      if (!p.runSucceeded(result).ok) throw new Error(`the run failed: ${result.error?.message ?? `exit ${result.code}`}`);

      const events = sandbox.state.orderEvents.filter((e) => String(e.body.order_id).startsWith('LANE-'));
      expect(events).toHaveLength(ORDERS * 2);
      expect(new Set(events.map((e) => `${e.body.order_id}:${e.body.status}`)).size).toBe(ORDERS * 2);
      /** @type {Map<string, string[]>} */
      const byOrder = new Map();
      for (const e of events) byOrder.set(e.body.order_id, [...(byOrder.get(e.body.order_id) ?? []), e.body.status]);
      expect([...byOrder.values()].every((statuses) => statuses.join() === 'paid,shipped')).toBe(true);
      // Lanes did overlap: the arrival order is not the input order.
      expect(events.map((e) => e.body.order_id)).not.toEqual(events.map((e) => e.body.order_id).slice().sort(byNumber));
      expect(sandbox.loginCount() - loginsBefore).toBeLessThanOrEqual(1);

      const output = result.nodeOutput('Push order event') ?? [];
      expect(output).toHaveLength(ORDERS * 2);
      expect(output.map((json) => `${json.order_id}:${json.status}`)).toEqual(
        Array.from({ length: ORDERS * 2 }, (_, i) => `LANE-${Math.floor(i / 2)}:${i % 2 ? 'shipped' : 'paid'}`),
      );
    }, 240_000);
  },
);

/** @param {string} a @param {string} b */
function byNumber(a, b) {
  return Number(a.split('-')[1]) - Number(b.split('-')[1]);
}
