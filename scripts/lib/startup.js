// @ts-check
'use strict';
/**
 * The start-up `npm run demo` (scripts/demo.js) and `npm start` (scripts/start.js) share: the n8n runtime (installed
 * on first use), `npm pack` (which builds) into a temporary folder removed at exit, and the emulator with the demo
 * settings on loopback. Options both read: --n8n 1 | 2 (or env N8N_MAJOR).
 */
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const p = require('../../tools/provision');

const { n8n } = p;

/** @param {string} name @returns {string | undefined} the value after that command-line option */
function arg(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** @param {string} prefix @returns {(message: string) => void} a progress line writer on stderr: "[prefix] message" */
function stepper(prefix) {
  return (message) => process.stderr.write(`[${prefix}] ${message}\n`);
}

/** @param {number} port @returns {Promise<boolean>} whether 127.0.0.1:port can be listened on */
function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * @param {{ step: (message: string) => void, sandboxPort?: number }} opts
 *   sandboxPort: the emulator port wanted (any free port when it is taken); default any free port
 */
async function startUp(opts) {
  const { step } = opts;
  const major = Number(arg('--n8n') ?? process.env.N8N_MAJOR ?? 2);
  step(`n8n ${n8n.VERSIONS[major] ?? major} runtime (installed into ${n8n.cacheDir()} on first use, ~5 min)`);
  const runtime = await n8n.ensureRuntime(major, { echo: true });
  step('npm pack (builds the package)');
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-demo-pack-'));
  process.on('exit', () => fs.rmSync(packDir, { recursive: true, force: true }));
  const tarball = await n8n.packPackage(p.PROJECT_ROOT, { nodeBin: runtime.nodeBin, destDir: packDir });

  let port = opts.sandboxPort ?? 0;
  if (port !== 0 && !(await portFree(port))) {
    step(`127.0.0.1:${port} is in use: the emulator takes a free port`);
    port = 0;
  }
  const sandbox = await p.startDemoSandbox({ port });
  return { major, runtime, tarball, sandbox };
}

module.exports = { arg, stepper, portFree, startUp };
