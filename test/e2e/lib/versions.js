// @ts-check
'use strict';
/** Which n8n versions the e2e suite runs: E2E_N8N_VERSIONS="1,2" (default), "2" or "1". */
function selectedVersions() {
  const raw = process.env.E2E_N8N_VERSIONS ?? '2,1';
  const list = raw.split(/[\s,]+/).filter(Boolean).map(Number);
  for (const v of list) if (v !== 1 && v !== 2) throw new Error(`E2E_N8N_VERSIONS: unknown n8n major "${v}" (1 or 2)`);
  return [...new Set(list)];
}

module.exports = { selectedVersions };
