// @ts-check
'use strict';
/**
 * Workflows used only by the end-to-end tests (the examples users see are in workflows/). Same credential
 * reference as the examples.
 */
const { DEMO_CREDENTIAL_ID, DEMO_CREDENTIAL_NAME, NODE_TYPE } = require('../../../tools/provision');

const CREDENTIALS = { commerceMessagingApi: { id: DEMO_CREDENTIAL_ID, name: DEMO_CREDENTIAL_NAME } };

/**
 * Manual Trigger -> Code (n recipients) -> Message > Send WhatsApp (default batching): a bulk send, used with the
 * emulator's rate limit on.
 * @param {number} count
 */
function bulkWhatsappWorkflow(count) {
  return {
    id: 'cmE2eBulkWhatsAp',
    name: 'e2e: bulk WhatsApp send',
    nodes: [
      { parameters: {}, id: 'e2e-bulk-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
      {
        parameters: {
          jsCode:
            `return Array.from({ length: ${count} }, (_, i) => ({ json: { ` +
            `phone: '+336100' + String(100 + i).padStart(5, '0'), text: 'Flash sale, -20% today only (#' + (i + 1) + ')' } }));`,
        },
        id: 'e2e-bulk-recipients',
        name: 'Recipients',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [220, 0],
      },
      {
        parameters: { resource: 'message', operation: 'send', phone: '={{ $json.phone }}', message: '={{ $json.text }}', options: {} },
        id: 'e2e-bulk-send',
        name: 'Send WhatsApp',
        type: NODE_TYPE,
        typeVersion: 1,
        position: [440, 0],
        credentials: CREDENTIALS,
      },
    ],
    connections: {
      Start: { main: [[{ node: 'Recipients', type: 'main', index: 0 }]] },
      Recipients: { main: [[{ node: 'Send WhatsApp', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
    pinData: {},
    active: false,
  };
}

/**
 * Manual Trigger -> Code (`orders` orders, each `paid` then `shipped`, as a shop's export lists them) -> Order >
 * Push Event with Request Options > Concurrency `concurrency`.
 * @param {number} orders @param {number} concurrency
 */
function orderEventsWorkflow(orders, concurrency) {
  return {
    id: 'cmE2eOrderLanes8',
    name: `e2e: push ${orders * 2} order events with Concurrency ${concurrency}`,
    nodes: [
      { parameters: {}, id: 'e2e-lanes-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
      {
        parameters: {
          jsCode:
            `return Array.from({ length: ${orders * 2} }, (_, i) => ({ json: { ` +
            `order_id: 'LANE-' + Math.floor(i / 2), status: i % 2 ? 'shipped' : 'paid' } }));`,
        },
        id: 'e2e-lanes-events',
        name: 'Order events',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [220, 0],
      },
      {
        parameters: {
          resource: 'order',
          operation: 'pushEvent',
          orderId: '={{ $json.order_id }}',
          status: '={{ $json.status }}',
          requestOptions: { concurrency },
        },
        id: 'e2e-lanes-push',
        name: 'Push order event',
        type: NODE_TYPE,
        typeVersion: 1,
        position: [440, 0],
        credentials: CREDENTIALS,
      },
    ],
    connections: {
      Start: { main: [[{ node: 'Order events', type: 'main', index: 0 }]] },
      'Order events': { main: [[{ node: 'Push order event', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
    pinData: {},
    active: false,
  };
}

/**
 * Manual Trigger -> Set (one order: customer, order ID, phone) -> Template > Send of the demo's order_confirmation
 * (ID 1, body "Hello {{1}}, your order {{2}} is confirmed. Thank you!") with its Variables mapped from the item, the
 * resourceMapper parameter stored the way the editor saves it. A Set node, not a Code node: the oldest supported
 * n8n's `n8n execute` does not finish a Code node (see n8n-oldest.test.js).
 * @param {{ customer: string, orderId: string, phone: string }} order
 */
function mappedTemplateSendWorkflow(order) {
  /** @param {string} id @param {string} displayName */
  const field = (id, displayName) => ({ id, displayName, required: true, defaultMatch: false, canBeUsedToMatch: false, display: true, type: 'string' });
  /** @param {string} id @param {string} name @param {string} value */
  const assignment = (id, name, value) => ({ id, name, value, type: 'string' });
  return {
    id: 'cmE2eMappedSend1',
    name: 'e2e: Template > Send with mapped variables',
    nodes: [
      { parameters: {}, id: 'e2e-mapped-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
      {
        parameters: {
          assignments: {
            assignments: [
              assignment('e2e-mapped-customer', 'customer_name', order.customer),
              assignment('e2e-mapped-order', 'order_id', order.orderId),
              assignment('e2e-mapped-phone', 'phone', order.phone),
            ],
          },
          options: {},
        },
        id: 'e2e-mapped-order',
        name: 'Order',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [220, 0],
      },
      {
        parameters: {
          resource: 'template',
          operation: 'send',
          templateId: { __rl: true, value: '1', mode: 'list', cachedResultName: 'order_confirmation (APPROVED, en)' },
          phone: '={{ $json.phone }}',
          variables: {
            mappingMode: 'defineBelow',
            value: { 'body:1': '={{ $json.customer_name }}', 'body:2': '={{ $json.order_id }}' },
            matchingColumns: [],
            schema: [
              field('body:1', 'Hello {{1}}, your'),
              field('body:2', 'your order {{2}} is'),
            ],
            attemptToConvertTypes: false,
            convertFieldsToString: false,
          },
          headerMedia: 'none',
          options: {},
        },
        id: 'e2e-mapped-send',
        name: 'Send order confirmation',
        type: NODE_TYPE,
        typeVersion: 1,
        position: [440, 0],
        credentials: CREDENTIALS,
      },
    ],
    connections: {
      Start: { main: [[{ node: 'Order', type: 'main', index: 0 }]] },
      Order: { main: [[{ node: 'Send order confirmation', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
    pinData: {},
    active: false,
  };
}

module.exports = { bulkWhatsappWorkflow, orderEventsWorkflow, mappedTemplateSendWorkflow };
