// @ts-check
'use strict';
/**
 * Drives a REAL n8n (installed by scripts/n8n/install-runtime.sh into $CM_CACHE_DIR/n8n-<version>/) headlessly:
 * a throwaway n8n home with the community package installed from its `npm pack` tarball, CLI import/execute,
 * and the editor server with an owner, REST login and the credential test endpoint.
 * Works with n8n 2.x (2.40.7) and 1.x (1.123.81). Everything binds to 127.0.0.1 only; every process started
 * here runs in its own process group and is killed on stop(), on timeout and when this Node process exits.
 * See README.md beside this file for what was found in each n8n version.
 */
const { spawn, execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');

const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
const ENV_SH = path.join(PROJECT_ROOT, 'scripts', 'env.sh');
const INSTALL_SH = path.join(PROJECT_ROOT, 'scripts', 'n8n', 'install-runtime.sh');
const DEFAULT_PACKAGE_NAME = 'n8n-nodes-commerce-messaging';
/** @type {Record<string, string>} */
const VERSIONS = { 2: '2.40.7', 1: '1.123.81' };
/** The browser-id header n8n ties its auth cookie to (same value for login and later requests). */
const BROWSER_ID = 'cm-e2e-browser';

/**
 * @typedef {{ version: string, major: number, dir: string, n8nBin: string, nodeBin: string }} Runtime
 * @typedef {{ home: string, userFolder: string, n8nDir: string, packageName: string, packageDir: string,
 *   tarball: string, runtime: Runtime, env: Record<string, string>, ports: { n8n: number, broker: number } }} N8nHome
 * @typedef {{ code: number | null, signal: string | null, stdout: string, stderr: string, durationMs: number,
 *   timedOut: boolean }} CliResult
 * @typedef {{ email: string, password: string, firstName?: string, lastName?: string }} Owner
 * @typedef {{ url: string, port: number, pid: number | undefined, home: N8nHome, owner: Owner | undefined,
 *   ownerCookie: string | undefined, output: () => string, stop: () => Promise<void> }} Editor
 */

// ---------------------------------------------------------------------------------------------------------
// process bookkeeping: every child is a process-group leader; all are killed when this process exits.

/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => {
    for (const child of live) killGroup(child, 'SIGKILL');
  };
  process.on('exit', killAll);
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(sig, () => {
      killAll();
      process.kill(process.pid, sig);
    });
  }
}

/** @param {import('node:child_process').ChildProcess} child @param {NodeJS.Signals} sig */
function killGroup(child, sig) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Starts a tiny detached watchdog that kills the child's process group if this Node process dies without
 * running its exit hooks (e.g. a jest worker killed with SIGKILL). It ends by itself when the group is gone.
 * @param {import('node:child_process').ChildProcess} child
 */
function guard(child) {
  if (child.pid === undefined) return;
  const script =
    'while kill -0 "$1" 2>/dev/null && kill -0 -- "-$2" 2>/dev/null; do sleep 1; done; ' +
    'kill -0 -- "-$2" 2>/dev/null || exit 0; kill -TERM -- "-$2" 2>/dev/null; sleep 5; kill -KILL -- "-$2" 2>/dev/null; exit 0';
  const g = spawn('bash', ['-c', script, 'cm-n8n-guard', String(process.pid), String(child.pid)], {
    detached: true,
    stdio: 'ignore',
  });
  g.unref();
}

/**
 * Spawns a command in its own process group, collects output; kills the group on timeout.
 * @param {string} cmd @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, timeoutMs?: number, input?: string, echo?: boolean | 'stderr' }} [opts]
 *   echo: copy the child's output to our stderr (true: both streams, 'stderr': its stderr only)
 * @returns {Promise<CliResult>}
 */
function run(cmd, args, opts = {}) {
  installExitHook();
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      env: opts.env ?? process.env,
      cwd: opts.cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    live.add(child);
    guard(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (d) => {
      stdout += d;
      if (opts.echo === true) process.stderr.write(d);
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
      if (opts.echo) process.stderr.write(d);
    });
    child.stdin?.end(opts.input ?? '');
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killGroup(child, 'SIGTERM');
            setTimeout(() => killGroup(child, 'SIGKILL'), 3000).unref();
          }, opts.timeoutMs);
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      live.delete(child);
      reject(err);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      live.delete(child);
      // A CLI that exited may leave children (task runners) in its group: make sure they are gone.
      killGroup(child, 'SIGKILL');
      resolve({ code, signal, stdout, stderr, durationMs: Date.now() - started, timedOut });
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
// runtime

/** @type {Map<string, Runtime>} */
const runtimes = new Map();

/** @returns {string} the cache dir scripts/env.sh uses */
function cacheDir() {
  return (
    process.env.CM_CACHE_DIR ||
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'n8n-nodes-commerce-messaging')
  );
}

/**
 * Makes sure the n8n of that major version (or exact version) is installed; installs it (~5 min) if not.
 * @param {number | string} [major] 2 (default) or 1, or an exact version such as '2.40.7'
 * @param {{ echo?: boolean }} [opts] echo: stream the install progress to stderr (default true)
 * @returns {Promise<Runtime>}
 */
async function ensureRuntime(major = 2, opts = {}) {
  const key = String(major);
  const cached = runtimes.get(key);
  if (cached) return cached;
  const version = VERSIONS[key] ?? key;
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`ensureRuntime: unknown n8n version ${major}`);
  const res = await run(
    'bash',
    ['-c', 'source "$1" >&2 && node -p "\'NODE_BIN=\' + process.execPath" && bash "$2" "$3"', 'cm', ENV_SH, INSTALL_SH, key],
    { env: process.env, echo: (opts.echo ?? true) && 'stderr', timeoutMs: 30 * 60_000 },
  );
  if (res.code !== 0) {
    throw new Error(`install-runtime.sh ${key} failed (exit ${res.code}):\n${tail(res.stderr, 40)}\n${tail(res.stdout, 10)}`);
  }
  const lines = res.stdout.trim().split('\n');
  const nodeLine = lines.find((l) => l.startsWith('NODE_BIN='));
  const n8nBin = lines[lines.length - 1].trim();
  if (!nodeLine || !fs.existsSync(n8nBin)) throw new Error(`install-runtime.sh printed no usable paths:\n${res.stdout}`);
  const dir = path.resolve(path.dirname(n8nBin), '..', '..', '..');
  const realVersion = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8')).version;
  /** @type {Runtime} */
  const runtime = {
    version: realVersion,
    major: Number(realVersion.split('.')[0]),
    dir,
    n8nBin,
    nodeBin: nodeLine.slice('NODE_BIN='.length).trim(),
  };
  runtimes.set(key, runtime);
  return runtime;
}

/** require() resolved from inside the installed n8n (for its own copies of bcryptjs etc.). @param {Runtime} runtime */
function n8nRequire(runtime) {
  return createRequire(path.join(runtime.dir, 'node_modules', 'n8n', 'package.json'));
}

// ---------------------------------------------------------------------------------------------------------
// package and home

/** @param {string} s @param {number} n */
function tail(s, n) {
  return s.split('\n').slice(-n).join('\n');
}

/** @returns {Promise<number>} a free TCP port on 127.0.0.1 */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** PATH with the runtime's Node first (n8n starts task runners and npm with whatever `node` is on PATH). */
function pathWithNode(/** @type {string} */ nodeBin) {
  return `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`;
}

/**
 * `npm pack`s a package folder (runs its `prepack`, i.e. the build) into destDir and returns the tarball path.
 * @param {string} packageDir
 * @param {{ destDir?: string, nodeBin?: string, timeoutMs?: number }} [opts]
 * @returns {Promise<string>}
 */
async function packPackage(packageDir, opts = {}) {
  const destDir = opts.destDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cm-pack-'));
  fs.mkdirSync(destDir, { recursive: true });
  const nodeBin = opts.nodeBin ?? (await ensureRuntime(2, { echo: false })).nodeBin;
  const res = await run('npm', ['pack', '--pack-destination', destDir, '--loglevel=error'], {
    cwd: packageDir,
    env: { ...process.env, PATH: pathWithNode(nodeBin) },
    timeoutMs: opts.timeoutMs ?? 10 * 60_000,
  });
  const name = res.stdout.trim().split('\n').pop()?.trim() ?? '';
  const tarball = path.join(destDir, name);
  if (res.code !== 0 || !name.endsWith('.tgz') || !fs.existsSync(tarball)) {
    throw new Error(`npm pack in ${packageDir} failed (exit ${res.code}):\n${tail(res.stderr, 40)}\n${tail(res.stdout, 20)}`);
  }
  return tarball;
}

/**
 * Creates a throwaway n8n home (N8N_USER_FOLDER) with the community package installed as users get it:
 * the `npm pack` tarball unpacked into <home>/.n8n/nodes/node_modules/<name> (plus its runtime dependencies,
 * if it has any, installed there with npm).
 * @param {{ packageDir?: string, tarball?: string, major?: number | string, logLevel?: string,
 *   env?: Record<string, string>, baseDir?: string }} [opts]
 *   packageDir: the package folder (default: this repo); tarball: an existing `npm pack` tarball to reuse
 *   (skips packing/building); major: n8n version (default 2); logLevel: N8N_LOG_LEVEL (default 'debug', needed
 *   for the "loaded package" log line); env: extra/overriding env vars; baseDir: where to create the home.
 * @returns {Promise<N8nHome>}
 */
async function createN8nHome(opts = {}) {
  const runtime = await ensureRuntime(opts.major ?? 2);
  const packageDir = opts.packageDir ?? PROJECT_ROOT;
  const tarball = opts.tarball ?? (await packPackage(packageDir, { nodeBin: runtime.nodeBin }));
  const base = opts.baseDir ?? os.tmpdir();
  fs.mkdirSync(base, { recursive: true });
  const home = fs.mkdtempSync(path.join(base, 'cm-n8n-home-'));
  const n8nDir = path.join(home, '.n8n');
  const nodesDir = path.join(n8nDir, 'nodes');
  const staging = path.join(home, 'unpack');
  fs.mkdirSync(staging, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', staging]);
  const unpacked = path.join(staging, 'package');
  const pkg = JSON.parse(fs.readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
  const packageName = pkg.name;
  const target = path.join(nodesDir, 'node_modules', ...packageName.split('/'));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.renameSync(unpacked, target);
  fs.rmSync(staging, { recursive: true, force: true });
  // n8n's own nodes/package.json lists installed community packages (it creates one like this itself).
  fs.writeFileSync(
    path.join(nodesDir, 'package.json'),
    JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [packageName]: pkg.version } }, null, 2),
  );
  if (pkg.dependencies && Object.keys(pkg.dependencies).length > 0) {
    const res = await run(
      'npm',
      ['install', '--omit=dev', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'],
      { cwd: target, env: { ...process.env, PATH: pathWithNode(runtime.nodeBin) }, timeoutMs: 10 * 60_000 },
    );
    if (res.code !== 0) throw new Error(`npm install of ${packageName}'s dependencies failed:\n${tail(res.stderr, 30)}`);
  }

  const ports = { n8n: await freePort(), broker: await freePort() };
  /** @type {Record<string, string>} */
  const env = {
    // Keep the parent's basics (PATH etc.) but nothing n8n-specific from it.
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        ([k, v]) => v !== undefined && !/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_|NODES_|WEBHOOK_URL$|CREDENTIALS_|NODE_OPTIONS$|NODE_ENV$|NODE_PATH$|E2E_TESTS$|npm_)/.test(k),
      ),
    ),
    PATH: pathWithNode(runtime.nodeBin),
    // NODE_ENV=test (set by jest) makes n8n refuse to load nodes ("Not available in tests"); production also
    // gives the "<timestamp> | <level> | <message> <metadata>" console format at debug level.
    NODE_ENV: 'production',
    HOME: home, // npm cache/config lookups by n8n stay in the throwaway home
    N8N_USER_FOLDER: home,
    N8N_ENCRYPTION_KEY: crypto.createHash('sha256').update(`cm-e2e:${home}`).digest('hex').slice(0, 32),
    N8N_USER_MANAGEMENT_JWT_SECRET: crypto.createHash('sha256').update(`cm-e2e-jwt:${home}`).digest('hex'),
    DB_TYPE: 'sqlite',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
    // nothing phones home
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_DYNAMIC_BANNERS_ENABLED: 'false',
    N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
    N8N_AI_ENABLED: 'false',
    // loopback only
    N8N_HOST: '127.0.0.1',
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_PROTOCOL: 'http',
    N8N_PORT: String(ports.n8n),
    N8N_EDITOR_BASE_URL: `http://127.0.0.1:${ports.n8n}/`,
    N8N_SECURE_COOKIE: 'false',
    // task runners (Code node): internal mode = a child `node` of n8n (from PATH), broker on loopback
    N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
    N8N_RUNNERS_BROKER_PORT: String(ports.broker),
    // community packages: loaded from <home>/.n8n/nodes/node_modules; nothing reinstalled from the registry
    N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
    N8N_REINSTALL_MISSING_PACKAGES: 'false',
    N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
    // the "verified community nodes" list is fetched from api.n8n.io: off
    N8N_VERIFIED_PACKAGES_ENABLED: 'false',
    N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
    N8N_GIT_NODE_DISABLE_BARE_REPOS: 'true',
    ...(runtime.major >= 2
      ? {
          N8N_WEBHOOK_URL: `http://127.0.0.1:${ports.n8n}/`,
          // its system task fetches https://api.n8n.io/api/mcp-servers (fails offline, logs errors)
          N8N_DISABLED_MODULES: 'mcp-registry',
        }
      : {
          WEBHOOK_URL: `http://127.0.0.1:${ports.n8n}/`,
          DB_SQLITE_POOL_SIZE: '2', // 1.x warns that its default (0, no read pool) is deprecated
          N8N_RUNNERS_ENABLED: 'true',
          N8N_RUNNERS_MODE: 'internal',
        }),
    N8N_LOG_LEVEL: opts.logLevel ?? 'debug',
    N8N_LOG_OUTPUT: 'console',
    NO_COLOR: '1',
    ...(opts.env ?? {}),
  };
  fs.writeFileSync(path.join(home, 'cm-home.json'), JSON.stringify({ runtime, packageName, tarball, ports }, null, 2));
  return { home, userFolder: home, n8nDir, packageName, packageDir, tarball, runtime, env, ports };
}

/**
 * Runs `n8n <args>` in the home (Node 24, the home's env).
 * @param {N8nHome} home @param {string[]} args
 * @param {{ timeoutMs?: number, env?: Record<string, string>, echo?: boolean }} [opts]
 * @returns {Promise<CliResult>}
 */
function runN8n(home, args, opts = {}) {
  return run(home.runtime.nodeBin, [home.runtime.n8nBin, ...args], {
    env: { ...home.env, ...(opts.env ?? {}) },
    cwd: home.home,
    timeoutMs: opts.timeoutMs ?? 120_000,
    echo: opts.echo,
  });
}

/** @param {N8nHome} home @param {string} prefix @param {unknown} value */
function writeTemp(home, prefix, value) {
  const dir = path.join(home.home, 'imports');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${prefix}-${Date.now()}-${crypto.randomBytes(3).toString('hex')}.json`);
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

/** n8n-style id (16 alphanumerics). */
function newId() {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.randomBytes(16), (b) => chars[b % chars.length]).join('');
}

/**
 * Imports credentials with `n8n import:credentials --input <file>`. `data` is given in plaintext (n8n encrypts
 * it with the home's key on import). Missing ids are generated.
 * @param {N8nHome} home
 * @param {Array<{ id?: string, name: string, type: string, data: Record<string, unknown> }>} credentials
 * @returns {Promise<CliResult & { ids: string[] }>} rejects when the command fails
 */
async function importCredentials(home, credentials) {
  const list = credentials.map((c) => ({ ...c, id: c.id ?? newId() }));
  const file = writeTemp(home, 'credentials', list);
  const res = await runN8n(home, ['import:credentials', `--input=${file}`]);
  if (res.code !== 0) throw new Error(`n8n import:credentials failed (exit ${res.code}):\n${tail(res.stdout + res.stderr, 40)}`);
  return { ...res, ids: list.map((c) => c.id) };
}

/**
 * Imports workflows with `n8n import:workflow --input <file>`. Missing ids are generated.
 * @param {N8nHome} home
 * @param {Array<Record<string, any>>} workflows workflow JSON objects (as exported by n8n / the example files)
 * @returns {Promise<CliResult & { ids: string[] }>} rejects when the command fails
 */
async function importWorkflows(home, workflows) {
  const list = workflows.map((w) => ({ active: false, settings: {}, connections: {}, ...w, id: w.id ?? newId() }));
  const file = writeTemp(home, 'workflows', list);
  const res = await runN8n(home, ['import:workflow', `--input=${file}`]);
  if (res.code !== 0) throw new Error(`n8n import:workflow failed (exit ${res.code}):\n${tail(res.stdout + res.stderr, 40)}`);
  return { ...res, ids: list.map((w) => w.id) };
}

/** @param {string} s */
function stripAnsi(s) {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}

/**
 * From text[start] (a '{' or '['), returns the end index (exclusive) of the balanced JSON value, or -1.
 * @param {string} text @param {number} start
 */
function balancedEnd(text, start) {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Finds the JSON document printed by `n8n execute --rawOutput` in its output. Log lines come before it (and may
 * follow it); at debug level n8n prints it through its logger, so its first line carries a
 * "<timestamp> | info  | " prefix and its last line may carry log metadata. Prefers a document with
 * `data.resultData` (the run data). Returns undefined when there is none.
 * @param {string} output
 * @returns {any}
 */
function parseJsonFromOutput(output) {
  const text = stripAnsi(output);
  /** @type {any} */
  let first;
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    const m = /^(?:[^{[]*\|\s*)?([{[])/.exec(line);
    if (m && (/^\s*[{[]/.test(line) || /[{[]\s*$/.test(line) || /\|\s*[{[]/.test(line))) {
      const at = lineStart + line.indexOf(m[1], m[0].length - 1);
      const end = balancedEnd(text, at);
      if (end > at) {
        try {
          const value = JSON.parse(text.slice(at, end));
          if (value && typeof value === 'object' && value.data && value.data.resultData) return value;
          if (first === undefined) first = value;
        } catch {
          /* not JSON */
        }
      }
    }
    lineStart = lineEnd + 1;
  }
  return first;
}

/**
 * Runs a workflow with `n8n execute --id <id> --rawOutput`.
 * @param {N8nHome} home @param {string} id
 * @param {{ timeoutMs?: number, env?: Record<string, string> }} [opts]
 * @returns {Promise<CliResult & { ok: boolean, run: any, error: any, nodeOutput: (nodeName: string, runIndex?: number) => any[] | undefined }>}
 *   run: the parsed run data (IRun: {data: {resultData: {runData, error?, lastNodeExecuted}}, status, ...}) or
 *   undefined; ok: exit 0, JSON found and no resultData.error; nodeOutput(name): that node's main[0] items' json.
 */
async function executeWorkflow(home, id, opts = {}) {
  const res = await runN8n(home, ['execute', `--id=${id}`, '--rawOutput'], {
    timeoutMs: opts.timeoutMs ?? 120_000,
    env: opts.env,
  });
  const parsed = parseJsonFromOutput(res.stdout);
  const error = parsed?.data?.resultData?.error;
  return {
    ...res,
    run: parsed,
    error,
    ok: res.code === 0 && parsed !== undefined && !error,
    nodeOutput: (nodeName, runIndex = 0) => {
      const r = parsed?.data?.resultData?.runData?.[nodeName]?.[runIndex];
      return r?.data?.main?.[0]?.map((/** @type {any} */ item) => item.json);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// loaded-package proof

/**
 * The lines of n8n debug output (N8N_LOG_LEVEL=debug) that prove the package's nodes and credentials were
 * loaded: n8n logs one per loaded package directory.
 * @param {string} text n8n output
 * @param {string} [packageName]
 * @returns {string[]}
 */
function findLoadedPackageLines(text, packageName = DEFAULT_PACKAGE_NAME) {
  return text
    .split('\n')
    .filter((l) => /Loaded all credentials and nodes from/i.test(l) && l.includes(packageName))
    .map((l) => l.trim());
}

/**
 * Runs a cheap n8n command that loads all nodes (debug logging) and returns the "loaded" lines for the
 * home's package, plus the whole output.
 * @param {N8nHome} home
 * @returns {Promise<{ lines: string[], output: string, code: number | null }>}
 */
async function loadedPackageLog(home) {
  const res = await runN8n(home, ['export:workflow', '--all', `--output=${path.join(home.home, 'export-probe.json')}`], {
    env: { N8N_LOG_LEVEL: 'debug' },
  });
  const output = res.stdout + res.stderr;
  return { lines: findLoadedPackageLines(output, home.packageName), output, code: res.code };
}

// ---------------------------------------------------------------------------------------------------------
// editor, owner, REST

/**
 * bcrypt hash of a password, made with the bcrypt implementation inside the installed n8n.
 * @param {Runtime} runtime @param {string} password
 */
function bcryptHash(runtime, password) {
  const req = n8nRequire(runtime);
  /** @type {any} */
  let bcrypt;
  for (const from of ['bcryptjs', '@n8n/backend-common/node_modules/bcryptjs', 'n8n/node_modules/bcryptjs']) {
    try {
      bcrypt = req(from);
      break;
    } catch {
      /* next */
    }
  }
  if (!bcrypt) throw new Error(`no bcryptjs found inside ${runtime.dir}`);
  return bcrypt.hashSync(password, 10);
}

/**
 * @param {string} url @param {{ method?: string, body?: unknown, cookie?: string, timeoutMs?: number }} [opts]
 * @returns {Promise<{ status: number, headers: Headers, body: any, text: string }>}
 */
async function http(url, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = { 'browser-id': BROWSER_ID, accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(url, {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    redirect: 'manual',
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** @param {Headers} headers @returns {string | undefined} "n8n-auth=..." */
function authCookie(headers) {
  const all = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [headers.get('set-cookie') ?? ''];
  for (const c of all) {
    const m = /(?:^|,\s*)(n8n-auth=[^;]+)/.exec(c);
    if (m) return m[1];
  }
  return undefined;
}

/**
 * Starts the n8n editor/server (`n8n start`) for the home and waits until /healthz answers 200 and the REST
 * API is up (`GET /rest/settings` answers its JSON).
 * With `owner`, the instance gets that owner without the sign-up screen: on 2.x via
 * N8N_INSTANCE_OWNER_MANAGED_BY_ENV + N8N_INSTANCE_OWNER_EMAIL + N8N_INSTANCE_OWNER_PASSWORD_HASH; on 1.x via
 * `POST /rest/owner/setup` right after start. Then `editor.ownerCookie` holds a logged-in session cookie.
 * @param {N8nHome} home
 * @param {{ port?: number, owner?: Owner, timeoutMs?: number, env?: Record<string, string>, echo?: boolean }} [opts]
 * @returns {Promise<Editor>}
 */
async function startEditor(home, opts = {}) {
  installExitHook();
  const port = opts.port ?? home.ports.n8n;
  const owner = opts.owner ? { firstName: 'E2E', lastName: 'Owner', ...opts.owner } : undefined;
  /** @type {Record<string, string>} */
  const env = {
    ...home.env,
    N8N_PORT: String(port),
    N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
    ...(home.runtime.major >= 2 ? { N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/` } : { WEBHOOK_URL: `http://127.0.0.1:${port}/` }),
    ...(opts.env ?? {}),
  };
  if (owner && home.runtime.major >= 2) {
    Object.assign(env, {
      N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
      N8N_INSTANCE_OWNER_EMAIL: owner.email,
      N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName,
      N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName,
      N8N_INSTANCE_OWNER_PASSWORD_HASH: bcryptHash(home.runtime, owner.password),
    });
  }
  const child = spawn(home.runtime.nodeBin, [home.runtime.n8nBin, 'start'], {
    env,
    cwd: home.home,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  guard(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
    if (opts.echo) process.stderr.write(d);
  });
  child.stderr?.on('data', (d) => {
    output += d;
    if (opts.echo) process.stderr.write(d);
  });
  /** @type {number | null | undefined} */
  let exitCode;
  const exited = new Promise((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      live.delete(child);
      resolve(undefined);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exitCode === undefined) {
      killGroup(child, 'SIGTERM');
      const t = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    }
    killGroup(child, 'SIGKILL'); // leftovers in the group (task runners)
  };
  /** @type {Editor} */
  const editor = { url, port, pid: child.pid, home, owner, ownerCookie: undefined, output: () => output, stop };
  try {
    const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
    for (;;) {
      if (exitCode !== undefined) throw new Error(`n8n start exited with ${exitCode} before answering:\n${tail(output, 60)}`);
      if (Date.now() > deadline) throw new Error(`n8n start did not answer /healthz in time:\n${tail(output, 60)}`);
      try {
        // /healthz answers as soon as the port listens, before migrations (meanwhile every other path answers
        // 200 "n8n is starting up. Please wait") and before the REST routes are registered (404). The public
        // GET /rest/settings returns its JSON {data: {...}} only once the server is fully up.
        const h = await http(`${url}/healthz`, { timeoutMs: 2000 });
        if (h.status === 200) {
          const s = await http(`${url}/rest/settings`, { timeoutMs: 5000 });
          if (s.status === 200 && s.body && typeof s.body === 'object' && s.body.data) break;
        }
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    if (owner) {
      if (home.runtime.major < 2) {
        const r = await http(`${url}/rest/owner/setup`, {
          body: { email: owner.email, firstName: owner.firstName, lastName: owner.lastName, password: owner.password },
        });
        if (r.status !== 200) throw new Error(`POST /rest/owner/setup -> ${r.status}: ${r.text.slice(0, 500)}`);
      }
      editor.ownerCookie = await restLogin(editor, owner);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return editor;
}

/**
 * Logs in through the REST API; returns the session cookie ("n8n-auth=...") to pass to later calls.
 * @param {{ url: string }} editor @param {{ email: string, password: string }} owner
 * @returns {Promise<string>}
 */
async function restLogin(editor, owner) {
  // 1.123 and 2.x: LoginRequestDto {emailOrLdapLoginId, password, mfaCode?, mfaRecoveryCode?}
  const r = await http(`${editor.url}/rest/login`, {
    body: { emailOrLdapLoginId: owner.email, password: owner.password },
  });
  const cookie = authCookie(r.headers);
  if (r.status !== 200 || !cookie) throw new Error(`POST /rest/login -> ${r.status}: ${r.text.slice(0, 500)}`);
  return cookie;
}

/**
 * Creates a credential through the REST API (`POST /rest/credentials` {name, type, data}); returns its id.
 * @param {{ url: string }} editor @param {string} cookie
 * @param {{ name?: string, type: string, data: Record<string, unknown> }} credential
 * @returns {Promise<string>}
 */
async function createCredential(editor, cookie, credential) {
  const r = await http(`${editor.url}/rest/credentials`, {
    body: { name: credential.name ?? `e2e ${credential.type}`, type: credential.type, data: credential.data },
    cookie,
  });
  const id = (r.body?.data ?? r.body)?.id;
  if (r.status !== 200 || !id) throw new Error(`POST /rest/credentials -> ${r.status}: ${r.text.slice(0, 500)}`);
  return String(id);
}

/**
 * Calls the editor's credential test (`POST /rest/credentials/test` {credentials: {id, name, type, data}}),
 * which runs the credential type's `test` request (or a node's credential-test method). n8n only tests a
 * STORED credential the user can read (it merges the given plaintext `data` over the stored one), so without
 * `id` the credential is first created with createCredential().
 * @param {{ url: string }} editor @param {string} cookie from restLogin / editor.ownerCookie
 * @param {{ id?: string, name?: string, type: string, data: Record<string, unknown> }} credential
 * @returns {Promise<{ status: 'OK' | 'Error' | string, message: string, httpStatus: number, body: any, id: string }>}
 */
async function testCredential(editor, cookie, credential) {
  const id = credential.id ?? (await createCredential(editor, cookie, credential));
  const credentials = { id, name: credential.name ?? `e2e ${credential.type}`, type: credential.type, data: credential.data };
  const r = await http(`${editor.url}/rest/credentials/test`, { body: { credentials }, cookie });
  const result = r.body?.data ?? r.body;
  return { status: result?.status, message: result?.message, httpStatus: r.status, body: r.body, id };
}

/** Removes a home folder (after its processes are stopped). @param {N8nHome} home */
function removeHome(home) {
  fs.rmSync(home.home, { recursive: true, force: true });
}

module.exports = {
  VERSIONS,
  PROJECT_ROOT,
  cacheDir,
  ensureRuntime,
  packPackage,
  createN8nHome,
  removeHome,
  runN8n,
  importCredentials,
  importWorkflows,
  executeWorkflow,
  parseJsonFromOutput,
  findLoadedPackageLines,
  loadedPackageLog,
  bcryptHash,
  startEditor,
  restLogin,
  createCredential,
  testCredential,
  freePort,
};
