// @ts-check
'use strict';
/** After the e2e test files: removes the packed tarball (homes, processes and emulators are closed by each file). */
const fs = require('node:fs');

module.exports = async function globalTeardown() {
  const dir = process.env.CM_E2E_PACK_DIR;
  if (dir && fs.existsSync(dir)) fs.rmSync(dir, { recursive: true, force: true });
};
