// @ts-check
/**
 * End-to-end tests: the example workflows (workflows/) and the credential run by REAL n8n processes (2.x and 1.x)
 * against the emulator. Run by scripts/test.sh after the unit/engine tests: `jest -c test/e2e/jest.config.js`.
 * globalSetup installs the missing n8n runtimes (in parallel, cached in $CM_CACHE_DIR) and packs the package once.
 * E2E_N8N_VERSIONS=2 (or 1, oldest, or 2,1,oldest: the default) picks the n8n versions.
 * @type {import('jest').Config}
 */
module.exports = {
  rootDir: '../..',
  roots: ['<rootDir>/test/e2e'],
  testMatch: ['<rootDir>/test/e2e/**/*.test.js'],
  testEnvironment: 'node',
  transform: {},
  globalSetup: '<rootDir>/test/e2e/lib/globalSetup.js',
  globalTeardown: '<rootDir>/test/e2e/lib/globalTeardown.js',
  // Two files at a time (n8n 2.x, n8n 1.x, the trigger on its schedule, the browser check); each drives its own
  // n8n home and emulator.
  maxWorkers: 2,
  testTimeout: 180_000,
  slowTestThreshold: 60,
  verbose: true,
};
