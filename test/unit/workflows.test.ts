/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in jest, not inside n8n */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

import { placeholdersOf } from '../../nodes/CommerceMessaging/helpers/template';
import { Store } from '../../sandbox/store';

/**
 * The GitHub Actions workflows (.github/workflows), read with a real YAML parser: what runs when, with which
 * permissions, and that every step calls the package's own scripts. publish.yml is the only way to publish
 * (scripts/prepublish-check.sh, npm's prepublishOnly, refuses anything else), with a provenance statement.
 * At the end, the example n8n workflows (workflows/*.json): how their Template > Send nodes are filled.
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
	return commands(job).flatMap((line) =>
		[...line.matchAll(/\bnpm (ci|test|publish|run [\w:-]+)/g)].map((m) => m[0]),
	);
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
		expect(npmCommands(checks)).toEqual([
			'npm ci',
			'npm run typecheck',
			'npm run lint',
			'npm run build',
			'npm run verify',
			'npm run test:unit',
		]);
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

	it("installs with npx allowed to run without a prompt (the eslint plugin's preinstall runs `npx only-allow pnpm`)", () => {
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
		expect(publishLine?.split(/\s+/)).toEqual(
			expect.arrayContaining(['--provenance', '--access', 'public']),
		);
		const setupNode = job.steps?.find((s) => s.uses?.startsWith('actions/setup-node@'));
		expect(String(setupNode?.with?.['node-version'])).toBe('24');
	});

	it('npm publish builds first and refuses to run anywhere but here (prepack, prepublishOnly)', () => {
		expect(pkg.scripts.prepack).toBe('npm run build');
		expect(pkg.scripts.prepublishOnly).toBe('bash scripts/prepublish-check.sh');
	});
});

describe("scripts/prepublish-check.sh (npm prepublishOnly): published from the tag's workflow only, with provenance", () => {
	const tag = `v${pkg.version}`;
	const inPublishWorkflow = {
		GITHUB_ACTIONS: 'true',
		GITHUB_REF_TYPE: 'tag',
		GITHUB_REF_NAME: tag,
		npm_config_provenance: 'true',
	};

	function check(env: Record<string, string>) {
		const base = Object.fromEntries(
			Object.entries(process.env).filter(
				([key]) => !/^(GITHUB_|npm_config_provenance$|npm_package_version$)/i.test(key),
			),
		);
		const result = spawnSync('bash', ['scripts/prepublish-check.sh'], {
			cwd: ROOT,
			env: { ...base, ...env },
			encoding: 'utf8',
		});
		return { code: result.status, stderr: result.stderr };
	}

	it('passes in the publish workflow of the matching tag with --provenance', () => {
		expect(check(inPublishWorkflow)).toEqual({ code: 0, stderr: '' });
	});

	it.each([
		[
			'outside GitHub Actions (npm publish on a laptop)',
			{ GITHUB_ACTIONS: '' },
			/not running in GitHub Actions/,
		],
		[
			'for a branch',
			{ GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' },
			/runs for 'main' \(branch\)/,
		],
		['for a tag of another version', { GITHUB_REF_NAME: 'v99.0.0' }, /not for the tag v/],
		['without --provenance', { npm_config_provenance: '' }, /without --provenance/],
	])('refuses %s', (_label, override, reason) => {
		const { code, stderr } = check({ ...inPublishWorkflow, ...override });
		expect(code).toBe(1);
		expect(stderr).toMatch(reason);
		expect(stderr).toMatch(/published by \.github\/workflows\/publish\.yml/);
	});
});

/**
 * The example workflows (workflows/*.json) that send a template fill it the way users do (Template > Send): its
 * Variables mapped one field per placeholder, stored as the editor saves them, the fields being those the node loads
 * for that template (else the editor would call them stale), a value for each; no variables list or JSON beside them.
 * Example 2 takes the header image from the item's binary field, with no Convert to File or Media > Upload node.
 */
describe('workflows/*.json: Template > Send as users fill it', () => {
	/** The parameters these checks read, as a workflow file holds them (anything else is left unknown). */
	interface NodeParameters {
		[name: string]: unknown;
		resource?: string;
		operation?: string;
		body?: string;
		jsCode?: string;
		phone?: string;
		templateId?: { value?: string };
		variables?: { value: Record<string, string>; schema: unknown[] };
		options?: Record<string, unknown>;
	}
	interface WorkflowNode {
		name: string;
		type: string;
		parameters: NodeParameters;
	}
	const dir = path.join(ROOT, 'workflows');
	const examples = readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.map((file) => ({
			file,
			json: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
				nodes: WorkflowNode[];
				connections: Record<string, unknown>;
			},
		}));
	const isSend = (node: WorkflowNode) =>
		node.type.startsWith('n8n-nodes-commerce-messaging.commerceMessaging') &&
		node.parameters.resource === 'template' &&
		node.parameters.operation === 'send';
	const sends = examples.flatMap(({ file, json }) =>
		json.nodes.filter(isSend).map((node) => ({ file, node, json })),
	);
	const seeded = new Store();
	seeded.reset('demo');

	/**
	 * The fields the node loads for a send's template: the seeded template it picks by ID, or the draft its workflow
	 * creates (example 3), or for the MCP tool, whose template the model picks, order_confirmation (ID 1), which the
	 * tool's description names.
	 */
	function expectedFields(json: { nodes: WorkflowNode[] }, node: WorkflowNode) {
		const id = String(node.parameters.templateId?.value ?? '');
		const draft = json.nodes.find(
			(n) => n.parameters.resource === 'template' && n.parameters.operation === 'create',
		);
		const template = /^\d+$/.test(id)
			? seeded.templates.get(Number(id))
			: draft
				? { body: draft.parameters.body }
				: seeded.templates.get(1);
		return (placeholdersOf(template ?? {}) ?? []).map((placeholder) => ({
			id: placeholder.id,
			displayName: placeholder.label,
		}));
	}

	it('examples 2, 3 and 8 send a template', () => {
		expect(sends.map(({ file, node }) => `${file}: ${node.name}`)).toEqual([
			'02-order-paid-confirmation.json: Send order confirmation',
			'03-template-lifecycle.json: Send shipping update',
			'08-mcp-server-tools.json: send_whatsapp_template',
		]);
	});

	it.each(sends.map((send) => [`${send.file}: ${send.node.name}`, send] as const))(
		'%s maps one value per placeholder of its template',
		(_name, { node, json }) => {
			const { variables, templateVariables, options } = node.parameters;
			expect(templateVariables).toBeUndefined();
			expect(options?.templateVariables).toBeUndefined();
			expect(options?.variablesJson).toBeUndefined();
			expect(variables).toEqual({
				mappingMode: 'defineBelow',
				value: expect.any(Object),
				matchingColumns: [],
				schema: expect.any(Array),
				attemptToConvertTypes: false,
				convertFieldsToString: false,
			});
			const fields = expectedFields(json, node);
			expect(fields.length).toBeGreaterThanOrEqual(2);
			// The editor's fields as the node's templateVariables method gives them.
			expect(variables?.schema).toEqual(
				fields.map((field) => ({
					...field,
					required: true,
					defaultMatch: false,
					canBeUsedToMatch: false,
					display: true,
					type: 'string',
				})),
			);
			expect(Object.keys(variables?.value ?? {})).toEqual(fields.map((field) => field.id));
			for (const value of Object.values(variables?.value ?? {}))
				expect(value).toEqual(expect.stringMatching(/\S/));
		},
	);

	it("example 2 sends the header image from the item's binary field, made by its Code node; no Convert to File or Media > Upload node", () => {
		const { json } = examples.find(({ file }) => file.startsWith('02-'))!;
		expect(json.nodes.map((node) => node.type)).not.toContain('n8n-nodes-base.convertToFile');
		expect(json.nodes.filter((node) => node.parameters.resource === 'media')).toEqual([]);
		const send = json.nodes.find(isSend)!;
		expect(send.parameters).toMatchObject({
			headerMedia: 'binary',
			headerMediaBinaryField: 'data',
		});
		expect(send.parameters.headerMediaId).toBeUndefined();
		// The node right before it outputs the binary field "data" (a PNG).
		const before = Object.entries(json.connections).find(([, out]) =>
			JSON.stringify(out).includes(`"node":"${send.name}"`),
		)?.[0];
		const code = json.nodes.find((node) => node.name === before)!;
		expect(code.type).toBe('n8n-nodes-base.code');
		expect(code.parameters.jsCode).toMatch(
			/binary:\s*\{\s*data:\s*\{\s*data: [^}]*mimeType: 'image\/png'/,
		);
	});

	it('example 8 lets the model fill the mapped variables ($fromAI), keeping phone and template_id as arguments', () => {
		const { node } = sends.find(({ file }) => file.startsWith('08-'))!;
		const fromAI = (value: unknown) => /\$fromAI\('(\w+)'/.exec(String(value))?.[1];
		expect(
			Object.fromEntries(
				Object.entries(node.parameters.variables?.value ?? {}).map(([id, value]) => [
					id,
					fromAI(value),
				]),
			),
		).toEqual({ 'body:1': 'customer_name', 'body:2': 'order_id' });
		expect(fromAI(node.parameters.phone)).toBe('phone');
		expect(fromAI(node.parameters.templateId?.value)).toBe('template_id');
	});
});
