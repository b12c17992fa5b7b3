import type { IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { runSettings, type RunSettings } from '../../../transport';

/**
 * The run's Request Options, read once per run from the first item (like Concurrency and Batching in n8n's own
 * HTTP Request node), as the plain settings the transport takes.
 */
export function readRunSettings(ctx: IExecuteFunctions): RunSettings {
	return runSettings(readOptions(() => ctx.getNodeParameter('requestOptions', 0, {})));
}

/** The trigger's Request Options: a poll reads one page at a time (it may stop early), so no Concurrency. */
export function readPollSettings(ctx: IPollFunctions): RunSettings {
	return { ...runSettings(readOptions(() => ctx.getNodeParameter('requestOptions', {}))), concurrency: 1 };
}

function readOptions(read: () => unknown): IDataObject {
	try {
		const value = read();
		return value && typeof value === 'object' ? (value as IDataObject) : {};
	} catch {
		// A parameter this version does not know, or an expression that fails: the defaults.
		return {};
	}
}
