import { type INodeType, type INodeTypeDescription, NodeConnectionTypes } from 'n8n-workflow';

import { eventOptions, eventProperties, pollEvents } from './trigger';

const EVENT_LABELS = Object.fromEntries(eventOptions.map((option) => [option.value, option.name]));

export class CommerceMessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Commerce Messaging Trigger',
		name: 'commerceMessagingTrigger',
		icon: { light: 'file:commerceMessaging.svg', dark: 'file:commerceMessaging.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The event's name as the panel shows it ("New Order"), not its value.
		subtitle: `={{ (${JSON.stringify(EVENT_LABELS)}[$parameter["event"]] || $parameter["event"]) }}`,
		// n8n's node search shows ONE entry for a node and its trigger, with the trigger's description: so this one
		// says what the whole integration does, actions first, then what starts a workflow.
		description:
			'WhatsApp messages and templates, contacts, orders, carts and products of a conversational-marketing service for shops. Starts a workflow when contacts, orders or products are new or a template review ends.',
		defaults: { name: 'Commerce Messaging Trigger' },
		// n8n adds the Poll Times parameter (the schedule) to polling nodes.
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'commerceMessagingApi', required: true }],
		// A copy: n8n's loader adds its polling parameters to this array.
		properties: [...eventProperties],
	};

	poll = pollEvents;
}
