#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run demo:queue`: n8n 2.40.7 in queue mode (Postgres, Redis, one main, two workers) with this package
 * installed in each, driven through the scenarios of tools/queueScenarios.js; prints what each worker did and
 * what the emulator received. Everything started is stopped at the end (also on failure or Ctrl-C).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureRuntime, packPackage } = require('../tools/n8n');
const { startQueueScenarios } = require('../tools/queueScenarios');

const SMALL = process.env.CM_QUEUE_DEMO_SCALE === 'small';

/** @param {Record<string, number>} perWorker */
const split = (perWorker) => Object.entries(perWorker).map(([w, n]) => `${w} ${n}`).join(', ');

async function main() {
  const started = Date.now();
  const runtime = await ensureRuntime(2);
  process.stderr.write('[demo:queue] packing the package...\n');
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-demo-pack-'));
  process.on('exit', () => fs.rmSync(packDir, { recursive: true, force: true }));
  const tarball = await packPackage(path.resolve(__dirname, '..'), { nodeBin: runtime.nodeBin, destDir: packDir });
  process.stderr.write('[demo:queue] starting Postgres, Redis, the n8n main and two workers...\n');
  const q = await startQueueScenarios({ tarball });
  try {
    process.stderr.write(`[demo:queue] deployment up in ${(q.deployment.startupMs / 1000).toFixed(1)} s; main ${q.deployment.main.url}, workers pids ${q.deployment.workers.map((w) => w.pid).join(', ')}\n`);
    q.addTriggerOrders('TRG', SMALL ? 20 : 200);
    const burst = await q.burst({ prefix: 'BURST', orders: SMALL ? 45 : 450, repeats: SMALL ? 10 : 100, clients: 50 });
    const dup = await q.simultaneous({ prefix: 'DUP', pairs: SMALL ? 10 : 50 });
    const ttl = await q.shortTokens({ prefix: 'TTL', ttlSeconds: 10, seconds: SMALL ? 12 : 25, perSecond: 8 });
    const trig = await q.triggerResult('TRG', SMALL ? 20 : 200);
    const dies = await q.workerDies({ prefix: 'DIE', events: SMALL ? 60 : 200, clients: 20, killAfter: SMALL ? 20 : 60 });
    const rows = [
      ['1 burst', `${burst.calls} calls, ${burst.events} events (${burst.distinctEvents} distinct, ${burst.missing} missing)`, `${burst.duplicates}`, split(burst.executions.perWorker), `${burst.loginsSinceStart}`, `${burst.ordersInOrder}/${burst.distinctEvents / 2} orders paid before shipped, ${(burst.durationMs / 1000).toFixed(1)} s`],
      ['2 repeats', `${burst.repeatsSent} repeats of accepted events`, `${burst.duplicates}`, '(in the burst)', '', ''],
      ['3 simultaneous', `${dup.pairs} events x2 at once, ${dup.sent} sent`, `${dup.twice}`, split(dup.executions.perWorker), '', `${dup.pairsOnTwoWorkers} pairs ran on two workers`],
      ['4 tokens 10 s', `${ttl.deliveries} calls, ${ttl.events} events`, `${ttl.duplicates}`, split(ttl.executions.perWorker), `${ttl.logins}`, `${ttl.lifetimes} lifetimes: ${ttl.loginsPerWorkerPerLifetime.toFixed(2)} logins per worker per lifetime`],
      ['5 trigger', `${trig.orders} new orders, ${trig.emitted} emitted`, `${trig.twice}`, split(trig.executions.perWorker), '', `polls: main ${trig.polls.main}, workers ${trig.polls.workers}; ${trig.executions.total} executions, all on workers: ${trig.onWorkers === trig.executions.total}`],
      ['6 worker dies', `${dies.deliveries} calls, ${dies.events} events`, `${dies.twice}`, split(dies.executions.perWorker), '', `${dies.killed} killed; statuses ${JSON.stringify(dies.executions.perStatus)}; lost among successful ${dies.lostAmongSuccessful}`],
    ];
    const head = ['scenario', 'what', 'sent twice', 'executions per worker', 'logins', 'notes'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (/** @type {string[]} */ r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
    console.log([line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
    console.log(`\nlogins since the deployment started, burst included: ${burst.loginsSinceStart} (token lifetime 1 h, ${q.deployment.workers.length} workers); total ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await q.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
