import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_WINDOW_HOURS } from '../helpers/deduplication';

/**
 * Rule L2: the Batching option of a bulk send, read by helpers/batching.ts. Put it inside the operation's `options`
 * collection (the parameter must be named `options`) and export `pauseBetweenBatches` as its `beforeItem` hook.
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
			description: `Whether to skip an event the service already accepted with ${keyDescription} within the deduplication window, so retries and re-runs do not send it twice. A skipped item is still output, with skipped: true. Across executions this holds for active workflows (n8n keeps node state only for them), and for executions of the workflow running in the same n8n process.`,
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
	];
}
