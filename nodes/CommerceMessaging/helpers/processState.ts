import { CappedMap } from '../../../transport/processState';
import type { NodeMemory } from './deduplication/processStore';

/**
 * What the nodes keep beyond one run, in one place (the transport's own is transport/processState.ts). n8n runs
 * every execution of every workflow in one process (or in each queue-mode worker), so what lives here is shared by
 * all of them: each entry says why it has to, and what bounds it.
 *
 * Deduplication of pushed events (helpers/deduplication/) is why: n8n gives each execution its own copy of the
 * workflow's static data (the last one saved wins), so executions running at the same time can only see each
 * other's sends here.
 */

/** Events kept over all nodes' memories, about 100 bytes each. */
export const MAX_DEDUPLICATION_EVENTS = 100_000;

/**
 * Each deduplicating node's memory (by workflow id + node id): its accepted events and its sends in flight. Bound:
 * MAX_DEDUPLICATION_EVENTS events over all nodes and 1,024 nodes; the least recently used memories are dropped whole
 * (never one with a send in flight) and read again from static data when their node next runs.
 */
export const deduplicationMemories = new CappedMap<string, NodeMemory>(1_024, (memory) => memory.inFlight.size > 0);

/**
 * How long this process's last calls to n8n's shared deduplication store took (ms, newest last): the claim's pause
 * grows with the slowest. Bound: SHARED_STORE_CALLS_KEPT.
 */
export const sharedStoreCallTimes: number[] = [];
export const SHARED_STORE_CALLS_KEPT = 10;

/**
 * Per node: the records of events this process sent lately through the shared store, and until when to write them
 * back (a call made at the same time may have dropped them). Bound: 256 nodes; per node, deduplication/sharedStore.ts
 * keeps at most REPEAT_MAX_VALUES values for at most REPEAT_MS.
 */
export const sharedRecordsToRepeat = new CappedMap<string, Map<string, number>>(256);

/** Per node: values this process removed lately from the shared store, removed again with each of its removals. Bound: as above. */
export const sharedLeftoversToRepeat = new CappedMap<string, Map<string, number>>(256);
