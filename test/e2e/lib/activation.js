// @ts-check
'use strict';
/**
 * Activating a workflow from the CLI, so that `n8n start` runs its trigger (the polling schedule of trigger.test.js,
 * the MCP Server Trigger of mcp.test.js). Written once in tools/n8n (cli.js), which `npm start` uses too.
 */
const { activateWorkflow } = require('../../../tools/n8n');

module.exports = { activateWorkflow };
