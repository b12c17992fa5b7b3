// @ts-check
'use strict';
/**
 * The node as an AI agent's tool, with no language model: example workflow 08 (MCP Server Trigger -> five
 * Commerce Messaging tools) is activated in a real n8n 2.40.7, and a real MCP client from the official SDK (the
 * copy inside that n8n, required by absolute path, so nothing is installed for it) connects to the trigger's
 * production URL, lists the tools and calls each one, as an agent would. The emulator says what each call did.
 * Errors must reach the client as tool errors with the service's message, and nothing the client receives may hold
 * the password, the plugin API key or a token.
 */
const path = require('node:path');

const p = require('../../tools/provision');
const { activateWorkflow } = require('./lib/activation');
const { selectedVersions } = require('./lib/versions');

const { n8n } = p;
const MAJOR = 2;
const WORKFLOW_ID = 'cmDemoWorkflow08';

/** The five tools and the arguments each one asks the model for (names, JSON types), as workflow 08 defines them. */
const EXPECTED_TOOLS = {
  find_contacts: { limit: 'number' },
  push_abandoned_cart: { cart_id: 'string', currency: 'string', customer_phone: 'string', total: 'number' },
  send_whatsapp_message: { message: 'string', phone: 'string' },
  send_whatsapp_template: { customer_name: 'string', order_id: 'string', phone: 'string', template_id: 'number' },
  start_automation: { automation_id: 'number', payload: 'json' },
};

/** @param {string} sub a file of the SDK's CommonJS build, e.g. "client/index.js" @param {string} runtimeDir */
function sdk(runtimeDir, sub) {
  return require(path.join(runtimeDir, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'cjs', sub));
}

(selectedVersions().includes(MAJOR) ? describe : describe.skip)(
  `n8n ${n8n.VERSIONS[MAJOR]}: an MCP client lists and calls the Commerce Messaging tools of example workflow 08`,
  () => {
    /** @type {Awaited<ReturnType<typeof p.startDemoSandbox>>} */
    let sandbox;
    /** @type {import('../../tools/n8n').N8nHome | undefined} */
    let home;
    /** @type {import('../../tools/n8n').Editor | undefined} */
    let editor;
    /** @type {any} the SDK's Client */
    let client;
    /** Everything the client received (tool list and every call's result), to search for secrets. */
    /** @type {unknown[]} */
    const received = [];
    /** @type {string} */
    let mcpUrl;
    let demoUserId = 0;
    const t0 = Date.now();

    beforeAll(async () => {
      const tarball = process.env.CM_E2E_TARBALL;
      if (!tarball) throw new Error('CM_E2E_TARBALL is not set: run with -c test/e2e/jest.config.js');
      sandbox = await p.startDemoSandbox({ port: 0 });
      demoUserId = /** @type {{ id: number }} */ (sandbox.state.userByName(p.DEMO_USER.username)).id;
      const provisioned = await p.provisionN8n({ major: MAJOR, tarball, sandboxUrl: sandbox.url });
      home = provisioned.home;
      const wf = provisioned.workflows.find((w) => w.id === WORKFLOW_ID);
      if (!wf?.mcpPath) throw new Error(`workflow ${WORKFLOW_ID} with an MCP Server Trigger not found in workflows/`);
      await activateWorkflow(home, WORKFLOW_ID);
      editor = await n8n.startEditor(home, {});
      mcpUrl = `${editor.url}/mcp/${wf.mcpPath}`;
      const { Client } = sdk(home.runtime.dir, 'client/index.js');
      const { StreamableHTTPClientTransport } = sdk(home.runtime.dir, 'client/streamableHttp.js');
      await n8n.waitForProductionUrl(mcpUrl, { methods: n8n.MCP_TRIGGER_METHODS });
      client = new Client({ name: 'cm-e2e-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
      process.stderr.write(`[mcp] n8n up, workflow 08 active, MCP client connected to ${mcpUrl} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    }, 600_000);

    afterAll(async () => {
      await client?.close().catch(() => undefined);
      await editor?.stop();
      await sandbox?.close();
      if (home) n8n.removeHome(home);
      process.stderr.write(`[mcp] mcp.test.js took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    });

    /**
     * Calls a tool as an agent would; returns the text the client got and whether it is a tool error.
     * @param {string} name @param {Record<string, unknown>} args
     */
    async function call(name, args) {
      const started = Date.now();
      const result = await client.callTool({ name, arguments: args });
      received.push(result);
      const text = (result.content ?? []).map((/** @type {{ text?: string }} */ c) => c.text ?? '').join('\n');
      process.stderr.write(`[mcp] ${name} ${result.isError ? 'tool error' : 'ok'} in ${Date.now() - started} ms: ${text.slice(0, 160)}\n`);
      return { isError: result.isError === true, text };
    }

    /** @param {string} text */
    const parsed = (text) => JSON.parse(text);

    it('lists the five tools, each with its description for a model and the arguments it asks for', async () => {
      const { tools } = await client.listTools();
      received.push(tools);
      expect(tools.map((/** @type {{ name: string }} */ t) => t.name).sort()).toEqual(Object.keys(EXPECTED_TOOLS));
      for (const tool of tools) {
        const expected = /** @type {Record<string, string>} */ (EXPECTED_TOOLS[/** @type {keyof typeof EXPECTED_TOOLS} */ (tool.name)]);
        // The description written in the workflow for a model, not n8n's automatic "<action> in Commerce Messaging".
        expect(tool.description.length).toBeGreaterThan(80);
        expect(tool.description).not.toMatch(/ in Commerce Messaging$/);
        const schema = tool.inputSchema;
        expect(schema.type).toBe('object');
        expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(expected).sort());
        expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(expected).sort());
        for (const [arg, type] of Object.entries(expected)) {
          const prop = schema.properties[arg];
          // Each argument carries the description from its $fromAI() call.
          expect(typeof prop.description).toBe('string');
          expect(prop.description.length).toBeGreaterThan(10);
          // A $fromAI() of type json reaches the client as any JSON value (n8n checks it is a non-empty object or array).
          if (type === 'json') expect(prop).toEqual({ description: expect.any(String) });
          else expect(prop.type).toBe(type);
        }
      }
      const byName = Object.fromEntries(tools.map((/** @type {{ name: string }} */ t) => [t.name, t]));
      expect(byName.send_whatsapp_template.description).toMatch(/APPROVED/);
      expect(byName.send_whatsapp_template.description).toMatch(/two placeholders/);
      // The template's mapped variables (Variables: {{1}}, {{2}}) are filled by the model, one argument each.
      expect(byName.send_whatsapp_template.inputSchema.properties.customer_name.description).toMatch(/first name/i);
      expect(byName.send_whatsapp_template.inputSchema.properties.order_id.description).toMatch(/order ID/);
      expect(byName.push_abandoned_cart.description).toMatch(/only once/);
      expect(byName.send_whatsapp_message.inputSchema.properties.phone.description).toMatch(/E\.164/);
      process.stderr.write(
        `[mcp] tools: ${tools.map((/** @type {any} */ t) => `${t.name}(${Object.keys(t.inputSchema.properties).join(', ')})`).join('; ')}\n`,
      );
    });

    it('an SSE client (the older MCP transport) on the same URL sees the same five tools', async () => {
      if (!home) throw new Error('no n8n home');
      const { Client } = sdk(home.runtime.dir, 'client/index.js');
      const { SSEClientTransport } = sdk(home.runtime.dir, 'client/sse.js');
      const sseClient = new Client({ name: 'cm-e2e-sse', version: '1.0.0' });
      await sseClient.connect(new SSEClientTransport(new URL(mcpUrl)));
      try {
        const { tools } = await sseClient.listTools();
        received.push(tools);
        expect(tools.map((/** @type {{ name: string }} */ t) => t.name).sort()).toEqual(Object.keys(EXPECTED_TOOLS));
      } finally {
        await sseClient.close();
      }
    });

    it('send_whatsapp_message queues one WhatsApp message at the service and answers with its id', async () => {
      const { isError, text } = await call('send_whatsapp_message', { phone: '+33610000003', message: 'Hi Chloe, your parcel left our warehouse today.' });
      expect(isError).toBe(false);
      const sent = sandbox.state.messages.filter((/** @type {any} */ m) => m.type === 'whatsapp');
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ phone: '+33610000003', message: 'Hi Chloe, your parcel left our warehouse today.', userId: demoUserId });
      expect(parsed(text)).toEqual([{ message_id: sent[0].message_id, phone: '+33610000003', status: 'queued' }]);
    });

    it('send_whatsapp_template sends the APPROVED template with the mapped variables filled from the model\'s arguments', async () => {
      const since = sandbox.state.requests.length;
      const { isError, text } = await call('send_whatsapp_template', { template_id: 1, phone: '+33610000005', customer_name: 'Emma', order_id: 'ORD-1005' });
      expect(isError).toBe(false);
      const sent = sandbox.state.messages.filter((/** @type {any} */ m) => m.type === 'template');
      // customer_name fills {{1}} (body:1), order_id {{2}} (body:2): the body's values in order, nothing else.
      expect(sent.map((/** @type {any} */ m) => ({ template: m.template_name, phone: m.phone, variables: m.variables, header: m.header_variables, buttons: m.button_variables, userId: m.userId }))).toEqual([
        { template: 'order_confirmation', phone: '+33610000005', variables: ['Emma', 'ORD-1005'], header: null, buttons: null, userId: demoUserId },
      ]);
      expect(parsed(text)).toEqual([{ message_id: sent[0].message_id, template_id: 1, phone: '+33610000005', status: 'queued' }]);
      // The node read the template (to check the values against its placeholders), then sent once.
      const calls = sandbox.state.requests.slice(since).filter((/** @type {any} */ r) => r.path.startsWith('/api/v2/whatsapp/templates/'));
      expect(calls.map((/** @type {any} */ r) => [r.method, r.path, r.status])).toEqual([
        ['GET', '/api/v2/whatsapp/templates/1', 200],
        ['POST', '/api/v2/whatsapp/templates/1/send', 201],
      ]);
    });

    it('a template not APPROVED (the DRAFT welcome_offer, two placeholders as well) reaches the client as a tool error with the service message, and nothing is sent', async () => {
      const before = sandbox.state.messages.length;
      const { isError, text } = await call('send_whatsapp_template', { template_id: 2, phone: '+33610000005', customer_name: 'Emma', order_id: 'ORD-1005' });
      expect(isError).toBe(true);
      expect(text).toContain('TEMPLATE_NOT_APPROVED');
      expect(text).toContain('Template "welcome_offer" cannot be sent: its state is DRAFT');
      expect(sandbox.state.messages.length).toBe(before);
      // The server is still there: the next call works.
      expect((await client.listTools()).tools).toHaveLength(5);
    });

    it('a template whose placeholders the two values do not fit (cart_reminder has one) is a tool error naming them, before any send', async () => {
      const since = sandbox.state.requests.length;
      const { isError, text } = await call('send_whatsapp_template', { template_id: 3, phone: '+33610000005', customer_name: 'Emma', order_id: 'ORD-1005' });
      expect(isError).toBe(true);
      expect(text).toContain('cart_reminder');
      expect(text).toMatch(/\{\{2\}\}/);
      expect(sandbox.state.requests.slice(since).filter((/** @type {any} */ r) => r.method === 'POST' && r.path.endsWith('/send'))).toEqual([]);
    });

    it('a phone that is not E.164 is a tool error naming the problem, before any call to the service', async () => {
      const since = sandbox.state.requests.length;
      const { isError, text } = await call('send_whatsapp_message', { phone: '0610000003', message: 'Hello' });
      expect(isError).toBe(true);
      expect(text).toMatch(/E\.164/);
      expect(sandbox.state.requests.slice(since).filter((/** @type {any} */ r) => r.path === '/api/whatsapp/')).toEqual([]);
    });

    it('push_abandoned_cart records the cart once: the same cart and total again is answered "skipped"', async () => {
      const args = { cart_id: 'CART-MCP-0001', total: 89.8, currency: 'EUR', customer_phone: '+33610000003' };
      const first = await call('push_abandoned_cart', args);
      expect(first.isError).toBe(false);
      expect(parsed(first.text)).toEqual([expect.objectContaining({ cart_id: 'CART-MCP-0001', total: 89.8 })]);
      const again = await call('push_abandoned_cart', args);
      expect(again.isError).toBe(false);
      expect(parsed(again.text)).toEqual([expect.objectContaining({ skipped: true })]);
      const events = sandbox.state.cartEvents.filter((/** @type {any} */ e) => e.body.cart_id === 'CART-MCP-0001');
      expect(events).toHaveLength(1);
      expect(events[0].body).toMatchObject({ cart_id: 'CART-MCP-0001', total: 89.8, currency: 'EUR', customer: { phone: '+33610000003' } });
    });

    it('find_contacts answers the first contacts, each only with id, names, phone and email', async () => {
      const { isError, text } = await call('find_contacts', { limit: 5 });
      expect(isError).toBe(false);
      const contacts = parsed(text);
      const mine = sandbox.state.contactsOf(demoUserId).slice(0, 5);
      expect(contacts).toEqual(
        mine.map((/** @type {any} */ c) => ({ id: c.id, firstname: c.firstname, lastname: c.lastname, phone: c.phone, email: c.email })),
      );
      expect(contacts.every((/** @type {object} */ c) => !('created_at' in c))).toBe(true);
      process.stderr.write(`[mcp] find_contacts: ${text.length} characters for 5 contacts\n`);
    });

    it('start_automation starts one instance of the automation with the payload the model gave', async () => {
      const payload = { cart_id: 'CART-MCP-0001', phone: '+33610000003' };
      const { isError, text } = await call('start_automation', { automation_id: 2, payload });
      expect(isError).toBe(false);
      const instances = sandbox.state.automationInstances;
      expect(instances).toHaveLength(1);
      expect(instances[0]).toMatchObject({ automation_id: 2, status: 'started', payload, userId: demoUserId });
      expect(parsed(text)).toEqual([{ instance_id: instances[0].instance_id, automation_id: 2, status: 'started', payload }]);
    });

    it('an unknown automation is a tool error with the service message', async () => {
      const { isError, text } = await call('start_automation', { automation_id: 999, payload: { a: 1 } });
      expect(isError).toBe(true);
      expect(text).toContain('Automation 999 not found');
      expect(sandbox.state.automationInstances).toHaveLength(1);
    });

    it('nothing the client received holds the password, the plugin API key or a token', () => {
      const all = JSON.stringify(received);
      expect(received.length).toBeGreaterThanOrEqual(10);
      expect(sandbox.loginCount()).toBeGreaterThan(0); // the tools logged in and sent a token: there is something to leak
      for (const secret of [p.DEMO_USER.password, p.DEMO_PLUGIN.pluginApiKey]) expect(all).not.toContain(secret);
      // Every token the emulator issues is a JWT ("eyJ..."), the only kind the service knows.
      expect(all).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/); // no JWT of any kind
      expect(all).not.toMatch(/Bearer\s/i);
    });
  },
);
