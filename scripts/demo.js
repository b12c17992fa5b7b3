#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run demo`: packs this package (which builds it), starts the emulator on loopback, creates an n8n home with
 * the package installed from the tarball, the demo credential and the example workflows, executes every example
 * workflow headlessly with the real n8n, and prints what each one did. Exits 1 if any failed.
 *
 * Options: --n8n 1 (n8n 1.x instead of 2.x; or env N8N_MAJOR=1), --keep (keep the n8n home and print its path),
 * --only <key> (run the workflows whose file name contains <key>).
 */
const p = require('../tools/provision');
const { checkEffects } = require('../workflows/expectations');
const { arg, stepper, startUp } = require('./lib/startup');

const { n8n } = p;
const step = stepper('demo');

async function main() {
  const keep = process.argv.includes('--keep');
  const only = arg('--only');
  const t0 = Date.now();

  const { major, runtime, tarball, sandbox } = await startUp({ step });
  /** @type {Awaited<ReturnType<typeof p.provisionN8n>> | undefined} */
  let provisioned;
  let failed = 0;
  // Ctrl-C: n8n's processes are killed by the driver; the emulator and the home go with us.
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(sig, () => {
      if (provisioned && !keep) n8n.removeHome(provisioned.home);
      process.exit(130);
    });
  }
  try {
    step(`emulator on ${sandbox.url} (template review ${p.DEMO_SANDBOX_OPTIONS.reviewDelayMs} ms, page size at most ${p.DEMO_SANDBOX_OPTIONS.maxPageSize})`);
    step('n8n home: package from the tarball, credential and workflows imported');
    provisioned = await p.provisionN8n({ major, tarball, sandboxUrl: sandbox.url });
    const { home, workflows, loaded } = provisioned;

    const out = [];
    out.push('');
    out.push(`Commerce Messaging demo: n8n ${runtime.version} (real process, headless), emulator ${sandbox.url}`);
    out.push(`n8n loaded the package from its tarball: ${loaded.credentials} credential(s), ${loaded.nodes} node(s)`);
    out.push(`  ${loaded.line.replace(/^\S+ \| debug \| /, '')}`);
    out.push(`credential "${p.DEMO_CREDENTIAL_NAME}": ${p.DEMO_USER.username} on ${sandbox.url}, plugin integration on (woocommerce)`);
    out.push('');
    process.stdout.write(`${out.join('\n')}\n`);

    for (const wf of workflows) {
      if (only && !wf.file.includes(only)) continue;
      if (wf.mcpPath !== undefined) {
        process.stdout.write(
          `MCP    ${wf.name}  (workflows/${wf.file}): its tools run when an MCP client calls them; ` +
            `npm start activates it at <n8n>/mcp/${wf.mcpPath}, and test/e2e/mcp.test.js calls every tool with the official MCP SDK.\n`,
        );
        continue;
      }
      if (wf.trigger) {
        process.stdout.write(
          `ACTIVE ${wf.name}  (workflows/${wf.file}): a polling trigger runs in an active workflow only; ` +
            'activate it in the editor (npm start) to see it work. The e2e tests run it on its schedule.\n',
        );
        continue;
      }
      const since = sandbox.state.requests.length;
      const result = await n8n.executeWorkflow(home, wf.id, { timeoutMs: 180_000 });
      const run = p.runSucceeded(result);
      const { notes, problems } = run.ok ? checkEffects(wf.key, sandbox, result, since) : { notes: [], problems: [] };
      if (run.exitAnomaly) notes.push(`n8n exited with code ${result.code} after this successful run`);
      const ok = run.ok && problems.length === 0;
      if (!ok) failed++;
      const report = p.formatRun(wf, { ...result, ok }, [...notes, ...problems.map((x) => `PROBLEM: ${x}`)]);
      process.stdout.write(`${report}\n`);
    }
    const s = sandbox.summary();
    process.stdout.write(
      `\n${failed === 0 ? 'All workflows succeeded' : `${failed} workflow(s) FAILED`}. ` +
        `Emulator: ${s.requestCount} API requests, ${sandbox.loginCount()} login(s). ` +
        `Total ${((Date.now() - t0) / 1000).toFixed(0)} s.\n`,
    );
    if (keep) process.stdout.write(`n8n home kept: ${home.home} (N8N_USER_FOLDER)\n`);
  } finally {
    await sandbox.close();
    if (provisioned && !keep) n8n.removeHome(provisioned.home);
  }
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[demo] failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
  },
);
