import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { DEFAULT_RUN_SETTINGS, MAX_CONCURRENCY, MAX_WAIT_MS, type RunSettings } from '../../../transport/settings';
import { readSettingNumber, settingCount, settingError, type ParameterContext } from './parameters';

/**
 * The Request Options panel (descriptions/fields.ts) mapped onto the transport's settings field by field: its label,
 * and the setting it becomes (ms, bytes, counts). Read once per run from the first item, as n8n's HTTP Request node
 * does; a value that cannot work fails the run naming the field; fractions are rounded; maxima are capped.
 */

type Apply = (settings: RunSettings, value: number, fail: (rule: string) => Error) => void;

const milliseconds = (seconds: number) => Math.min(MAX_WAIT_MS, Math.round(seconds * 1000));

/** Every field of the panel, by its parameter name: a field missing here is never read (the mapping test fails). */
const REQUEST_OPTION_FIELDS: Record<string, { label: string; apply: Apply }> = {
	concurrency: { label: 'Concurrency', apply: (s, value, fail) => (s.concurrency = Math.min(MAX_CONCURRENCY, settingCount(value, fail))) },
	maxAttempts: { label: 'Max Attempts', apply: (s, value, fail) => (s.retry.maxAttempts = settingCount(value, fail)) },
	maxListMegabytes: {
		label: 'Max List Size (MB)',
		apply: (s, value, fail) => {
			if (!(value > 0)) throw fail('above 0');
			s.maxListBytes = Math.max(1, Math.round(value * 1024 * 1024));
		},
	},
	maxRecords: { label: 'Max Records', apply: (s, value, fail) => (s.maxRecords = settingCount(value, fail)) },
	maxRetryWaitSeconds: {
		label: 'Retry Budget (Seconds)',
		apply: (s, value, fail) => {
			if (value < 0) throw fail('0 or more (0: no retries)');
			s.retry.maxTotalWaitMs = milliseconds(value);
		},
	},
	timeoutSeconds: {
		label: 'Timeout (Seconds)',
		apply: (s, value, fail) => {
			if (!(milliseconds(value) >= 1)) throw fail('above 0 (at least 0.001)');
			s.retry.timeoutMs = milliseconds(value);
		},
	},
};

const named = (field: string) => `Request Options > ${REQUEST_OPTION_FIELDS[field].label}`;

/** How the transport's messages name the settings: as the panel labels them. */
const NAMES: RunSettings['names'] = {
	timeout: named('timeoutSeconds'),
	retryBudget: named('maxRetryWaitSeconds'),
	maxAttempts: named('maxAttempts'),
	maxRecords: named('maxRecords'),
	maxListBytes: named('maxListMegabytes'),
	sendLess: `lower ${named('concurrency')}, or the batch size (Options > Batching) where there is one`,
};

function readSettings(ctx: ParameterContext, fields: string[]): RunSettings {
	const settings: RunSettings = { ...DEFAULT_RUN_SETTINGS, retry: { ...DEFAULT_RUN_SETTINGS.retry }, names: NAMES };
	for (const name of fields) {
		// Each field on its own: an expression that fails in one never resets the others.
		const value = readSettingNumber(ctx, `requestOptions.${name}`, named(name));
		if (value !== undefined) REQUEST_OPTION_FIELDS[name].apply(settings, value, (rule) => settingError(ctx, named(name), value, rule));
	}
	return settings;
}

export const readRunSettings = (ctx: IExecuteFunctions) => readSettings(ctx, Object.keys(REQUEST_OPTION_FIELDS));

/** The trigger's Request Options: a poll reads one page at a time (it may stop early), so no Concurrency. */
export const readPollSettings = (ctx: IPollFunctions): RunSettings => {
	const settings = readSettings(ctx, Object.keys(REQUEST_OPTION_FIELDS).filter((name) => name !== 'concurrency'));
	return { ...settings, concurrency: 1, names: { ...settings.names, sendLess: undefined } };
};
