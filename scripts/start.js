#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm start`: the same setup as `npm run demo` (package packed and installed in a fresh n8n home, the emulator
 * on loopback, the demo credential and the example workflows imported), then the n8n editor on
 * http://127.0.0.1:5678 with an owner account, until Ctrl-C, which stops n8n and the emulator and removes the home.
 *
 * Options: --n8n 1 (n8n 1.x; or env N8N_MAJOR=1), --port <n> (editor port, default 5678; or CM_EDITOR_PORT),
 * --sandbox-port <n> (emulator port, default 8787, or any free port when 8787 is taken; or SANDBOX_PORT),
 * --echo (stream n8n's log here).
 */
const p = require('../tools/provision');
const { arg, stepper, portFree, startUp } = require('./lib/startup');

const { n8n } = p;
const step = stepper('start');

async function main() {
  const editorPort = Number(arg('--port') ?? process.env.CM_EDITOR_PORT ?? 5678);
  const sandboxPort = Number(arg('--sandbox-port') ?? process.env.SANDBOX_PORT ?? 8787);
  if (!(await portFree(editorPort))) {
    throw new Error(`127.0.0.1:${editorPort} is in use (another n8n?). Stop it, or choose another port: npm start -- --port 5679`);
  }

  const { major, runtime, tarball, sandbox } = await startUp({ step, sandboxPort });
  /** @type {import('../tools/n8n').N8nHome | undefined} */
  let home;
  /** @type {import('../tools/n8n').Editor | undefined} */
  let editor;
  let stopping = false;
  const stop = async (/** @type {number} */ code) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write('\n[start] stopping n8n and the emulator...\n');
    try {
      await editor?.stop();
      await sandbox.close();
      if (home) n8n.removeHome(home);
    } finally {
      process.exit(code);
    }
  };
  // process.on (not once): a second Ctrl-C while stopping must not kill us before the cleanup ends.
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.on(sig, () => void stop(0));

  try {
    await provide();
  } catch (err) {
    process.stderr.write(`[start] failed: ${err instanceof Error ? err.message : String(err)}\n`);
    await stop(1);
  }

  async function provide() {
    step(`emulator on ${sandbox.url}; n8n home with the package, the credential and the workflows`);
    const provisioned = await p.provisionN8n({ major, tarball, sandboxUrl: sandbox.url });
    home = provisioned.home;
    // The MCP Server Trigger serves its tools only while its workflow is active: published before the editor starts.
    const mcp = provisioned.workflows.filter((w) => w.mcpPath !== undefined);
    for (const wf of mcp) {
      step(`activating ${wf.name} (MCP Server Trigger)`);
      await n8n.activateWorkflow(home, wf.id);
    }
    step(`starting the n8n editor on 127.0.0.1:${editorPort}`);
    editor = await n8n.startEditor(home, {
      port: editorPort,
      owner: p.DEMO_OWNER,
      echo: process.argv.includes('--echo'),
      env: { N8N_LOG_LEVEL: process.argv.includes('--echo') ? 'debug' : 'info' },
    });
    for (const wf of mcp) await n8n.waitForProductionUrl(`${editor.url}/mcp/${wf.mcpPath}`, { methods: n8n.MCP_TRIGGER_METHODS });
    const lines = [
      '',
      `n8n ${runtime.version} is running with n8n-nodes-commerce-messaging installed from its npm tarball:`,
      '',
      `  Open      ${editor.url}/`,
      `  Log in    ${p.DEMO_OWNER.email} / ${p.DEMO_OWNER.password}`,
      '',
      `Credential "${p.DEMO_CREDENTIAL_NAME}": ${p.DEMO_USER.username} on the emulator ${sandbox.url}, plugin integration on`,
      'Workflows (Overview), most starting with a Manual Trigger: open one and click "Execute workflow" ("Test workflow" in n8n 1.x):',
      ...provisioned.workflows.map((w) => `  - ${w.name}  (workflows/${w.file})`),
      ...mcp.map(
        (w) =>
          `MCP server (workflow "${w.name}", active): ${editor?.url}/mcp/${w.mcpPath}  ` +
          '(streamable HTTP or SSE; point an MCP client at it, see README "Use with AI agents")',
      ),
      'Or add a "Commerce Messaging" node to a new workflow (search the nodes panel for "Commerce Messaging").',
      '',
      `Emulator ${sandbox.url}: users ${p.DEMO_USER.username} / ${p.DEMO_USER.password} (API access), ` +
        `${p.NOACCESS_USER.username} / ${p.NOACCESS_USER.password} (no API access); state at ${sandbox.url}/__sandbox/state`,
      `Template reviews end after ${p.DEMO_SANDBOX_OPTIONS.reviewDelayMs / 1000} s; lists are served in pages of at most ${p.DEMO_SANDBOX_OPTIONS.maxPageSize}.`,
      '',
      'Ctrl-C stops n8n and the emulator (this n8n home is temporary and is removed).',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

main().catch(async (err) => {
  process.stderr.write(`[start] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
