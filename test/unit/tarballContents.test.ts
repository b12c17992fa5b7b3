/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The check scripts/verify-package.sh runs on the real `npm pack --json` report (in npm test, after the build).
const { expectedFiles, tarballProblems, checkPackReport } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require('../../scripts/lib/tarballContents') as {
		expectedFiles(root?: string): string[];
		tarballProblems(packed: string[], expected: string[]): string[];
		checkPackReport(report: {
			filename: string;
			size: number;
			unpackedSize: number;
			files: Array<{ path: string }>;
		}): {
			ok: boolean;
			lines: string[];
		};
	};

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const report = (files: string[]) => ({
	filename: 'p.tgz',
	size: 1000,
	unpackedSize: 4000,
	files: files.map((p) => ({ path: p })),
});

describe('the tarball holds exactly what n8n loads, and the docs', () => {
	const expected = expectedFiles();

	it('expects the compiled nodes, credential and transport, the icons, the codex files, README.md, LICENSE and package.json', () => {
		for (const declared of [...pkg.n8n.nodes, ...pkg.n8n.credentials])
			expect(expected).toContain(declared);
		expect(expected).toEqual(
			expect.arrayContaining([
				'README.md',
				'LICENSE',
				'package.json',
				'dist/transport/request.js',
				'dist/transport/routes.js',
			]),
		);
		expect(expected.filter((f) => f.endsWith('.svg')).length).toBeGreaterThanOrEqual(2);
		expect(expected.filter((f) => f.endsWith('.node.json'))).toEqual([
			'dist/nodes/CommerceMessaging/CommerceMessaging.node.json',
			'dist/nodes/CommerceMessaging/CommerceMessagingTrigger.node.json',
		]);
		expect(expected.filter((f) => !/^dist\/(nodes|credentials|transport)\//.test(f))).toEqual([
			'LICENSE',
			'README.md',
			'package.json',
		]);
		expect(expected.filter((f) => /\.(ts|map)$/.test(f) || f.includes('test'))).toEqual([]);
	});

	it('reports source maps, sources, declarations and tests as unexpected, and what is missing', () => {
		const packed = [
			...expected.filter((f) => f !== 'dist/transport/request.js'),
			'dist/transport/request.js.map',
			'dist/nodes/x.d.ts',
			'nodes/x.ts',
			'dist/test/a.test.js',
		];
		expect(tarballProblems(packed, expected)).toEqual([
			'missing from the tarball: dist/transport/request.js',
			'unexpected in the tarball: dist/transport/request.js.map (a source map)',
			'unexpected in the tarball: dist/nodes/x.d.ts (a type declaration)',
			'unexpected in the tarball: nodes/x.ts (a TypeScript source)',
			'unexpected in the tarball: dist/test/a.test.js (a test)',
		]);
		expect(tarballProblems(expected, expected)).toEqual([]);
	});

	it('states the size and the counts of a good tarball, and fails one that lacks a file package.json names', () => {
		const good = checkPackReport(report(expected));
		expect(good.ok).toBe(true);
		expect(good.lines).toEqual([
			expect.stringMatching(
				/^tarball p\.tgz: \d+ files, 1\.0 kB packed, 4\.0 kB unpacked \(\d+ compiled \.js, \d+ icons, 2 codex files/,
			),
		]);
		const bad = checkPackReport(report(expected.filter((f) => f !== pkg.n8n.credentials[0])));
		expect(bad.ok).toBe(false);
		expect(bad.lines).toContain(
			`package.json's n8n section names ${pkg.n8n.credentials[0]}, which the tarball lacks`,
		);
	});
});
