// @ts-check
'use strict';
/**
 * Before the e2e test files: installs the n8n runtimes that are missing (both at once; each takes ~5 min cold and
 * is cached in $CM_CACHE_DIR afterwards) and packs this package ONCE (`npm pack`, which builds it). The tarball's
 * path reaches the test files through process.env (jest workers inherit it).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureRuntime, packPackage, PROJECT_ROOT } = require('./n8n');
const { selectedVersions } = require('./versions');

module.exports = async function globalSetup() {
  const started = Date.now();
  const versions = selectedVersions();
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-e2e-pack-'));
  process.stderr.write(`\n[e2e] n8n ${versions.join(' and ')}: runtimes (installed on first use) and npm pack\n`);
  const [tarball] = await Promise.all([
    packPackage(PROJECT_ROOT, { destDir: packDir, nodeBin: process.execPath }),
    ...versions.map((major) => ensureRuntime(major, { echo: true })),
  ]);
  process.env.CM_E2E_TARBALL = tarball;
  process.env.CM_E2E_PACK_DIR = packDir;
  process.stderr.write(`[e2e] ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${path.basename(tarball)}\n`);
};
