// @ts-check
'use strict';
/**
 * The n8n CLI in a home: import credentials and workflows, execute a workflow headlessly (and read its run data out
 * of the log output), and the debug log line that proves the package was loaded.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { run, tail } = require('./process');

const DEFAULT_PACKAGE_NAME = 'n8n-nodes-commerce-messaging';

/** @typedef {import('./home').N8nHome} N8nHome @typedef {import('./process').CliResult} CliResult */

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

/**
 * Activates a workflow so that `n8n start` runs its trigger (a polling schedule, the MCP Server Trigger's URL). The
 * command differs by version: 2.x "publishes" a workflow version, 1.x sets the active flag. Run it while no
 * `n8n start` runs in the home: the editor reads the active workflows when it starts.
 * @param {N8nHome} home @param {string} workflowId
 * @returns {Promise<CliResult>} rejects when the command fails
 */
async function activateWorkflow(home, workflowId) {
  const args =
    home.runtime.major >= 2 ? ['publish:workflow', `--id=${workflowId}`] : ['update:workflow', `--id=${workflowId}`, '--active=true'];
  const res = await runN8n(home, args, { timeoutMs: 120_000 });
  if (res.code !== 0) throw new Error(`n8n ${args.join(' ')} failed (exit ${res.code}):\n${tail(res.stdout + res.stderr, 40)}`);
  return res;
}

/** @param {string} s */
function stripAnsi(s) {
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

module.exports = {
  DEFAULT_PACKAGE_NAME,
  runN8n,
  importCredentials,
  importWorkflows,
  activateWorkflow,
  executeWorkflow,
  parseJsonFromOutput,
  findLoadedPackageLines,
  loadedPackageLog,
};
