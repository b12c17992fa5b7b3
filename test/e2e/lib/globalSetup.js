// @ts-check
'use strict';
/**
 * Before the e2e test files: installs the n8n runtimes that are missing (both at once; each takes ~5 min cold and
 * is cached in $CM_CACHE_DIR afterwards) and packs this package ONCE (`npm pack`, which builds it). The tarball's
 * path reaches the test files through process.env (jest workers inherit it).
 */
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureRuntime, packPackage, PROJECT_ROOT, VERSIONS } = require('../../../tools/n8n');
const { selectedVersions } = require('./versions');

/**
 * The browser test (browser.test.js, n8n 2.x) drives Debian's chromium: scripts/ensure-chromium.sh installs it
 * with apt-get when /usr/bin/chromium is missing. A failure does not stop the other e2e tests: it reaches the
 * browser test through CM_E2E_CHROMIUM_ERROR, which fails there with the reason.
 * @returns {Promise<void>}
 */
function ensureChromium() {
  return new Promise((resolve) => {
    execFile('bash', [path.join(PROJECT_ROOT, 'scripts', 'ensure-chromium.sh')], { timeout: 900_000 }, (err, stdout, stderr) => {
      if (stderr.trim()) process.stderr.write(`${stderr.trim()}\n`);
      if (err) process.env.CM_E2E_CHROMIUM_ERROR = (stderr.trim().split('\n').pop() || err.message).slice(0, 500);
      else process.stderr.write(`[e2e] chromium: ${stdout.trim().split('\n').pop()}\n`);
      resolve();
    });
  });
}

module.exports = async function globalSetup() {
  const started = Date.now();
  const versions = selectedVersions();
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-e2e-pack-'));
  process.stderr.write(`\n[e2e] n8n ${versions.map((v) => VERSIONS[v]).join(', ')}: runtimes (installed on first use) and npm pack\n`);
  const browserTest = versions.includes(2) && process.env.E2E_BROWSER !== '0';
  const [tarball] = await Promise.all([
    packPackage(PROJECT_ROOT, { destDir: packDir, nodeBin: process.execPath }),
    ...versions.map((major) => ensureRuntime(major, { echo: true })),
    browserTest ? ensureChromium() : undefined,
  ]);
  process.env.CM_E2E_TARBALL = tarball;
  process.env.CM_E2E_PACK_DIR = packDir;
  process.stderr.write(`[e2e] ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${path.basename(tarball)}\n`);
};
