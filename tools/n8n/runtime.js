// @ts-check
'use strict';
/**
 * The n8n runtimes: installed by scripts/n8n/install-runtime.sh into $CM_CACHE_DIR/n8n-<version>/ and run with
 * the project's Node 24 (scripts/env.sh). Works with n8n 2.x (2.40.7) and 1.x (1.123.81).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');
const { run, tail } = require('./process');

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const ENV_SH = path.join(PROJECT_ROOT, 'scripts', 'env.sh');
const INSTALL_SH = path.join(PROJECT_ROOT, 'scripts', 'n8n', 'install-runtime.sh');
/** @type {Record<string, string>} */
const VERSIONS = { 2: '2.40.7', 1: '1.123.81' };

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

/** PATH with the runtime's Node first (n8n starts task runners and npm with whatever `node` is on PATH). */
function pathWithNode(/** @type {string} */ nodeBin) {
  return `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`;
}

module.exports = { PROJECT_ROOT, VERSIONS, cacheDir, ensureRuntime, n8nRequire, pathWithNode };
