import { randomBytes } from 'crypto';

import { deduplicationMemories, MAX_DEDUPLICATION_EVENTS } from '../../../../transport';
import { SentEventLog } from './sentEventLog';

/**
 * What this n8n process knows of each deduplicating node's events, shared by all its executions.
 *
 * Why per process: n8n gives every execution its own copy of the workflow's static data, loaded when it starts
 * and saved when it ends (the last one saved wins), so executions running at the same time cannot see each
 * other's sends there. Here they can: a send in flight is claimed before it starts, and an accepted event stays
 * known for the life of the process. Static data is this memory's copy on disk (processStore.ts), read back after
 * a restart.
 *
 * Bounded: at most MAX_SENT_KEYS events per node (sentEventLog.ts); over all nodes, as transport/processState.ts
 * (where every process-wide entry of the package is) says of `deduplicationMemories`.
 */

/** Tells this process's saved copies from another's (a queue-mode worker, or this n8n before a restart). */
export const PROCESS_ID = randomBytes(6).toString('base64url');
export const PROCESS_STARTED_AT = Math.floor(Date.now() / 1000);

export class NodeMemory {
	readonly log = new SentEventLog();

	/** Sends in flight, by event hash: resolves to whether the service accepted the event. */
	readonly inFlight = new Map<string, Promise<boolean>>();

	/** Tells the copies this memory saved from those saved by another memory (another process, or one dropped). */
	readonly copyId = randomBytes(6).toString('base64url');

	/** Whether n8n's log already says that another process runs this node (said once per memory). */
	toldOfOtherProcess = false;
}

export function nodeMemory(nodeKey: string): NodeMemory {
	// Only NodeMemory objects are put in the map (below); the process state knows them by their sizes alone.
	const memory = (deduplicationMemories.get(nodeKey) as NodeMemory | undefined) ?? new NodeMemory();
	deduplicationMemories.set(nodeKey, memory);
	let total = 0;
	for (const [, { log }] of deduplicationMemories) total += log.size;
	deduplicationMemories.dropOldest((_key, old) => {
		if (total <= MAX_DEDUPLICATION_EVENTS || old === memory) return false;
		if (old.inFlight.size === 0) total -= old.log.size;
		return true;
	});
	return memory;
}

/** Forgets everything: a restarted process, for tests. */
export function forgetProcessMemory(): void {
	deduplicationMemories.clear();
}
