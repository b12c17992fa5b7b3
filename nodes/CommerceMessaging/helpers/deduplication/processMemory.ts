import { randomBytes } from 'crypto';

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
 * Bounded: at most MAX_SENT_KEYS events per node (sentEventLog.ts) and MAX_PROCESS_KEYS over all nodes; beyond
 * that the memories least recently used are dropped whole (never one with a send in flight) and read again from
 * static data when their node next runs.
 */

/** Tells this process's saved copies from another's (a queue-mode worker, or this n8n before a restart). */
export const PROCESS_ID = randomBytes(6).toString('base64url');
export const PROCESS_STARTED_AT = Math.floor(Date.now() / 1000);

/** Events kept over all nodes, about 100 bytes each. */
export const MAX_PROCESS_KEYS = 100_000;

export class NodeMemory {
	readonly log = new SentEventLog();

	/** Sends in flight, by event hash: resolves to whether the service accepted the event. */
	readonly inFlight = new Map<string, Promise<boolean>>();

	/** Tells the copies this memory saved from those saved by another memory (another process, or one dropped). */
	readonly copyId = randomBytes(6).toString('base64url');

	/** Whether n8n's log already says that another process runs this node (said once per memory). */
	toldOfOtherProcess = false;
}

/** By node (workflow id + node id), least recently used first. */
const memories = new Map<string, NodeMemory>();

export function nodeMemory(nodeKey: string): NodeMemory {
	let memory = memories.get(nodeKey);
	if (memory) memories.delete(nodeKey);
	else memory = new NodeMemory();
	memories.set(nodeKey, memory);
	let total = 0;
	for (const { log } of memories.values()) total += log.size;
	for (const [key, old] of memories) {
		if (total <= MAX_PROCESS_KEYS || old === memory) break;
		if (old.inFlight.size > 0) continue;
		memories.delete(key);
		total -= old.log.size;
	}
	return memory;
}

/** Forgets everything: a restarted process, for tests. */
export function forgetProcessMemory(): void {
	memories.clear();
}
