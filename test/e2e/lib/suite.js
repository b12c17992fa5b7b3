// @ts-check
'use strict';
/**
 * The end-to-end suite for one n8n major version: one emulator and one n8n home (package installed from the
 * tarball packed by globalSetup, demo credential and example workflows imported through tools/provision.js, the same
 * code `npm run demo` uses). Each example workflow is executed by the real n8n CLI, and the test checks what the
 * EMULATOR recorded, not only n8n's output. Then: token expiry between executions, rate limiting, and the
 * credential test of the editor's REST API.
 */
const p = require('../../../tools/provision');
const { bulkWhatsappWorkflow } = require('./testWorkflows');
const { selectedVersions } = require('./versions');

const { n8n } = p;

/**
 * @param {number} major 2 or 1
 */
function defineN8nSuite(major) {
  const enabled = selectedVersions().includes(major);
  (enabled ? describe : describe.skip)(`n8n ${n8n.VERSIONS[major]} (real process) runs the example workflows against the emulator`, () => {
    /** @type {Awaited<ReturnType<typeof p.startDemoSandbox>>} */
    let sandbox;
    /** @type {Awaited<ReturnType<typeof p.provisionN8n>>} */
    let provisioned;
    /** @type {import('../../../tools/n8n').N8nHome} */
    let home;
    let demoUserId = 0;
    const bulkJson = bulkWhatsappWorkflow(12);
    const bulk = { id: bulkJson.id, name: bulkJson.name, json: /** @type {Record<string, any>} */ (bulkJson) };
    // A copy of example 1 under its own id: n8n keeps the dedup keys per workflow (static data), and example 1
    // has already sent its carts by the time the retry test runs.
    const cartJson = {
      ...p.loadWorkflows().find((w) => w.key === 'abandoned-cart-recovery')?.json,
      id: 'cmE2eCartRetries',
      name: 'e2e: abandoned cart recovery under 429s',
    };
    const cartRetries = { id: cartJson.id, name: cartJson.name, json: cartJson };

    beforeAll(async () => {
      const tarball = process.env.CM_E2E_TARBALL;
      if (!tarball) throw new Error('CM_E2E_TARBALL is not set: run with -c test/e2e/jest.config.js (its globalSetup packs the package)');
      sandbox = await p.startDemoSandbox({ port: 0 });
      provisioned = await p.provisionN8n({ major, tarball, sandboxUrl: sandbox.url, extraWorkflows: [bulk, cartRetries].map((w) => p.withSandboxUrl(w.json, sandbox.url)) });
      home = provisioned.home;
      demoUserId = /** @type {any} */ (sandbox.state.userByName(p.DEMO_USER.username)).id;
    }, 600_000);

    afterAll(async () => {
      await sandbox?.close();
      if (home) n8n.removeHome(home);
    });

    beforeEach(() => {
      // Data back to the demo seed; the demo config (review 1.5 s, pages of 10) stays. n8n keeps its token.
      sandbox.reset();
      sandbox.setConfig({ rateLimit: null, tokenTtlSeconds: 3600, maxPageSize: p.DEMO_SANDBOX_OPTIONS.maxPageSize });
    });

    /** @param {string} key */
    const workflow = (key) => {
      const wf = provisioned.workflows.find((w) => w.key === key);
      if (!wf) throw new Error(`no example workflow ${key}`);
      return wf;
    };

    /**
     * Executes a workflow with `n8n execute`; fails the test with the run summary and n8n's output when it fails.
     * @param {{ id: string, name: string, json: Record<string, any>, file?: string }} wf
     */
    async function execute(wf) {
      const result = await n8n.executeWorkflow(home, wf.id, { timeoutMs: 150_000 });
      const { ok, exitAnomaly } = p.runSucceeded(result);
      if (exitAnomaly) {
        process.stderr.write(
          `[e2e] warning: n8n ${home.runtime.version} exited with code ${result.code}${result.signal ? ` (signal ${result.signal})` : ''} ` +
            `after a successful run of "${wf.name}"; stderr: ${result.stderr.trim().slice(-500) || '(empty)'}\n`,
        );
      }
      if (!ok) {
        const output = `${result.stdout}\n${result.stderr}`.trimEnd().split('\n').slice(-40).join('\n');
        throw new Error(`${p.formatRun(wf, result)}\n--- n8n output (tail) ---\n${output}`);
      }
      return result;
    }

    /** @param {string} method @param {string | RegExp} path */
    const requests = (method, path) =>
      sandbox.state.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));

    it('loads the package from its npm tarball: n8n logs "Loaded all credentials and nodes from n8n-nodes-commerce-messaging"', () => {
      expect(provisioned.loaded.line).toMatch(/Loaded all credentials and nodes from n8n-nodes-commerce-messaging \{"credentials":1,"nodes":\d+/);
      expect(provisioned.loaded.credentials).toBe(1);
      expect(provisioned.loaded.nodes).toBeGreaterThanOrEqual(1);
      expect(home.runtime.version).toBe(n8n.VERSIONS[major]);
    });

    it('1. abandoned cart recovery: each cart pushed once with its contact references, one automation instance per cart', async () => {
      const result = await execute(workflow('abandoned-cart-recovery'));
      expect(result.nodeOutput('Push abandoned cart')).toEqual([
        { cart_id: 'CART-2025-0042', total: 89.8, recovery: 'scheduled' },
        { cart_id: 'CART-2025-0043', total: 24.9, recovery: 'scheduled' },
      ]);
      // Arrival order across different carts is free (Concurrency 8): compare in cart order.
      expect(sortedBy(sandbox.state.cartEvents, (e) => e.body.cart_id).map((e) => e.body)).toEqual([
        expect.objectContaining({
          cart_id: 'CART-2025-0042',
          total: 89.8,
          currency: 'EUR',
          cart_url: 'https://shop.example.com/cart/recover/0042',
          customer: { phone: '+33610000003', email: 'chloe.dubois.3@example.test', contact_id: 3 },
          line_items: [expect.objectContaining({ product_id: '1002', quantity: 1 }), expect.objectContaining({ product_id: '1003' })],
        }),
        expect.objectContaining({
          cart_id: 'CART-2025-0043',
          total: 24.9,
          customer: { phone: '+33610000005', email: 'emma.robert.5@example.test', contact_id: 5 },
        }),
      ]);
      expect(sandbox.state.cartEvents.every((e) => e.userId === demoUserId)).toBe(true);
      expect(sortedBy(sandbox.state.automationInstances, (i) => i.payload.cart_id).map((i) => ({ automation_id: i.automation_id, payload: i.payload }))).toEqual([
        { automation_id: 2, payload: { cart_id: 'CART-2025-0042', total: 89.8, phone: '+33610000003', cart_url: 'https://shop.example.com/cart/recover/0042' } },
        { automation_id: 2, payload: { cart_id: 'CART-2025-0043', total: 24.9, phone: '+33610000005', cart_url: 'https://shop.example.com/cart/recover/0043' } },
      ]);
      expect(result.nodeOutput('Start recovery automation')).toEqual([
        expect.objectContaining({ automation_id: 2, status: 'started' }),
        expect.objectContaining({ automation_id: 2, status: 'started' }),
      ]);
    });

    it('2. order paid: the duplicate order event is sent once; each new order gets the template with its mapped variables and its own header image', async () => {
      const wf = workflow('order-paid-confirmation');
      const result = await execute(wf);
      expect(result.nodeOutput('Push order event')).toEqual([
        expect.objectContaining({ order_id: 'ORD-2001', status: 'paid' }),
        expect.objectContaining({ order_id: 'ORD-2002', status: 'paid' }),
        expect.objectContaining({ order_id: 'ORD-2001', status: 'paid', skipped: true }),
      ]);
      // The emulator: each order event recorded once.
      expect(sortedBy(sandbox.state.orderEvents, (e) => e.body.order_id).map((e) => [e.body.order_id, e.body.status])).toEqual([
        ['ORD-2001', 'paid'],
        ['ORD-2002', 'paid'],
      ]);
      expect(sandbox.state.orderEvents.find((e) => e.body.order_id === 'ORD-2001')?.body).toMatchObject({ total: 65.4, currency: 'EUR', customer: { phone: '+33610000001', contact_id: 1 } });

      // The Code node's binary field "data" (each order's PNG), uploaded by Template > Send itself (Header Media:
      // From Binary Field): one upload per distinct image, owned by the demo user, each used by the template.
      const files = result.run.data.resultData.runData['Recipient and header image'][0].data.main[0].map((/** @type {any} */ i) => i.binary?.data);
      expect(files).toEqual([
        expect.objectContaining({ fileName: 'header-ORD-2001.png', mimeType: 'image/png' }),
        expect.objectContaining({ fileName: 'header-ORD-2002.png', mimeType: 'image/png' }),
      ]);
      expect(requests('POST', '/api/v2/whatsapp/media').map((r) => r.status)).toEqual([201, 201]);
      const media = sortedBy([...sandbox.state.media.values()], (m) => m.filename);
      expect(media.map((m) => ({ owner: m.userId, file: m.filename, type: m.mimetype, size: m.size, usedBy: m.used_by }))).toEqual([
        { owner: demoUserId, file: 'header-ORD-2001.png', type: 'image/png', size: 86, usedBy: [1] },
        { owner: demoUserId, file: 'header-ORD-2002.png', type: 'image/png', size: 85, usedBy: [1] },
      ]);

      // The approved order_confirmation template (id 1), per recipient: phone, the mapped {{1}} and {{2}}, its own header.
      const sends = sortedBy(sandbox.state.messages.filter((m) => m.type === 'template'), (m) => m.phone);
      expect(sends.map((m) => ({ template: m.template_name, phone: m.phone, variables: m.variables, header: m.header_media_id }))).toEqual([
        { template: 'order_confirmation', phone: '+33610000001', variables: ['Alice', 'ORD-2001'], header: media[0].media_id },
        { template: 'order_confirmation', phone: '+33610000002', variables: ['Bruno', 'ORD-2002'], header: media[1].media_id },
      ]);
      // The node's output names the header it used; the template was read once for the run.
      expect(result.nodeOutput('Send order confirmation')).toEqual([
        expect.objectContaining({ template_id: 1, phone: '+33610000001', status: 'queued', header_media_id: media[0].media_id }),
        expect.objectContaining({ template_id: 1, phone: '+33610000002', status: 'queued', header_media_id: media[1].media_id }),
      ]);
      expect(requests('GET', '/api/v2/whatsapp/templates/1')).toHaveLength(1);
      expect(sandbox.state.templates.get(1)?.state).toBe('APPROVED');

      // Run again (the webhook fires again): n8n kept the sent keys in the workflow's static data, so nothing is
      // sent twice, no message goes out and nothing is uploaded.
      const again = await execute(wf);
      expect(again.nodeOutput('Push order event')?.map((i) => i.skipped)).toEqual([true, true, true]);
      expect(again.nodeOutput('Send order confirmation')).toBeUndefined();
      expect(sandbox.state.orderEvents).toHaveLength(2);
      expect(sandbox.state.messages.filter((m) => m.type === 'template')).toHaveLength(2);
      expect(sandbox.state.media.size).toBe(2);
    });

    it('3. template lifecycle: draft -> submitted -> waits for the review -> APPROVED -> sent with its three mapped variables', async () => {
      const result = await execute(workflow('template-lifecycle'));
      const created = [...sandbox.state.templates.values()].filter((t) => String(t.name).startsWith('shipping_update_'));
      expect(created).toHaveLength(1);
      const tpl = created[0];
      expect(tpl).toMatchObject({ state: 'APPROVED', category: 'UTILITY', language: 'en', body: 'Hi {{1}}, your order {{2}} has shipped. Track it here: {{3}}' });
      expect(tpl.userId).toBe(demoUserId);
      expect(result.nodeOutput('Create draft template')).toEqual([expect.objectContaining({ id: tpl.id, state: 'DRAFT' })]);
      expect(result.nodeOutput('Submit for review')).toEqual([expect.objectContaining({ id: tpl.id, state: 'PENDING' })]);
      expect(result.nodeOutput('Wait for approval')).toEqual([expect.objectContaining({ id: tpl.id, state: 'APPROVED', approved: true })]);
      // The wait polled (PENDING at first: the emulator reviews after 1.5 s).
      expect(requests('GET', `/api/v2/whatsapp/templates/${tpl.id}`).length).toBeGreaterThanOrEqual(2);
      const sends = sandbox.state.messages.filter((m) => m.type === 'template' && m.template_id === tpl.id);
      expect(sends.map((m) => ({ phone: m.phone, variables: m.variables }))).toEqual([
        { phone: '+33610000004', variables: ['David', 'ORD-1002', 'https://shop.example.com/track/ORD-1002'] },
      ]);
      expect(result.nodeOutput('Send shipping update')).toEqual([expect.objectContaining({ template_id: tpl.id, status: 'queued' })]);
      // The mapped variables were checked against the new template's body before the send: the emulator accepted it.
      expect(requests('POST', `/api/v2/whatsapp/templates/${tpl.id}/send`).map((r) => r.status)).toEqual([201]);
    });

    it('4. catalogue sync: Return All reads every product with the plugin headers, however the service caps its pages', async () => {
      const wf = workflow('catalogue-sync');
      const expected = [...(sandbox.state.products.get(demoUserId)?.values() ?? [])].map((prod) => prod.id);
      expect(expected).toHaveLength(25);
      // The service's own page size (10 here) is below the node's (100) and the product list carries no total.
      const result = await execute(wf);
      expect(result.nodeOutput('Get all products')?.map((prod) => prod.id)).toEqual(expected);
      // Products need the plugin headers (else 403 PLUGIN_AUTH_REQUIRED): every list call succeeded.
      const calls = requests('GET', '/api/v1/products/');
      expect(calls.length).toBeGreaterThanOrEqual(1);
      expect(calls.every((r) => r.status === 200)).toBe(true);
      const lowStock = [...(sandbox.state.products.get(demoUserId)?.values() ?? [])].filter((prod) => prod.stock < 10);
      expect(result.nodeOutput('Low stock (under 10)')?.map((prod) => prod.id)).toEqual(lowStock.map((prod) => prod.id));
    });

    it('5. contacts export: Return All follows the pages (45 contacts, pages of 10) into one CSV file', async () => {
      const result = await execute(workflow('contacts-export'));
      const contacts = result.nodeOutput('Get all contacts') ?? [];
      expect(contacts).toHaveLength(45);
      expect(contacts.map((c) => c.id)).toEqual(sandbox.state.contactsOf(demoUserId).map((c) => c.id));
      const pages = requests('GET', '/api/contacts/').filter((r) => !/[?&]limit=1(&|$)/.test(r.url));
      expect(pages.map((r) => new URL(r.url, 'http://x').searchParams.get('currentPage'))).toEqual(['1', '2', '3', '4', '5']);
      expect(pages.every((r) => r.status === 200)).toBe(true);
      const csv = result.run.data.resultData.runData['Contacts CSV'][0].data.main[0];
      expect(csv).toHaveLength(1);
      expect(csv[0].binary.data).toMatchObject({ fileName: 'contacts.csv' });
    });

    it('6. custom API call to an undocumented path, and the same call by the HTTP Request node with this credential', async () => {
      const result = await execute(workflow('custom-api-call'));
      const profile = {
        id: demoUserId,
        username: p.DEMO_USER.username,
        email: p.DEMO_USER.username,
        firstname: 'Demo',
        lastname: 'User',
        language: 'fr',
        has_api_access: true,
        updated_at: expect.any(String),
      };
      expect(result.nodeOutput('Set profile language (Custom API Call)')).toEqual([profile]);
      const viaNode = result.nodeOutput('Read profile (Custom API Call)');
      expect(viaNode).toEqual([profile]);
      // The HTTP Request node gets the whole JSend envelope; its data is what the node unwrapped.
      const viaHttp = result.nodeOutput('Read profile (HTTP Request node)');
      expect(viaHttp).toEqual([{ status: 'success', data: viaNode?.[0] }]);
      const calls = requests('GET', '/api/user/profile/');
      expect(calls).toHaveLength(2);
      expect(calls.every((r) => r.authorization && r.status === 200 && r.userId === demoUserId)).toBe(true);
      expect(requests('PUT', '/api/user/profile/').map((r) => r.status)).toEqual([200]);
    });

    it('a token expired between two executions is renewed once and the run succeeds (node and HTTP Request node)', async () => {
      const wf = workflow('custom-api-call');
      await execute(wf); // n8n holds a valid token from here on
      let before = sandbox.loginCount();
      await execute(wf);
      expect(sandbox.loginCount() - before).toBe(0); // the stored token is reused by the next execution

      sandbox.expireTokensNow();
      before = sandbox.loginCount();
      const since = sandbox.state.requests.length;
      const result = await execute(wf);
      expect(sandbox.loginCount() - before).toBe(1);
      expect(result.nodeOutput('Read profile (HTTP Request node)')).toEqual([expect.objectContaining({ status: 'success' })]);
      const seen = sandbox.state.requests.slice(since).filter((r) => r.path !== '/api/login_check');
      // One request answered 401 JWT_EXPIRED (the first one), then everything with the new token.
      expect(seen.filter((r) => r.status === 401)).toHaveLength(1);
      expect(seen.filter((r) => r.status === 401)[0].tokenExpired).toBe(true);
      expect(seen.at(-1)?.status).toBe(200);
    });

    it('a token about to expire is renewed before it is sent (exp claim), with exactly one new login', async () => {
      const wf = workflow('custom-api-call');
      const ttlSeconds = 5;
      sandbox.setConfig({ tokenTtlSeconds: ttlSeconds });
      sandbox.expireTokensNow();
      await execute(wf); // renews (after a 401) and stores a token that lives 5 s
      const issuedAt = sandbox.state.logins.at(-1)?.at ?? Date.now();
      // Wait until that token has expired by its exp claim (the service has not said anything yet).
      await new Promise((r) => setTimeout(r, Math.max(0, issuedAt + ttlSeconds * 1000 + 200 - Date.now())));
      const before = sandbox.loginCount();
      const since = sandbox.state.requests.length;
      await execute(wf);
      expect(sandbox.loginCount() - before).toBe(1);
      expect(sandbox.state.requests.slice(since).filter((r) => r.status === 401)).toEqual([]);
    });

    it('with the emulator rate-limiting, a bulk send still answers every item once (Retry-After honoured)', async () => {
      // A real n8n process on a busy machine can put a request the node decided to send before the 429 arrived on
      // the wire more than the emulator's default 30 ms later (a CI run counted 2 such). With 250 ms a node that
      // ignores Retry-After (1 s here) still fails (tried: 7 early). That every lane holds is proven in the engine
      // (test/engine/throughput.test.ts), where the default 30 ms applies.
      sandbox.setConfig({ rateLimit: { requestsPerSecond: 3, burst: 3, reactionMs: 250 } });
      const result = await execute(bulk);
      const out = result.nodeOutput('Send WhatsApp') ?? [];
      expect(out).toHaveLength(12);
      expect(out.every((i) => typeof i.message_id === 'string' && i.status === 'queued' && i.error === undefined)).toBe(true);
      const sent = sandbox.state.messages.filter((m) => m.type === 'whatsapp');
      // Each recipient exactly once; different recipients may overtake each other (Concurrency 8, the default).
      expect(sent.map((m) => m.phone).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `+336100${String(100 + i).padStart(5, '0')}`));
      // The outputs keep the input order, each paired to its item.
      expect(out.map((i) => i.phone)).toEqual(Array.from({ length: 12 }, (_, i) => `+336100${String(100 + i).padStart(5, '0')}`));
      expect(sandbox.state.stats.rateLimited).toBeGreaterThan(0);
      expect(sandbox.state.stats.earlyRetries).toBe(0);
    });

    it('with injected 429 + Retry-After on the cart and automation calls, each cart is still recorded once', async () => {
      sandbox.faults.inject({ method: 'POST', path: '/api/v1/cart/', kind: '429', retryAfter: 1, times: 2 });
      sandbox.faults.inject({ method: 'POST', path: '/api/v1/automations/instances/', kind: '429', retryAfter: 1, times: 1 });
      const result = await execute(cartRetries);
      expect(result.nodeOutput('Push abandoned cart')?.map((i) => i.skipped)).toEqual([undefined, undefined]);
      expect(result.nodeOutput('Start recovery automation')).toHaveLength(2);
      expect(sandbox.state.cartEvents.map((e) => e.body.cart_id).sort()).toEqual(['CART-2025-0042', 'CART-2025-0043']);
      expect(sandbox.state.automationInstances).toHaveLength(2);
      expect(requests('POST', '/api/v1/cart/').filter((r) => r.status === 429)).toHaveLength(2);
      expect(sandbox.faults.list()).toEqual([]);
    });

    describe('the credential test of the editor (POST /rest/credentials/test)', () => {
      /** @type {import('../../../tools/n8n').Editor | undefined} */
      let editor;
      beforeAll(async () => {
        editor = await n8n.startEditor(home, { owner: { email: p.DEMO_OWNER.email, password: p.DEMO_OWNER.password } });
      }, 180_000);
      afterAll(async () => {
        await editor?.stop();
      });

      /** @param {Record<string, unknown>} data @param {string} [id] a stored credential to test (else a new one) */
      const check = (data, id) => {
        if (!editor?.ownerCookie) throw new Error('editor not started');
        const cred = p.demoCredential(sandbox.url, data);
        return n8n.testCredential(editor, editor.ownerCookie, { id, name: id ? cred.name : `e2e ${Object.values(data).join(' ')}`, type: cred.type, data: cred.data });
      };

      it('the editor also logs that it loaded the package', () => {
        expect(p.n8n.findLoadedPackageLines(editor?.output() ?? '', home.packageName)).not.toEqual([]);
      });

      it('passes for the demo user (imported credential): it logs in and probes API access', async () => {
        const before = sandbox.loginCount();
        const result = await check({}, p.DEMO_CREDENTIAL_ID);
        expect({ status: result.status, message: result.message }).toEqual({ status: 'OK', message: 'Connection successful!' });
        expect(sandbox.loginCount() - before).toBeGreaterThanOrEqual(1);
        // The probe is the credential's Test request itself: a contact list, which needs API access.
        const probes = requests('GET', '/api/contacts/');
        expect(probes.length).toBeGreaterThanOrEqual(1);
        expect(probes.every((r) => r.status === 200 && r.userId === demoUserId)).toBe(true);
      });

      it('passes with spaces around the Base URL and a trailing slash, read as the nodes read it', async () => {
        const result = await check({ baseUrl: ` ${sandbox.url}/ ` });
        expect({ status: result.status, message: result.message }).toEqual({ status: 'OK', message: 'Connection successful!' });
      });

      it('fails for a wrong password with the service message, never showing the password', async () => {
        const result = await check({ password: 'wrong-password-123' });
        // Same text in n8n 2.x and 1.x: the credential's preAuthentication error, passed through by n8n.
        expect({ status: result.status, message: result.message }).toEqual({
          status: 'Error',
          message: 'Login to the Commerce Messaging service failed: Invalid credentials. (code INVALID_CREDENTIALS, HTTP 401)',
        });
        expect(result.message).not.toContain('wrong-password-123');
      });

      it('fails for a user without API access, saying so (the Test request is the only API-access probe, User.hasApiAccess)', async () => {
        const before = sandbox.loginCount();
        const result = await check({ username: p.NOACCESS_USER.username, password: p.NOACCESS_USER.password });
        expect(result.status).toBe('Error');
        expect(result.message).toBe(
          'Login worked, but API access is disabled for this account: ask an administrator to enable "API access" (User.hasApiAccess) for this user',
        );
        expect(result.message).not.toContain(p.NOACCESS_USER.password);
        expect(sandbox.loginCount() - before).toBe(1);
        // The login worked; the 403 came from the Test request (GET contacts).
        const probes = requests('GET', '/api/contacts/');
        expect(probes.length).toBeGreaterThanOrEqual(1);
        expect(probes.every((r) => r.status === 403)).toBe(true);
      });

      it('fails when the API call is answered with an HTML error page (whatever its status) or with nothing, saying which (not "Connection successful!")', async () => {
        sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: 'html', times: 1 });
        const result = await check({});
        expect(sandbox.faults.list()).toEqual([]);
        expect({ status: result.status, message: result.message }).toEqual({
          status: 'Error',
          message: 'Login worked, but the service answered an API call with a page that is not JSON (an error page or a website): check the Base URL and that the service is up',
        });
        // An empty answer (a 401 without a word) is not a page.
        sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '401-empty', times: 2 });
        const empty = await check({});
        sandbox.faults.clear();
        expect({ status: empty.status, message: empty.message }).toEqual({
          status: 'Error',
          message: 'Login worked, but the service answered an API call with nothing at all. If it refused the new token, ask an administrator to enable "API access" (User.hasApiAccess) for this account; otherwise check the Base URL and the service',
        });
      });
    });
  });
}

/**
 * A copy of `list` sorted by `key`: what the service received from different orders or carts may arrive in any
 * order when items run side by side (each one's own events keep their order).
 * @template T @param {T[]} list @param {(entry: T) => string} key
 */
function sortedBy(list, key) {
  return [...list].sort((a, b) => key(a).localeCompare(key(b)));
}

module.exports = { defineN8nSuite };
