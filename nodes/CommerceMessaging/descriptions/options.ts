import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_WINDOW_HOURS } from '../helpers/deduplication';

/**
 * Rule L2: the Batching option of a bulk send, read by helpers/batching.ts. Put it inside the operation's `options`
 * collection (the parameter must be named `options`), open a BatchPacer in `prepare` and wait for its turn in `beforeItem`.
 * Its defaults are helpers/batching.ts DEFAULT_BATCHING, written as literals (n8n's lint wants literals here).
 */
export const batchingOption: INodeProperties = {
	displayName: 'Batching',
	name: 'batching',
	placeholder: 'Add Batching',
	type: 'fixedCollection',
	typeOptions: { multipleValues: false },
	default: { batch: {} },
	description:
		'Send the items in batches with a pause between batches, so a bulk send never hits the service all at once. On by default: 50 items per second.',
	options: [
		{
			displayName: 'Batching',
			name: 'batch',
			values: [
				{
					displayName: 'Items per Batch',
					name: 'batchSize',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 50,
					description: 'How many items to send before pausing',
				},
				{
					displayName: 'Batch Interval (Ms)',
					name: 'batchInterval',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 1000,
					description: 'Pause between two batches, in milliseconds (1000 = one second)',
				},
			],
		},
	],
};

/** The "Deduplicate" options of a push operation; `keyDescription` says what makes two events the same. */
export function deduplicationOptions(keyDescription: string): INodeProperties[] {
	return [
		{
			displayName: 'Deduplicate',
			name: 'deduplicate',
			type: 'boolean',
			default: true,
			description: `Whether to skip an event the service already accepted through this credential's account with ${keyDescription} within the deduplication window, so retries and re-runs do not send it twice. A skipped item is still output, with skipped: true. It holds across executions running in the same n8n process, and across restarts for active workflows (n8n saves node state only for them); across queue-mode workers only with Deduplicate Across Workers.`,
		},
		{
			displayName: 'Deduplication Window (Hours)',
			name: 'deduplicationWindowHours',
			type: 'number',
			typeOptions: { minValue: 0.01 },
			default: DEFAULT_WINDOW_HOURS,
			placeholder: '24',
			description: 'How long an accepted event blocks the same event. Used only when Deduplicate is on.',
		},
		{
			displayName: 'Deduplicate Across Workers',
			name: 'deduplicateAcrossWorkers',
			type: 'boolean',
			default: false,
			description:
				"Whether to also claim each event in n8n's database, which all n8n processes share, before sending it. Turn it on when n8n runs in queue mode (workers) or with several main instances: without it, an event delivered twice at the same moment to two workers, or again after another worker sent it, can go out twice. It costs each execution that sends events about half a second to a second (not per event) and three writes of a row of at most 100 KB in n8n's database. Not needed in a single n8n process. Used only when Deduplicate is on.",
		},
	];
}
