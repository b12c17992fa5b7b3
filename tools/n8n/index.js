// @ts-check
'use strict';
/**
 * Drives a REAL n8n headlessly, split by job: process.js (process groups, kill on exit), runtime.js (install and
 * find the n8n runtime), home.js (`npm pack` and a throwaway n8n home with the package installed), cli.js (import,
 * execute, the loaded-package log line) and editor.js (the editor server, owner, REST login, credential test).
 * Used by the demo (scripts/), the benchmarks (bench/) and the e2e tests (test/e2e/). See README.md beside this file.
 */
const runtime = require('./runtime');
const home = require('./home');
const cli = require('./cli');
const editor = require('./editor');

/**
 * @typedef {import('./runtime').Runtime} Runtime
 * @typedef {import('./home').N8nHome} N8nHome
 * @typedef {import('./process').CliResult} CliResult
 * @typedef {import('./editor').Owner} Owner
 * @typedef {import('./editor').Editor} Editor
 */

module.exports = {
  VERSIONS: runtime.VERSIONS,
  PROJECT_ROOT: runtime.PROJECT_ROOT,
  cacheDir: runtime.cacheDir,
  ensureRuntime: runtime.ensureRuntime,
  packPackage: home.packPackage,
  createN8nHome: home.createN8nHome,
  removeHome: home.removeHome,
  runN8n: cli.runN8n,
  importCredentials: cli.importCredentials,
  importWorkflows: cli.importWorkflows,
  activateWorkflow: cli.activateWorkflow,
  executeWorkflow: cli.executeWorkflow,
  parseJsonFromOutput: cli.parseJsonFromOutput,
  findLoadedPackageLines: cli.findLoadedPackageLines,
  loadedPackageLog: cli.loadedPackageLog,
  bcryptHash: editor.bcryptHash,
  startEditor: editor.startEditor,
  restLogin: editor.restLogin,
  createCredential: editor.createCredential,
  testCredential: editor.testCredential,
  editCredential: editor.editCredential,
  waitForProductionUrl: editor.waitForProductionUrl,
  MCP_TRIGGER_METHODS: editor.MCP_TRIGGER_METHODS,
  freePort: home.freePort,
};
