import * as contact from './contact/Contact.resource';
import type { CommerceMessagingType } from './node.type';
import type { Operation } from './operation';

/** Resource -> operation -> implementation. Adding an operation: its file, its resource file, node.type.ts. */
export const operations: Record<CommerceMessagingType['resource'], Record<string, Operation>> = {
	contact: contact.operations,
};
