// @ts-check
'use strict';
/**
 * A throwaway n8n home (N8N_USER_FOLDER) with the community package installed from its `npm pack` tarball, and the
 * environment n8n runs with there: loopback only, nothing phoning home.
 */
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { run, tail } = require('./process');
const { PROJECT_ROOT, ensureRuntime, pathWithNode } = require('./runtime');

/**
 * @typedef {{ home: string, userFolder: string, n8nDir: string, packageName: string, packageDir: string,
 *   tarball: string, runtime: import('./runtime').Runtime, env: Record<string, string>,
 *   ports: { n8n: number, broker: number } }} N8nHome
 */

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
    // n8n's documented switch for community nodes as AI tools (e.g. behind an MCP Server Trigger). 2.40.7 and
    // 1.123.81 offer every `usableAsTool` node as `<package>.<node>Tool` without reading it; older versions need it.
    N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
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

/** Removes a home folder (after its processes are stopped). @param {N8nHome} home */
function removeHome(home) {
  fs.rmSync(home.home, { recursive: true, force: true });
}

module.exports = { freePort, packPackage, createN8nHome, removeHome };
