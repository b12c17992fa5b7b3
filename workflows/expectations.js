// @ts-check
'use strict';
/**
 * What each example workflow (the *.json files beside this one) should leave in the emulator after its first run on
 * a fresh emulator, keyed by the workflow's file name and reading its nodes by their names: `npm run demo`
 * (scripts/demo.js) prints the notes and fails on the problems. Change it with the workflow it checks.
 */
const { DEMO_USER } = require('../tools/provision');

/**
 * What the emulator recorded for one run of an example workflow, as short sentences for the demo's summary, and
 * the problems found when that does not match what the workflow should have done (the demo counts them as a
 * failure). Checks are for a first run on a fresh emulator.
 * @param {string} key workflow key (see loadWorkflows in tools/provision.js)
 * @param {Awaited<ReturnType<typeof import('../sandbox').startSandbox>>} sandbox
 * @param {Awaited<ReturnType<typeof import('../tools/n8n').executeWorkflow>>} result
 * @param {number} sinceRequest index in the emulator's request log where this run started
 * @returns {{ notes: string[], problems: string[] }}
 */
function checkEffects(key, sandbox, result, sinceRequest) {
  const st = sandbox.state;
  const demo = st.userByName(DEMO_USER.username);
  const requests = st.requests.slice(sinceRequest);
  /** @type {string[]} */ const notes = [];
  /** @type {string[]} */ const problems = [];
  /** @param {boolean} ok @param {string} problem */
  const expect = (ok, problem) => {
    if (!ok) problems.push(problem);
  };
  switch (key) {
    case 'abandoned-cart-recovery': {
      notes.push(
        `emulator: ${st.cartEvents.length} cart event(s) (${st.cartEvents.map((e) => `${e.body.cart_id} ${e.body.total} ${e.body.currency ?? ''}`.trim()).join(', ')}), ` +
          `${st.automationInstances.length} instance(s) of automation ${[...new Set(st.automationInstances.map((i) => i.automation_id))].join(', ')}`,
      );
      expect(st.cartEvents.length === 2 && st.cartEvents.every((e) => e.body.customer?.phone), 'expected 2 cart events with contact references');
      expect(st.automationInstances.length === 2, 'expected 2 automation instances');
      break;
    }
    case 'order-paid-confirmation': {
      const sends = st.messages.filter((m) => m.type === 'template' && m.template_name === 'order_confirmation');
      const ids = st.orderEvents.map((e) => e.body.order_id);
      // Template > Send uploads each order's header file itself (Header Media: From Binary Field), once per distinct file.
      const uploads = requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/whatsapp/media');
      const media = [...st.media.values()];
      notes.push(`emulator: order events ${ids.join(', ')}; the repeated ORD-2001 was not sent again`);
      notes.push(`emulator: Send order confirmation uploaded ${uploads.length} header image(s), one per distinct file (${media.map((m) => m.filename).join(', ')})`);
      notes.push(
        `emulator: ${sends.length} order_confirmation message(s): ` +
          sends.map((m) => `${m.phone} with ${placeholderValues(m.variables)} and header ${m.header_media_id}`).join('; '),
      );
      expect(ids.length === 2 && new Set(ids).size === 2, `expected ORD-2001 and ORD-2002 once each, got ${ids.join(', ') || 'none'}`);
      expect(uploads.length === 2 && media.length === 2, `expected 2 uploads (one per distinct header image), got ${uploads.length}`);
      expect(sends.length === 2 && new Set(sends.map((m) => m.header_media_id)).size === 2, 'expected 2 template messages with distinct header media');
      expect(
        sends.every((m) => st.media.get(String(m.header_media_id))?.userId === demo?.id),
        'a header media is not owned by the sending user',
      );
      const variables = sends.map((m) => JSON.stringify(m.variables)).sort();
      expect(
        JSON.stringify(variables) === JSON.stringify(['["Alice","ORD-2001"]', '["Bruno","ORD-2002"]']),
        `expected the variables ["Alice","ORD-2001"] and ["Bruno","ORD-2002"], got ${variables.join(', ') || 'none'}`,
      );
      break;
    }
    case 'template-lifecycle': {
      const created = [...st.templates.values()].filter((t) => String(t.name).startsWith('shipping_update_'));
      for (const t of created) {
        const polls = requests.filter((r) => r.method === 'GET' && r.path === `/api/v2/whatsapp/templates/${t.id}`).length;
        const sent = st.messages.filter((m) => m.template_id === t.id);
        notes.push(`emulator: template ${t.name} went DRAFT -> PENDING -> ${t.state} (checked ${polls} times); sent ${sent.length} time(s)${sent.length ? ` with ${placeholderValues(sent[0].variables)}` : ''}`);
      }
      expect(created.length === 1 && created[0].state === 'APPROVED', 'expected one new APPROVED template');
      const sent = created.length === 1 ? st.messages.filter((m) => m.template_id === created[0].id) : [];
      expect(sent.length === 1, 'expected the new template to be sent once');
      expect(
        JSON.stringify(sent[0]?.variables) === JSON.stringify(['David', 'ORD-1002', 'https://shop.example.com/track/ORD-1002']),
        `expected the mapped variables {{1}}, {{2}}, {{3}} in order, got ${JSON.stringify(sent[0]?.variables)}`,
      );
      break;
    }
    case 'catalogue-sync': {
      const all = demo ? st.productsOf(demo.id).size : 0;
      const read = result.nodeOutput('Get all products')?.length ?? 0;
      const calls = requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/products/');
      notes.push(`emulator: ${read} of ${all} products read in ${calls.length} page request(s) with the plugin headers (x-api-key, x-platform-type woocommerce, x-base-uri)`);
      expect(read === all, `Return All read ${read} of the ${all} products`);
      break;
    }
    case 'contacts-export': {
      const all = demo ? st.contactsOf(demo.id).length : 0;
      const read = result.nodeOutput('Get all contacts')?.length ?? 0;
      const pages = requests.filter((r) => r.method === 'GET' && r.path === '/api/contacts/' && !/[?&]limit=1(&|$)/.test(r.url));
      notes.push(`emulator: pages hold at most ${sandbox.config.maxPageSize} records, so the ${read} contacts came in ${pages.length} page requests (currentPage ${pages.map((r) => new URL(r.url, 'http://x').searchParams.get('currentPage')).join(', ')})`);
      expect(read === all, `Return All read ${read} of the ${all} contacts`);
      break;
    }
    case 'custom-api-call': {
      const viaNode = result.nodeOutput('Read profile (Custom API Call)')?.[0];
      const viaHttp = result.nodeOutput('Read profile (HTTP Request node)')?.[0];
      notes.push(`emulator: PUT and GET /api/user/profile/ (a path the API document does not show; the emulator's example) -> language ${viaNode?.language}`);
      notes.push(`HTTP Request node with the Commerce Messaging credential got the same profile: ${JSON.stringify(viaHttp?.data) === JSON.stringify(viaNode) ? 'yes' : 'NO'}`);
      expect(viaNode?.language === 'fr', 'the profile language was not updated');
      expect(JSON.stringify(viaHttp?.data) === JSON.stringify(viaNode), 'the HTTP Request node did not get the same profile');
      break;
    }
    // Not executed by the demo, so nothing to check here: 07 (polling trigger) runs in test/e2e/trigger.test.js,
    // 08 (MCP Server Trigger) is called tool by tool in test/e2e/mcp.test.js, each checked against the emulator there.
    default:
      break;
  }
  return { notes, problems };
}

/**
 * A send's body values as the template reads them: `{{1}} Alice, {{2}} ORD-2001`.
 * @param {unknown} variables the `variables` the emulator recorded (a list for positional placeholders)
 */
function placeholderValues(variables) {
  return Array.isArray(variables) ? variables.map((value, i) => `{{${i + 1}}} ${value}`).join(', ') : JSON.stringify(variables);
}

module.exports = { checkEffects };
