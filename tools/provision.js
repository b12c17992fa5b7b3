// @ts-check
'use strict';
/**
 * The demo setup, written once and used by `npm run demo` (scripts/demo.js), `npm start` (scripts/start.js) and
 * the end-to-end tests (test/e2e): the emulator with the demo settings, the demo credential, the example workflows
 * from workflows/ (with the emulator's real URL), an n8n home with the packed package installed, and a readable
 * summary of a headless run. What each example should do is checked by workflows/expectations.js.
 */
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('./n8n');
const { startSandbox } = require('../sandbox');

const PROJECT_ROOT = path.resolve(__dirname, '..');
const WORKFLOWS_DIR = path.join(PROJECT_ROOT, 'workflows');

/** The emulator URL written in the example workflows (the HTTP Request node's URL); rewritten by loadWorkflows(). */
const PLACEHOLDER_URL = 'http://127.0.0.1:8787';

/** The credential the example workflows reference: {"commerceMessagingApi": {"id": DEMO_CREDENTIAL_ID, "name": ...}}. */
const DEMO_CREDENTIAL_ID = 'cmDemoCredential';
const DEMO_CREDENTIAL_NAME = 'Commerce Messaging (demo)';
const CREDENTIAL_TYPE = 'commerceMessagingApi';
const NODE_TYPE = 'n8n-nodes-commerce-messaging.commerceMessaging';

/** Accounts of the emulator's demo seed (sandbox/seed.js). */
const DEMO_USER = { username: 'demo@shop.test', password: 'demo-password' };
const NOACCESS_USER = { username: 'noaccess@shop.test', password: 'noaccess-password' };
const DEMO_PLUGIN = { pluginApiKey: 'demo-plugin-key', pluginPlatformType: 'woocommerce', pluginBaseUri: 'https://shop.example.com' };

/** Emulator settings of the demo: a short template review, and pages of 10 so the 45 contacts span 5 pages. */
const DEMO_SANDBOX_OPTIONS = { reviewDelayMs: 1500, maxPageSize: 10, seed: /** @type {'demo'} */ ('demo') };

/** The n8n owner `npm start` creates (the password meets n8n's rules: 8+ characters, a digit, an uppercase letter). */
const DEMO_OWNER = { email: 'owner@example.com', password: 'Demo-owner-1', firstName: 'Demo', lastName: 'Owner' };

/**
 * Starts the emulator with the demo settings on loopback.
 * @param {Parameters<typeof startSandbox>[0]} [options] overrides (port 0 = any free port)
 */
function startDemoSandbox(options = {}) {
  return startSandbox({ port: 0, host: '127.0.0.1', ...DEMO_SANDBOX_OPTIONS, ...options });
}

/**
 * The demo credential (plaintext data, as `n8n import:credentials` takes it).
 * @param {string} baseUrl the emulator's URL
 * @param {Record<string, unknown>} [data] fields to override (username, password...)
 * @param {{ id?: string, name?: string }} [meta]
 */
function demoCredential(baseUrl, data = {}, meta = {}) {
  return {
    id: meta.id ?? DEMO_CREDENTIAL_ID,
    name: meta.name ?? DEMO_CREDENTIAL_NAME,
    type: CREDENTIAL_TYPE,
    data: {
      baseUrl,
      username: DEMO_USER.username,
      password: DEMO_USER.password,
      pluginIntegration: true,
      ...DEMO_PLUGIN,
      ...data,
    },
  };
}

/**
 * Replaces the placeholder emulator URL everywhere in a workflow (the ONE place where it is rewritten).
 * @template T
 * @param {T} workflow
 * @param {string} baseUrl
 * @returns {T}
 */
function withSandboxUrl(workflow, baseUrl) {
  const base = baseUrl.replace(/\/+$/, '');
  return JSON.parse(JSON.stringify(workflow).split(PLACEHOLDER_URL).join(base));
}

/**
 * The example workflows from workflows/*.json, in file order, with the emulator's URL.
 * @param {string} [baseUrl] the emulator's URL (default: leave the placeholder)
 * @returns {Array<{ file: string, key: string, id: string, name: string, json: Record<string, any>, trigger: boolean,
 *   mcpPath: string | undefined }>}
 *   key: the file name without number and extension, e.g. "abandoned-cart-recovery"; trigger: started by a trigger
 *   that `n8n execute` cannot run; mcpPath: the path of its MCP Server Trigger (URL `<n8n>/mcp/<path>`), if any
 */
function loadWorkflows(baseUrl) {
  return fs
    .readdirSync(WORKFLOWS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const raw = JSON.parse(fs.readFileSync(path.join(WORKFLOWS_DIR, file), 'utf8'));
      const json = baseUrl ? withSandboxUrl(raw, baseUrl) : raw;
      // A polling trigger runs only in an active workflow (`n8n execute` skips polling), and an MCP Server Trigger
      // runs when an MCP client calls its URL: the demo lists such a workflow instead of executing it, `npm start`
      // activates the MCP one, and test/e2e/trigger.test.js and test/e2e/mcp.test.js run them in an active n8n.
      const mcpPath = mcpTriggerPath(json);
      const trigger = mcpPath !== undefined || json.nodes.some((/** @type {{ type: string }} */ n) => n.type.endsWith('.commerceMessagingTrigger'));
      return { file, key: file.replace(/^\d+-/, '').replace(/\.json$/, ''), id: json.id, name: json.name, json, trigger, mcpPath };
    });
}

/** The node type of n8n's MCP Server Trigger (package @n8n/n8n-nodes-langchain, in n8n 1.88+ and 2.x). */
const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * The path of a workflow's MCP Server Trigger: active, n8n serves it at `<n8n>/mcp/<path>` (streamable HTTP, and
 * SSE on the same URL since the trigger's version 2).
 * @param {Record<string, any>} workflow
 * @returns {string | undefined}
 */
function mcpTriggerPath(workflow) {
  const node = workflow.nodes.find((/** @type {{ type: string }} */ n) => n.type === MCP_TRIGGER_TYPE);
  return node ? String(node.parameters?.path ?? '') : undefined;
}

/**
 * The package's node and credential counts as its packed package.json declares them (the `n8n` section).
 * @param {import('./n8n').N8nHome} home
 */
function declaredCounts(home) {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(home.n8nDir, 'nodes', 'node_modules', ...home.packageName.split('/'), 'package.json'), 'utf8'),
  );
  return { nodes: (pkg.n8n?.nodes ?? []).length, credentials: (pkg.n8n?.credentials ?? []).length };
}

/**
 * Checks n8n's debug log line that proves the package was loaded from the home's nodes folder:
 * "Loaded all credentials and nodes from n8n-nodes-commerce-messaging {"credentials":1,"nodes":N,...}",
 * with the counts the package declares.
 * @param {import('./n8n').N8nHome} home
 * @param {string} output the output of any n8n command run in that home
 * @returns {{ line: string, credentials: number, nodes: number }}
 */
function checkLoadedLine(home, output) {
  const lines = n8n.findLoadedPackageLines(output, home.packageName);
  if (lines.length === 0) {
    throw new Error(`n8n did not log "Loaded all credentials and nodes from ${home.packageName}": the package was not loaded`);
  }
  const line = lines[0];
  const meta = /\{"credentials":(\d+),"nodes":(\d+)/.exec(line);
  const loaded = { credentials: Number(meta?.[1] ?? NaN), nodes: Number(meta?.[2] ?? NaN) };
  const declared = declaredCounts(home);
  if (loaded.credentials !== declared.credentials || loaded.nodes !== declared.nodes) {
    throw new Error(
      `n8n loaded ${loaded.credentials} credential(s) and ${loaded.nodes} node(s) from ${home.packageName}, ` +
        `the package declares ${declared.credentials} and ${declared.nodes}:\n${line}`,
    );
  }
  return { line, ...loaded };
}

/**
 * An n8n home with the packed package installed, the demo credential and the example workflows imported.
 * @param {{ major?: number | string, tarball?: string, sandboxUrl: string, credentials?: Array<ReturnType<typeof demoCredential>>,
 *   extraWorkflows?: Array<Record<string, any>>, logLevel?: string, baseDir?: string }} opts
 *   credentials: what to import (default: the demo credential); extraWorkflows: more workflows to import with the
 *   examples (e.g. test-only ones), already pointing at the emulator.
 */
async function provisionN8n(opts) {
  const home = await n8n.createN8nHome({
    major: opts.major ?? 2,
    tarball: opts.tarball,
    logLevel: opts.logLevel ?? 'debug',
    baseDir: opts.baseDir,
  });
  try {
    const credentials = opts.credentials ?? [demoCredential(opts.sandboxUrl)];
    const credImport = await n8n.importCredentials(home, credentials);
    const loaded = checkLoadedLine(home, credImport.stdout + credImport.stderr);
    const workflows = loadWorkflows(opts.sandboxUrl);
    await n8n.importWorkflows(home, [...workflows.map((w) => w.json), ...(opts.extraWorkflows ?? [])]);
    return { home, workflows, loaded };
  } catch (err) {
    n8n.removeHome(home);
    throw err;
  }
}

/**
 * The nodes of a workflow in execution order along its connections (main input 0), starting at its trigger.
 * @param {Record<string, any>} workflow
 * @returns {string[]}
 */
function nodeOrder(workflow) {
  const nodes = /** @type {Array<{ name: string, type: string }>} */ (workflow.nodes).filter((n) => n.type !== 'n8n-nodes-base.stickyNote');
  const targets = new Set();
  for (const out of Object.values(workflow.connections ?? {})) {
    for (const branch of out.main ?? []) for (const c of branch ?? []) targets.add(c.node);
  }
  const order = [];
  const queue = nodes.filter((n) => !targets.has(n.name)).map((n) => n.name);
  const seen = new Set();
  while (queue.length) {
    const name = /** @type {string} */ (queue.shift());
    if (seen.has(name)) continue;
    seen.add(name);
    order.push(name);
    for (const branch of workflow.connections?.[name]?.main ?? []) for (const c of branch ?? []) queue.push(c.node);
  }
  for (const n of nodes) if (!seen.has(n.name)) order.push(n.name);
  return order;
}

/**
 * What each node of a run did: items in (what its parent nodes sent to it), items out (its first output), items
 * on its other outputs (a Filter's discarded items), items with an error, items marked skipped (deduplicated
 * events), and the node's error.
 * @param {Record<string, any>} workflow
 * @param {any} run the parsed run data of `n8n execute --rawOutput`
 * @returns {Array<{ node: string, type: string, ran: boolean, itemsIn: number | undefined, itemsOut: number, otherOutputs: number,
 *   errors: number, skipped: number, error: string | undefined }>}
 */
function nodeSummaries(workflow, run) {
  const runData = run?.data?.resultData?.runData ?? {};
  /** @type {Map<string, Array<{ from: string, output: number }>>} */
  const inbound = new Map();
  for (const [from, out] of Object.entries(workflow.connections ?? {})) {
    (out.main ?? []).forEach((/** @type {any[]} */ branch, /** @type {number} */ output) => {
      for (const c of branch ?? []) inbound.set(c.node, [...(inbound.get(c.node) ?? []), { from, output }]);
    });
  }
  /** @param {string} name @param {number} output @returns {Array<{ json: any }>} */
  const itemsOf = (name, output) => runData[name]?.[0]?.data?.main?.[output] ?? [];
  const types = new Map(workflow.nodes.map((/** @type {any} */ n) => [n.name, n.type]));
  return nodeOrder(workflow).map((name) => {
    const r = runData[name]?.[0];
    const out = itemsOf(name, 0);
    const outputs = r?.data?.main ?? [];
    const parents = inbound.get(name);
    return {
      node: name,
      type: String(types.get(name) ?? ''),
      ran: r !== undefined,
      itemsIn: parents === undefined || r === undefined ? undefined : parents.reduce((n, p) => n + itemsOf(p.from, p.output).length, 0),
      itemsOut: out.length,
      otherOutputs: outputs.slice(1).reduce((/** @type {number} */ n, /** @type {any[]} */ o) => n + (o?.length ?? 0), 0),
      errors: out.filter((i) => i?.json && i.json.error !== undefined).length,
      skipped: out.filter((i) => i?.json && i.json.skipped === true).length,
      error: r?.error ? String(r.error.message ?? r.error.description ?? 'error') : undefined,
    };
  });
}

/**
 * Whether a headless run succeeded. The run data decides: in one cold test run n8n 1.x exited non-zero after
 * printing a successful run, so a non-zero exit after a successful run is reported (exitAnomaly), not failed.
 * @param {Awaited<ReturnType<typeof n8n.executeWorkflow>>} result
 * @returns {{ ok: boolean, exitAnomaly: boolean }}
 */
function runSucceeded(result) {
  if (result.ok) return { ok: true, exitAnomaly: false };
  const succeeded = result.run?.status === 'success' && !result.error && !result.timedOut;
  return { ok: succeeded, exitAnomaly: succeeded };
}

/**
 * A short readable report of one headless run.
 * @param {{ name: string, json: Record<string, any>, file?: string }} workflow
 * @param {Awaited<ReturnType<typeof n8n.executeWorkflow>>} result
 * @param {string[]} [notes] extra lines (what the emulator recorded, etc.)
 * @returns {string}
 */
function formatRun(workflow, result, notes = []) {
  const lines = [`${result.ok ? 'OK    ' : 'FAILED'} ${workflow.name}${workflow.file ? `  (workflows/${workflow.file})` : ''}  ${(result.durationMs / 1000).toFixed(1)} s`];
  for (const s of nodeSummaries(workflow.json, result.run)) {
    if (!s.ran) {
      lines.push(`         - ${s.node}: did not run`);
      continue;
    }
    const parts = [];
    if (s.itemsIn !== undefined) parts.push(`${s.itemsIn} in`);
    parts.push(`${s.itemsOut} out`);
    if (s.otherOutputs) parts.push(s.type === 'n8n-nodes-base.filter' ? `${s.otherOutputs} filtered out` : `${s.otherOutputs} on other outputs`);
    if (s.skipped) parts.push(`${s.skipped} skipped as duplicate`);
    if (s.errors) parts.push(`${s.errors} with error`);
    lines.push(`         - ${s.node}: ${parts.join(', ')}${s.error ? `  ERROR: ${s.error}` : ''}`);
  }
  if (!result.ok) {
    if (result.error) lines.push(`         error: ${result.error.message ?? JSON.stringify(result.error)}`);
    if (result.code !== 0 || !result.run) {
      lines.push(
        `         n8n exited with code ${result.code}${result.signal ? ` (signal ${result.signal})` : ''}${result.timedOut ? ' (timed out)' : ''}` +
          `${result.run ? '' : ', and printed no run data'}`,
      );
    }
    if (!result.run) lines.push(...tail(result.stdout + result.stderr, 15).split('\n').map((l) => `         | ${l}`));
  }
  for (const n of notes) lines.push(`         > ${n}`);
  return lines.join('\n');
}

/** @param {string} s @param {number} n */
function tail(s, n) {
  return s.trimEnd().split('\n').slice(-n).join('\n');
}

module.exports = {
  PROJECT_ROOT,
  WORKFLOWS_DIR,
  PLACEHOLDER_URL,
  DEMO_CREDENTIAL_ID,
  DEMO_CREDENTIAL_NAME,
  CREDENTIAL_TYPE,
  NODE_TYPE,
  DEMO_USER,
  NOACCESS_USER,
  DEMO_PLUGIN,
  DEMO_SANDBOX_OPTIONS,
  DEMO_OWNER,
  startDemoSandbox,
  demoCredential,
  withSandboxUrl,
  loadWorkflows,
  MCP_TRIGGER_TYPE,
  mcpTriggerPath,
  checkLoadedLine,
  provisionN8n,
  nodeOrder,
  nodeSummaries,
  formatRun,
  runSucceeded,
  n8n,
};
