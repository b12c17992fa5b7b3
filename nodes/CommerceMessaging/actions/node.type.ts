/** The node's resources; each resource file lists its own operations. */
export type CommerceMessagingType = {
	resource:
		| 'automation'
		| 'cart'
		| 'contact'
		| 'customApiCall'
		| 'media'
		| 'message'
		| 'order'
		| 'product'
		| 'template';
};
