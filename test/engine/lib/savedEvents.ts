import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import {
	accountWithoutPasswordKey,
	decodeEvents,
	eventKey,
	SAVED_PROPERTY,
	type EventIdentity,
} from '../../../nodes/CommerceMessaging/helpers/deduplication';

/** The node's static data key in the engine harness (its node is named "Commerce Messaging"). */
export const NODE_STATE = 'node:Commerce Messaging';

/** The event hashes of the node's saved copy in a workflow's static data (empty when none was saved). */
export function savedHashes(staticData: IDataObject): string[] {
	const saved = (staticData[NODE_STATE] as IDataObject | undefined)?.[SAVED_PROPERTY] as
		| IDataObject
		| undefined;
	return (decodeEvents(saved?.events) ?? []).map(([hash]) => hash);
}

/** The stored hash of an event sent through a credential. */
export function hashOf(credentials: ICredentialDataDecryptedObject, event: EventIdentity): string {
	return eventKey(accountWithoutPasswordKey(credentials), event).hash;
}
