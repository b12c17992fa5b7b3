import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { DEFAULT_RUN_SETTINGS, MAX_CONCURRENCY, MAX_WAIT_MS, type RunSettings } from '../../../transport/settings';
import { readSettingNumber, settingError, type ParameterContext } from './parameters';

/**
 * The Request Options panel (descriptions/fields.ts) mapped onto the transport's settings, field by field: how the
 * panel labels each field, what it accepts, and the setting it becomes (milliseconds, bytes, counts). Read once per
 * run, from the first item, like Concurrency and Batching in n8n's own HTTP Request node. A value that cannot work
 * fails the run naming the field; fractional counts and times are rounded; times beyond what a timer allows are
 * capped at MAX_WAIT_MS, and Concurrency at MAX_CONCURRENCY.
 */

interface Field {
	/** The field's label in the panel. */
	label: string;
	/** Checks a value that is set and puts it into the settings. */
	apply(settings: RunSettings, value: number, fail: (rule: string) => Error): void;
}

const atLeastOne = (value: number, fail: (rule: string) => Error) => {
	const whole = Math.round(value);
	if (whole < 1) throw fail('1 or more');
	return whole;
};

const milliseconds = (seconds: number) => Math.min(MAX_WAIT_MS, Math.round(seconds * 1000));

/** Every field of the panel, by its parameter name: a field missing here is never read (the mapping test fails). */
export const REQUEST_OPTION_FIELDS: Record<string, Field> = {
	concurrency: {
		label: 'Concurrency',
		apply: (settings, value, fail) => (settings.concurrency = Math.min(MAX_CONCURRENCY, atLeastOne(value, fail))),
	},
	maxAttempts: {
		label: 'Max Attempts',
		apply: (settings, value, fail) => (settings.retry.maxAttempts = atLeastOne(value, fail)),
	},
	maxListMegabytes: {
		label: 'Max List Size (MB)',
		apply: (settings, value, fail) => {
			if (!(value > 0)) throw fail('above 0');
			settings.maxListBytes = Math.max(1, Math.round(value * 1024 * 1024));
		},
	},
	maxRecords: {
		label: 'Max Records',
		apply: (settings, value, fail) => (settings.maxRecords = atLeastOne(value, fail)),
	},
	maxRetryWaitSeconds: {
		label: 'Retry Budget (Seconds)',
		apply: (settings, value, fail) => {
			if (value < 0) throw fail('0 or more (0: no retries)');
			settings.retry.maxTotalWaitMs = milliseconds(value);
		},
	},
	timeoutSeconds: {
		label: 'Timeout (Seconds)',
		apply: (settings, value, fail) => {
			if (!(milliseconds(value) >= 1)) throw fail('above 0 (at least 0.001)');
			settings.retry.timeoutMs = milliseconds(value);
		},
	},
};

const PANEL = 'Request Options';
const named = (field: keyof typeof REQUEST_OPTION_FIELDS) => `${PANEL} > ${REQUEST_OPTION_FIELDS[field].label}`;

/** How the transport's messages name the settings: as the panel labels them. */
const NAMES: RunSettings['names'] = {
	timeout: named('timeoutSeconds'),
	retryBudget: named('maxRetryWaitSeconds'),
	maxAttempts: named('maxAttempts'),
	maxRecords: named('maxRecords'),
	maxListBytes: named('maxListMegabytes'),
};

function readSettings(ctx: ParameterContext, fields: string[]): RunSettings {
	const settings: RunSettings = { ...DEFAULT_RUN_SETTINGS, retry: { ...DEFAULT_RUN_SETTINGS.retry }, names: NAMES };
	for (const name of fields) {
		const field = REQUEST_OPTION_FIELDS[name];
		const label = named(name);
		// Each field on its own: an expression that fails in one never resets the others.
		const value = readSettingNumber(ctx, `requestOptions.${name}`, label);
		if (value !== undefined) field.apply(settings, value, (rule) => settingError(ctx, label, value, rule));
	}
	return settings;
}

/** The run's Request Options, as the plain settings the transport takes. */
export function readRunSettings(ctx: IExecuteFunctions): RunSettings {
	return readSettings(ctx, Object.keys(REQUEST_OPTION_FIELDS));
}

/** The trigger's Request Options: a poll reads one page at a time (it may stop early), so no Concurrency. */
export function readPollSettings(ctx: IPollFunctions): RunSettings {
	return { ...readSettings(ctx, Object.keys(REQUEST_OPTION_FIELDS).filter((name) => name !== 'concurrency')), concurrency: 1 };
}
