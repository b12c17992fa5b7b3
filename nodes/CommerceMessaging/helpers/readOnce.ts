import type { IExecuteFunctions, IGetNodeParameterOptions } from 'n8n-workflow';

type ReadParameter = (name: string, itemIndex: number, fallback?: unknown, options?: IGetNodeParameterOptions) => unknown;

/**
 * The run's context with one difference: each parameter of each item is evaluated once. n8n evaluates a parameter's
 * expressions at every getNodeParameter (n8n 2.x in an isolated engine, about 0.3 ms each), and one item's
 * parameters are needed in several places (its ordering key, its deduplication key, its body): the first read is
 * kept for the run and handed to every later one. A field of a collection (`additionalFields.total`) is taken from
 * the collection read whole, so it is not evaluated a second time either.
 *
 * Values are handed on as read, not copied: no operation changes a parameter value it read.
 */
export function readingParametersOnce(ctx: IExecuteFunctions): IExecuteFunctions {
	const read = ctx.getNodeParameter.bind(ctx) as ReadParameter;
	const kept = new Map<string, unknown>();
	const getNodeParameter: ReadParameter = (name, itemIndex, fallback, options) => {
		const key = `${itemIndex}\u0000${name}\u0000${options === undefined ? '' : JSON.stringify(options)}`;
		if (kept.has(key)) return kept.get(key);
		const dot = name.indexOf('.');
		const value =
			dot > 0 && options === undefined
				? fieldOf(getNodeParameter(name.slice(0, dot), itemIndex, {}), name.slice(dot + 1), fallback)
				: read(name, itemIndex, fallback, options);
		kept.set(key, value);
		return value;
	};
	return Object.create(ctx, { getNodeParameter: { value: getNodeParameter } }) as IExecuteFunctions;
}

function fieldOf(collection: unknown, path: string, fallback: unknown): unknown {
	let value: unknown = collection;
	for (const part of path.split('.')) {
		value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
	}
	return value === undefined ? fallback : value;
}
