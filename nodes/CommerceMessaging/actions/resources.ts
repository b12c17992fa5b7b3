import * as automation from './automation/Automation.resource';
import * as cart from './cart/Cart.resource';
import * as contact from './contact/Contact.resource';
import * as customApiCall from './customApiCall/CustomApiCall.resource';
import * as media from './media/Media.resource';
import * as message from './message/Message.resource';
import type { Resource, ResourceOperations } from './node.type';
import * as order from './order/Order.resource';
import * as product from './product/Product.resource';
import * as template from './template/Template.resource';

/** Resource -> operation -> implementation, complete by type (node.type.ts). */
export const operations: { [R in Resource]: ResourceOperations<R> } = {
	automation: automation.operations,
	cart: cart.operations,
	contact: contact.operations,
	customApiCall: customApiCall.operations,
	media: media.operations,
	message: message.operations,
	order: order.operations,
	product: product.operations,
	template: template.operations,
};

/** The resources' parameter descriptions, in the order the node shows them. */
export const resourceDescriptions = [
	...contact.description,
	...message.description,
	...template.description,
	...media.description,
	...order.description,
	...cart.description,
	...product.description,
	...automation.description,
	...customApiCall.description,
];
