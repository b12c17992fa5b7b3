/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in jest, not inside n8n */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * The GitHub Actions workflows (.github/workflows), read with a real YAML parser: what runs when, with which
 * permissions, and that every step calls the package's own scripts. publish.yml is the only way to publish
 * (scripts/prepublish-check.sh, npm's prepublishOnly, refuses anything else), with a provenance statement.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Job {
	'runs-on'?: string;
	container?: string | { image: string };
	needs?: string | string[];
	uses?: string;
	permissions?: Record<string, string>;
	'timeout-minutes'?: number;
	env?: Record<string, string>;
	steps?: Step[];
}
interface Workflow {
	on: Record<string, { branches?: string[]; tags?: string[] } | null>;
	permissions?: Record<string, string>;
	env?: Record<string, string>;
	jobs: Record<string, Job>;
}

function workflow(file: string): Workflow {
	return parse(readFileSync(path.join(ROOT, '.github', 'workflows', file), 'utf8')) as Workflow;
}

/** The shell commands of a job's `run` steps, one per line, comments and blank lines left out. */
function commands(job: Job): string[] {
	return (job.steps ?? [])
		.flatMap((step) => (step.run ?? '').split('\n'))
		.map((line) => line.trim())
		.filter((line) => line && !line.startsWith('#'));
}

/** The npm commands of those lines (`npm ci`, `npm run lint`, `npm test`, ...), wherever they stand in a line. */
function npmCommands(job: Job): string[] {
	return commands(job).flatMap((line) => [...line.matchAll(/\bnpm (ci|test|publish|run [\w:-]+)/g)].map((m) => m[0]));
}

/** GitHub's tag filter, as far as these workflows use it: `*` is any run of characters except `/`. */
function matchesFilter(filter: string, tag: string): boolean {
	const pattern = filter.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
	return new RegExp(`^${pattern}$`).test(tag);
}

describe('.github/workflows/ci.yml', () => {
	const ci = workflow('ci.yml');

	it('runs on pushes to main, on pull requests, and when publish.yml calls it', () => {
		expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
		expect(ci.on.push?.branches).toEqual(['main']);
	});

	it('may only read the repository', () => {
		expect(ci.permissions).toEqual({ contents: 'read' });
		for (const job of Object.values(ci.jobs)) expect(job.permissions).toBeUndefined();
	});

	it('checks: Node 24, then install, type check, n8n-node lint, build, tarball + verification scan, unit and engine tests, in that order', () => {
		const checks = ci.jobs.checks;
		const setupNode = checks.steps?.find((s) => s.uses?.startsWith('actions/setup-node@'));
		expect(String(setupNode?.with?.['node-version'])).toBe('24');
		expect(npmCommands(checks)).toEqual(['npm ci', 'npm run typecheck', 'npm run lint', 'npm run build', 'npm run verify', 'npm run test:unit']);
		expect(pkg.scripts.lint).toBe('n8n-node lint');
		expect(pkg.scripts['test:unit']).toMatch(/\bjest\b/);
		expect(pkg.scripts.verify).toBe('bash scripts/verify-package.sh');
	});

	it('e2e: after the checks, the whole suite (npm test, the real-n8n tests included) in Debian bookworm with Node 24', () => {
		const e2e = ci.jobs.e2e;
		expect(e2e.needs).toBe('checks');
		expect(e2e.container).toBe('node:24-bookworm');
		expect(npmCommands(e2e)).toEqual(['npm ci', 'npm test']);
		expect(pkg.scripts.test).toBe('bash scripts/test.sh');
		// A cold run here is ~15 min on two cores; the limit leaves room for a slower runner, not for a hang.
		expect(e2e['timeout-minutes']).toBeGreaterThanOrEqual(45);
		expect(e2e['timeout-minutes']).toBeLessThanOrEqual(120);
	});

	it('installs with npx allowed to run without a prompt (the eslint plugin\'s preinstall runs `npx only-allow pnpm`)', () => {
		expect(ci.env?.npm_config_yes).toBe('true');
	});
});

describe('.github/workflows/publish.yml', () => {
	const publish = workflow('publish.yml');
	const job = publish.jobs.publish;

	it('runs only for a pushed version tag, the kind `npm version` makes (v1.2.3)', () => {
		expect(Object.keys(publish.on)).toEqual(['push']);
		expect(publish.on.push?.branches).toBeUndefined();
		const filters = publish.on.push?.tags ?? [];
		expect(filters.length).toBeGreaterThan(0);
		const matches = (tag: string) => filters.some((f) => matchesFilter(f, tag));
		expect(matches(`v${pkg.version}`)).toBe(true);
		expect(matches('v1.12.0')).toBe(true);
		expect(matches('main')).toBe(false);
		expect(matches('release-candidate')).toBe(false);
	});

	it('publishes only after the whole CI (ci.yml) passed on the tagged commit', () => {
		expect(publish.jobs.ci.uses).toBe('./.github/workflows/ci.yml');
		expect(job.needs).toBe('ci');
	});

	it('only the publish job may mint an OIDC token (id-token: write, for the provenance statement); nothing may write to the repository', () => {
		expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(publish.permissions).toEqual({ contents: 'read' });
		expect(publish.jobs.ci.permissions).toBeUndefined();
	});

	it('installs, then publishes with --provenance to the public registry', () => {
		expect(npmCommands(job)).toEqual(['npm ci', 'npm publish']);
		const publishLine = commands(job).find((line) => line.startsWith('npm publish'));
		expect(publishLine?.split(/\s+/)).toEqual(expect.arrayContaining(['--provenance', '--access', 'public']));
		const setupNode = job.steps?.find((s) => s.uses?.startsWith('actions/setup-node@'));
		expect(String(setupNode?.with?.['node-version'])).toBe('24');
	});

	it('npm publish builds first and refuses to run anywhere but here (prepack, prepublishOnly)', () => {
		expect(pkg.scripts.prepack).toBe('npm run build');
		expect(pkg.scripts.prepublishOnly).toBe('bash scripts/prepublish-check.sh');
	});
});

describe('scripts/prepublish-check.sh (npm prepublishOnly): published from the tag\'s workflow only, with provenance', () => {
	const tag = `v${pkg.version}`;
	const inPublishWorkflow = { GITHUB_ACTIONS: 'true', GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: tag, npm_config_provenance: 'true' };

	function check(env: Record<string, string>) {
		const base = Object.fromEntries(
			Object.entries(process.env).filter(([key]) => !/^(GITHUB_|npm_config_provenance$|npm_package_version$)/i.test(key)),
		);
		const result = spawnSync('bash', ['scripts/prepublish-check.sh'], { cwd: ROOT, env: { ...base, ...env }, encoding: 'utf8' });
		return { code: result.status, stderr: result.stderr };
	}

	it('passes in the publish workflow of the matching tag with --provenance', () => {
		expect(check(inPublishWorkflow)).toEqual({ code: 0, stderr: '' });
	});

	it.each([
		['outside GitHub Actions (npm publish on a laptop)', { GITHUB_ACTIONS: '' }, /not running in GitHub Actions/],
		['for a branch', { GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' }, /runs for 'main' \(branch\)/],
		['for a tag of another version', { GITHUB_REF_NAME: 'v99.0.0' }, /not for the tag v/],
		['without --provenance', { npm_config_provenance: '' }, /without --provenance/],
	])('refuses %s', (_label, override, reason) => {
		const { code, stderr } = check({ ...inPublishWorkflow, ...override });
		expect(code).toBe(1);
		expect(stderr).toMatch(reason);
		expect(stderr).toMatch(/published by \.github\/workflows\/publish\.yml/);
	});
});
