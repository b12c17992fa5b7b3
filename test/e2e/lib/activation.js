// @ts-check
'use strict';
/**
 * Activating a workflow from the CLI, so that `n8n start` runs its polling trigger on schedule. The command
 * differs by version: 2.x "publishes" a workflow version, 1.x sets the active flag.
 */
const n8n = require('../../../tools/n8n');

/**
 * @param {import('../../../tools/n8n').N8nHome} home
 * @param {string} workflowId
 */
async function activateWorkflow(home, workflowId) {
  const args =
    home.runtime.major >= 2
      ? ['publish:workflow', `--id=${workflowId}`]
      : ['update:workflow', `--id=${workflowId}`, '--active=true'];
  const result = await n8n.runN8n(home, args, { timeoutMs: 120_000 });
  if (result.code !== 0) {
    throw new Error(`n8n ${args.join(' ')} failed (code ${result.code}): ${(result.stderr || result.stdout).slice(-800)}`);
  }
  return result;
}

module.exports = { activateWorkflow };
