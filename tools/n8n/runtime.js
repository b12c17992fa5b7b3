// @ts-check
'use strict';
/**
 * The n8n runtimes: installed by scripts/n8n/install-runtime.sh into $CM_CACHE_DIR/n8n-<version>/ and run with
 * the Node that script picks from n8n's `engines` (24 for 2.40.7 and 1.123.81; 22 for 1.85.3, whose engines stop
 * at Node 22). Works with n8n 2.x (2.40.7), 1.x (1.123.81) and the oldest supported 1.x (VERSIONS.oldest).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');
const { run, tail } = require('./process');

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const ENV_SH = path.join(PROJECT_ROOT, 'scripts', 'env.sh');
const INSTALL_SH = path.join(PROJECT_ROOT, 'scripts', 'n8n', 'install-runtime.sh');
/**
 * The n8n versions the tests run: 2 and 1 in depth; `oldest`, the oldest n8n the package supports
 * (docs/compatibility.md: n8n-workflow's NodeConnectionTypes, which the nodes need, came with n8n 1.85.0), as a
 * smoke test (test/e2e/n8n-oldest.test.js). CM_N8N_OLDEST=<version> runs that smoke test on another candidate.
 * @type {Record<string, string>}
 */
const VERSIONS = { 2: '2.40.7', 1: '1.123.81', oldest: process.env.CM_N8N_OLDEST || '1.85.3' };

/** @typedef {{ version: string, major: number, dir: string, n8nBin: string, nodeBin: string }} Runtime */

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
 * @param {number | string} [major] 2 (default), 1 or 'oldest' (VERSIONS), or an exact version such as '2.40.7'
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
    ['-c', 'source "$1" >&2 && bash "$2" "$3"', 'cm', ENV_SH, INSTALL_SH, version],
    { env: process.env, echo: (opts.echo ?? true) && 'stderr', timeoutMs: 30 * 60_000 },
  );
  if (res.code !== 0) {
    throw new Error(`install-runtime.sh ${version} failed (exit ${res.code}):\n${tail(res.stderr, 40)}\n${tail(res.stdout, 10)}`);
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

/** PATH with the runtime's Node first (n8n starts task runners and npm with whatever `node` is on PATH). */
function pathWithNode(/** @type {string} */ nodeBin) {
  return `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`;
}

module.exports = { PROJECT_ROOT, VERSIONS, cacheDir, ensureRuntime, n8nRequire, pathWithNode };
