/** Unit and engine tests (fast). The real-n8n e2e suite has its own config: test/e2e/jest.config.js. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: { '^.+\\.tsx?$': ['ts-jest', { diagnostics: false }] },
	testTimeout: 30000,
};
