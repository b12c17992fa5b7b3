/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in jest, not inside n8n */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * transport/ is the service contract: it knows nothing of the nodes' features and its modules form no circle
 * (type-only imports included), so each can be read, and changed, from the bottom up.
 */

const TRANSPORT = resolve(__dirname, '../../transport');
const modules = readdirSync(TRANSPORT).filter((file) => file.endsWith('.ts'));
const sourceOf = (module: string) => readFileSync(join(TRANSPORT, module), 'utf8');

function importsOf(module: string): string[] {
	const specifiers = [
		...sourceOf(module).matchAll(/^(?:import|export)[^;]*?from '([^']+)'/gms),
	].map((match) => match[1]);
	return specifiers
		.filter((specifier) => specifier.startsWith('./'))
		.map((specifier) => `${specifier.slice(2)}.ts`);
}

/** The first circle found, as a path of modules, or undefined. */
function findCircle(graph: Map<string, string[]>): string[] | undefined {
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const visit = (module: string): string[] | undefined => {
		if (state.get(module) === 'done') return undefined;
		if (state.get(module) === 'open') return [...path.slice(path.indexOf(module)), module];
		state.set(module, 'open');
		path.push(module);
		for (const next of graph.get(module) ?? []) {
			const circle = visit(next);
			if (circle) return circle;
		}
		path.pop();
		state.set(module, 'done');
		return undefined;
	};
	for (const module of graph.keys()) {
		const circle = visit(module);
		if (circle) return circle;
	}
	return undefined;
}

describe('transport/ layering', () => {
	const graph = new Map(modules.map((module) => [module, importsOf(module)]));

	it('has modules whose imports resolve (the check reads them all)', () => {
		expect(modules.length).toBeGreaterThan(10);
		for (const [module, imports] of graph)
			for (const target of imports)
				expect({ module, target, exists: modules.includes(target) }).toEqual({
					module,
					target,
					exists: true,
				});
	});

	it('has no import circle, type-only imports included', () => {
		expect(findCircle(graph)).toBeUndefined();
	});

	it('finds a circle when there is one (the check can fail)', () => {
		expect(
			findCircle(
				new Map([
					['a.ts', ['b.ts']],
					['b.ts', ['c.ts']],
					['c.ts', ['a.ts']],
				]),
			),
		).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
	});

	it('imports nothing from the nodes and names none of their features', () => {
		for (const module of modules) {
			const source = sourceOf(module);
			expect({ module, importsNodes: /from '\.\.\/nodes\//.test(source) }).toEqual({
				module,
				importsNodes: false,
			});
			expect({
				module,
				feature: (source.match(/dedup\w*|deduplicat\w*|batch\w*/i) ??
					source.match(
						/Other Endpoint|Custom API Call|Wait for Approval|Review Finished|Request Options|Template >/,
					))?.[0],
			}).toEqual({ module, feature: undefined });
		}
	});
});
