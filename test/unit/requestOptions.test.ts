import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { batchingOption, requestOptions } from '../../nodes/CommerceMessaging/descriptions';
import { BatchPacer } from '../../nodes/CommerceMessaging/helpers/batching';
import { readRequestOptions as readRunSettings } from '../../nodes/CommerceMessaging/helpers/parameters';
import { DEFAULT_RUN_SETTINGS, type RunSettings } from '../../transport/settings';

/**
 * The typed boundary between the Request Options panel and the transport (helpers/parameters.ts readRequestOptions): every field
 * of the panel is mapped explicitly onto a setting in milliseconds, bytes or counts. A panel field renamed or added
 * without its mapping turns this red, instead of falling back to a default in silence.
 */

/** The panel's options as n8n hands them to the node (a collection read field by field). */
function panelReading(values: Record<string, unknown>): IExecuteFunctions {
	return {
		getNode: () => ({ name: 'Commerce Messaging' }),
		getInputData: () => [{ json: {} }],
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => {
			const field = name.replace(/^requestOptions\./, '');
			return field in values ? values[field] : fallback;
		},
	} as unknown as IExecuteFunctions;
}

const panelFields = (requestOptions.options as INodeProperties[])
	.map((option) => option.name)
	.sort();

/** A value for each field, away from its default, and where it must land in the transport's settings. */
const MAPPING: Record<
	string,
	{ value: number; lands: (settings: RunSettings) => unknown; expected: unknown }
> = {
	concurrency: { value: 7, lands: (s) => s.concurrency, expected: 7 },
	maxAttempts: { value: 3, lands: (s) => s.retry.maxAttempts, expected: 3 },
	maxListMegabytes: { value: 2, lands: (s) => s.maxListBytes, expected: 2 * 1024 * 1024 },
	maxRecords: { value: 500, lands: (s) => s.maxRecords, expected: 500 },
	maxRetryWaitSeconds: { value: 12, lands: (s) => s.retry.maxTotalWaitMs, expected: 12_000 },
	timeoutSeconds: { value: 1.5, lands: (s) => s.retry.timeoutMs, expected: 1_500 },
};

describe('Request Options: the panel mapped onto the transport, field by field', () => {
	it('the panel shows exactly the fields the mapping knows', () => {
		expect(panelFields).toEqual(Object.keys(MAPPING).sort());
	});

	it("every field left at its panel default gives the transport's default settings", () => {
		const defaults = Object.fromEntries(
			(requestOptions.options as INodeProperties[]).map((option) => [option.name, option.default]),
		);
		const settings = readRunSettings(panelReading(defaults));
		expect({ ...settings, names: {} }).toEqual(DEFAULT_RUN_SETTINGS);
		expect(settings.names.timeout).toBe('Request Options > Timeout (Seconds)');
		// The defaults the README documents, stated here rather than read from the product.
		expect(defaults).toEqual({
			concurrency: 32,
			maxAttempts: 8,
			maxListMegabytes: 256,
			maxRecords: 100_000,
			maxRetryWaitSeconds: 120,
			timeoutSeconds: 30,
		});
	});

	it('L2: Batching left unset sends 50 items, then pauses 1,000 ms, as its panel shows', () => {
		const pacer = new BatchPacer(panelReading({}));
		expect([pacer.batchSize, pacer.intervalMs]).toEqual([50, 1000]);
		const [{ values }] = batchingOption.options as Array<{ values: INodeProperties[] }>;
		expect(values.map((field) => field.default)).toEqual([50, 1000]);
	});

	it.each(panelFields)('the field %s reaches its setting (and only it)', (field) => {
		const { value, lands, expected } = MAPPING[field];
		const settings = readRunSettings(panelReading({ [field]: value }));
		expect(lands(settings)).toBe(expected);
		expect(lands(DEFAULT_RUN_SETTINGS)).not.toBe(expected);
		for (const [other, { lands: landsOther }] of Object.entries(MAPPING)) {
			if (other !== field) expect(landsOther(settings)).toBe(landsOther(DEFAULT_RUN_SETTINGS));
		}
	});

	it('the panel names each setting in messages as it is labelled', () => {
		const labels = Object.fromEntries(
			(requestOptions.options as INodeProperties[]).map((option) => [
				option.name,
				option.displayName,
			]),
		);
		expect(readRunSettings(panelReading({})).names).toEqual({
			timeout: `Request Options > ${labels.timeoutSeconds}`,
			retryBudget: `Request Options > ${labels.maxRetryWaitSeconds}`,
			maxAttempts: `Request Options > ${labels.maxAttempts}`,
			maxRecords: `Request Options > ${labels.maxRecords}`,
			maxListBytes: `Request Options > ${labels.maxListMegabytes}`,
			sendLess: `lower Request Options > ${labels.concurrency}, or the batch size (Options > Batching) where there is one`,
		});
	});

	it("the panel's bounds are the code's: a value past a maximum counts as that maximum, one below a minimum fails the run", () => {
		const panel = requestOptions.options as INodeProperties[];
		const bounded = panel.filter((option) => option.typeOptions?.maxValue !== undefined);
		expect(bounded.map((option) => [option.name, option.typeOptions?.maxValue])).toEqual([
			['concurrency', 64],
			['maxAttempts', 20],
		]);
		for (const option of bounded) {
			const max = option.typeOptions?.maxValue as number;
			const { lands } = MAPPING[option.name];
			expect(lands(readRunSettings(panelReading({ [option.name]: max + 5 })))).toBe(
				lands(readRunSettings(panelReading({ [option.name]: max }))),
			);
		}
		for (const option of panel) {
			const min = option.typeOptions?.minValue as number;
			expect(() => readRunSettings(panelReading({ [option.name]: min }))).not.toThrow();
			expect(() =>
				readRunSettings(panelReading({ [option.name]: min - Math.max(min / 2, 0.6) })),
			).toThrow(/must be/);
		}
	});
});
