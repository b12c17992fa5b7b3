// @ts-check
'use strict';
/**
 * n8n in queue mode, as shops run it when one process is not enough: PostgreSQL holds workflows, credentials and
 * executions, Redis (Bull) queues the executions, one main (`n8n start`, EXECUTIONS_MODE=queue) takes webhooks
 * and runs polls and schedules, and workers (`n8n worker`) run the executions. Postgres and Redis come from
 * Debian's packages (scripts/ensure-queue-services.sh installs the missing ones) and run as plain processes on
 * free loopback ports with their data in a temporary folder. Every process is a process group stopped by stop().
 * Each n8n process has its own home with the package installed from the tarball; all share one encryption key.
 */
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { run, startLongRunning, tail } = require('./process');
const { PROJECT_ROOT, n8nRequire } = require('./runtime');
const { createN8nHome, freePort, removeHome } = require('./home');
const { importCredentials, importWorkflows, runN8n } = require('./cli');
const { startEditor } = require('./editor');

const DB_USER = 'cm';
const DB_NAME = 'n8n';

/**
 * @typedef {{ pid: number | undefined, output: () => string, exited: Promise<number | null>, stop: () => Promise<void> }} Service
 * @typedef {Service & { name: string, home: import('./home').N8nHome, kill: (signal?: NodeJS.Signals) => void }} Worker
 */

/** Installs Postgres/Redis when missing; @returns {Promise<{ pgBin: string, redisServer: string }>} */
async function ensureQueueServices() {
  const res = await run('bash', [path.join(PROJECT_ROOT, 'scripts', 'ensure-queue-services.sh')], { timeoutMs: 15 * 60_000 });
  const pgBin = /^pg_bin=(.+)$/m.exec(res.stdout)?.[1]?.trim();
  const redisServer = /^redis_server=(.+)$/m.exec(res.stdout)?.[1]?.trim();
  if (res.code !== 0 || !pgBin || !redisServer) {
    throw new Error(`scripts/ensure-queue-services.sh failed (code ${res.code}):\n${tail(res.stderr, 30)}`);
  }
  return { pgBin, redisServer };
}

/**
 * Spawns a long-running service in its own process group and waits for `ready` in its output.
 * @param {string} label @param {string} cmd @param {string[]} args @param {RegExp} ready
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, timeoutMs?: number }} [opts]
 * @returns {Promise<Service>}
 */
async function startService(label, cmd, args, ready, opts = {}) {
  const service = startLongRunning(cmd, args, { env: opts.env, cwd: opts.cwd });
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  while (!ready.test(service.output())) {
    if (service.exitCode() !== undefined || Date.now() > deadline) {
      await service.stop();
      throw new Error(`${label} did not start (exit ${service.exitCode()}):\n${tail(service.output(), 40)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { pid: service.pid, output: service.output, exited: service.exited, stop: service.stop };
}

/** Postgres refuses to run as root: then the data folder belongs to, and the server runs as, `postgres`. */
function asDbUser(/** @type {string} */ cmd, /** @type {string[]} */ args, /** @type {string} */ dir) {
  if (process.getuid?.() !== 0) return { cmd, args };
  const id = (/** @type {string} */ flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  fs.chownSync(dir, id('-u'), id('-g'));
  return { cmd: 'runuser', args: ['-u', 'postgres', '--', cmd, ...args] };
}

/** @param {string} pgBin @param {string} base */
async function startPostgres(pgBin, base) {
  const dir = path.join(base, 'postgres');
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const init = asDbUser(path.join(pgBin, 'initdb'), ['-D', data, '-U', DB_USER, '--auth=trust', '-E', 'UTF8', '--no-sync'], dir);
  const res = await run(init.cmd, init.args, { cwd: dir, timeoutMs: 120_000 });
  if (res.code !== 0) throw new Error(`initdb failed (code ${res.code}):\n${tail(res.stderr + res.stdout, 30)}`);
  const server = asDbUser(
    path.join(pgBin, 'postgres'),
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=100'],
    dir,
  );
  const service = await startService('postgres', server.cmd, server.args, /ready to accept connections/, { cwd: dir });
  return { ...service, port, dir };
}

/** @param {string} redisServer @param {string} base */
async function startRedis(redisServer, base) {
  const dir = path.join(base, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  const service = await startService('redis', redisServer, args, /Ready to accept connections/);
  return { ...service, port };
}

/**
 * A SQL query on the deployment's database, with the `pg` client inside the installed n8n.
 * @param {import('./runtime').Runtime} runtime @param {number} port @param {string} sql @param {unknown[]} [params]
 * @returns {Promise<any[]>}
 */
async function query(runtime, port, sql, params = []) {
  const { Client } = n8nRequire(runtime)('pg');
  const client = new Client({ host: '127.0.0.1', port, user: DB_USER, database: DB_NAME });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Starts the whole deployment.
 * @param {{ tarball: string, workers?: number, workerConcurrency?: number,
 *   credentials: Array<{ id?: string, name: string, type: string, data: Record<string, unknown> }>,
 *   workflows: Array<Record<string, any>>, activate?: string[], logLevel?: string, env?: Record<string, string> }} opts
 *   env: settings for main and workers over the ones above (the bench gives back n8n's default queue locks)
 */
async function startQueueDeployment(opts) {
  const started = Date.now();
  const { pgBin, redisServer } = await ensureQueueServices();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-n8n-queue-'));
  fs.chmodSync(base, 0o755);
  /** @type {Array<() => Promise<void>>} */
  const stops = [];
  /** @type {import('./home').N8nHome[]} */
  const homes = [];
  const stop = async () => {
    for (const s of stops.splice(0).reverse()) await s().catch(() => {});
    for (const h of homes.splice(0)) removeHome(h);
    fs.rmSync(base, { recursive: true, force: true });
  };
  try {
    const pg = await startPostgres(pgBin, base);
    stops.push(pg.stop);
    const created = await run(path.join(pgBin, 'createdb'), ['-h', '127.0.0.1', '-p', String(pg.port), '-U', DB_USER, DB_NAME], {
      timeoutMs: 60_000,
    });
    if (created.code !== 0) throw new Error(`createdb failed:\n${tail(created.stderr, 20)}`);
    const redis = await startRedis(redisServer, base);
    stops.push(redis.stop);

    /** What main and workers share: the database, the queue, one encryption key. */
    const shared = {
      EXECUTIONS_MODE: 'queue',
      DB_TYPE: 'postgresdb',
      DB_POSTGRESDB_HOST: '127.0.0.1',
      DB_POSTGRESDB_PORT: String(pg.port),
      DB_POSTGRESDB_DATABASE: DB_NAME,
      DB_POSTGRESDB_USER: DB_USER,
      DB_POSTGRESDB_PASSWORD: '',
      QUEUE_BULL_REDIS_HOST: '127.0.0.1',
      QUEUE_BULL_REDIS_PORT: String(redis.port),
      N8N_ENCRYPTION_KEY: crypto.randomBytes(16).toString('hex'),
      N8N_USER_MANAGEMENT_JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      // A dead worker's jobs are noticed within seconds (n8n's defaults: a 60 s lock, checked every 30 s), and the
      // main marks executions whose job is gone as crashed every minute (default: 180).
      QUEUE_WORKER_LOCK_DURATION: '10000',
      QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
      QUEUE_WORKER_STALLED_INTERVAL: '5000',
      N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '1',
      N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
      ...(opts.env ?? {}),
    };
    const logLevel = opts.logLevel ?? 'info';
    const mainHome = await createN8nHome({ tarball: opts.tarball, logLevel, env: { ...shared }, baseDir: base });
    homes.push(mainHome);
    // Imported once, into the shared database, through the main's home.
    await importCredentials(mainHome, opts.credentials);
    await importWorkflows(mainHome, opts.workflows);
    for (const id of opts.activate ?? []) {
      const res = await runN8n(mainHome, ['publish:workflow', `--id=${id}`], { timeoutMs: 120_000 });
      if (res.code !== 0) throw new Error(`n8n publish:workflow --id=${id} failed:\n${tail(res.stderr + res.stdout, 30)}`);
    }
    const main = await startEditor(mainHome, { timeoutMs: 180_000 });
    stops.push(main.stop);

    /** @type {Worker[]} */
    const workers = [];
    for (let i = 1; i <= (opts.workers ?? 2); i++) {
      const name = `worker-${i}`;
      const home = await createN8nHome({
        tarball: opts.tarball,
        logLevel,
        env: { ...shared, CM_WORKER_NAME: name, QUEUE_HEALTH_CHECK_PORT: String(await freePort()), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' },
        baseDir: base,
      });
      homes.push(home);
      const service = await startService(
        name,
        home.runtime.nodeBin,
        [home.runtime.n8nBin, 'worker', `--concurrency=${opts.workerConcurrency ?? 10}`],
        /n8n worker is now ready/,
        { env: home.env, cwd: home.home, timeoutMs: 180_000 },
      );
      stops.push(service.stop);
      workers.push({
        ...service,
        name,
        home,
        kill: (signal = 'SIGKILL') => {
          if (service.pid !== undefined) process.kill(-service.pid, signal);
        },
      });
    }
    return {
      base,
      main,
      mainHome,
      workers,
      postgres: pg,
      redis,
      startupMs: Date.now() - started,
      /** @param {string} sql @param {unknown[]} [params] */
      query: (sql, params) => query(mainHome.runtime, pg.port, sql, params),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Which worker ran which execution, from the workers' own log lines ("Worker started execution <id> (job <n>)").
 * @param {Worker[]} workers
 * @returns {Map<string, { worker: string, workflowId: string | undefined }>} execution id -> worker
 */
function executionsByWorker(workers) {
  const map = new Map();
  for (const w of workers) {
    for (const m of w.output().matchAll(/Worker started execution (\d+) \(job [^)]*\)(?:\s*(\{.*\}))?/g)) {
      let workflowId;
      try {
        workflowId = m[2] ? JSON.parse(m[2]).workflowId : undefined;
      } catch {
        workflowId = undefined;
      }
      map.set(m[1], { worker: w.name, workflowId });
    }
  }
  return map;
}

module.exports = { ensureQueueServices, startQueueDeployment, executionsByWorker };
