// @ts-check
'use strict';
/**
 * Which n8n versions the e2e suite runs: E2E_N8N_VERSIONS="2,1,oldest" (default), or any of them: 2 and 1 are the
 * versions tested in depth (2.40.7, 1.123.81), `oldest` the oldest supported n8n, smoke-tested
 * (tools/n8n/runtime.js VERSIONS).
 * @returns {Array<number | 'oldest'>}
 */
function selectedVersions() {
  const raw = process.env.E2E_N8N_VERSIONS ?? '2,1,oldest';
  /** @type {Array<number | 'oldest'>} */
  const list = [];
  for (const token of raw.split(/[\s,]+/).filter(Boolean)) {
    if (token === 'oldest') list.push('oldest');
    else if (token === '1' || token === '2') list.push(token === '1' ? 1 : 2);
    else throw new Error(`E2E_N8N_VERSIONS: unknown n8n version "${token}" (2, 1 or oldest)`);
  }
  return [...new Set(list)];
}

module.exports = { selectedVersions };
