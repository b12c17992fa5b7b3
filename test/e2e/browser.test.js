// @ts-check
'use strict';
/**
 * The package as a user meets it, in a REAL n8n 2.x editor driven by headless Chromium (Debian's chromium,
 * playwright-core; installed by scripts/ensure-chromium.sh from the e2e globalSetup): sign in, find the nodes in
 * the node search, open an example workflow, open its nodes, add a node from the search, fill in the credential,
 * and run a workflow to read what a node tells about its run. Each step checks what the editor shows and saves a
 * screenshot into docs/screenshots/ (shown in the README; CM_SCREENSHOTS_DIR to write them elsewhere).
 *
 * The setup is the demo's (tools/provision.js): emulator, n8n home with the package installed from its
 * tarball, the demo credential and the example workflows. n8n 2.x only: the 1.x editor has other selectors.
 * Skipped when E2E_N8N_VERSIONS leaves out 2, or with E2E_BROWSER=0.
 */
const p = require('../../tools/provision');
const b = require('./lib/browser');
const { selectedVersions } = require('./lib/versions');

const { n8n } = p;
const { tid } = b;

const enabled = selectedVersions().includes(2) && process.env.E2E_BROWSER !== '0';

/** Around the workflow on the canvas: room for the labels under the nodes and the last node's "+". */
const CANVAS_MARGIN = { top: 30, right: 90, bottom: 80, left: 50 };
/** The labels of the mapped variables of the demo's templates (sandbox/seed.js), as the node words them. */
const VARIABLE_LABELS = {
  order_confirmation: ['Hello {{1}}, your', 'your order {{2}} is'],
  cart_reminder: ['Hi {{1}}, you'],
};
/** The example workflows these tests open (workflows/*.json). */
const WF = { order: 'cmDemoWorkflow02', lifecycle: 'cmDemoWorkflow03', contacts: 'cmDemoWorkflow05', welcome: 'cmDemoWorkflow07' };

(enabled ? describe : describe.skip)(`the n8n ${n8n.VERSIONS[2]} editor in headless Chromium`, () => {
  /** @type {Awaited<ReturnType<typeof p.startDemoSandbox>>} */
  let sandbox;
  /** @type {import('../../tools/n8n').N8nHome | undefined} */
  let home;
  /** @type {import('../../tools/n8n').Editor | undefined} */
  let editor;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  /** @type {import('playwright-core').BrowserContext} */
  let context;
  /** @type {import('playwright-core').Page} */
  let page;
  let url = '';
  /** The node types as the editor loaded them (GET /types/nodes.json), for the expected names. */
  /** @type {any} */
  let actionNode;
  const started = Date.now();

  beforeAll(async () => {
    if (process.env.CM_E2E_CHROMIUM_ERROR) throw new Error(`Chromium is not available: ${process.env.CM_E2E_CHROMIUM_ERROR}`);
    const tarball = process.env.CM_E2E_TARBALL;
    if (!tarball) throw new Error('CM_E2E_TARBALL is not set: run with -c test/e2e/jest.config.js (its globalSetup packs the package)');
    sandbox = await p.startDemoSandbox({ port: 0 });
    ({ home } = await p.provisionN8n({ major: 2, tarball, sandboxUrl: sandbox.url }));
    // Both at once; whichever started is kept for afterAll even when the other failed.
    const [ed, br] = await Promise.allSettled([n8n.startEditor(home, { owner: p.DEMO_OWNER }), b.launchChromium()]);
    if (ed.status === 'fulfilled') editor = ed.value;
    if (br.status === 'fulfilled') browser = br.value;
    if (ed.status === 'rejected') throw ed.reason;
    if (br.status === 'rejected') throw br.reason;
    if (!editor || !browser) throw new Error('unreachable');
    url = editor.url;
    context = await browser.newContext({ viewport: b.VIEWPORT, colorScheme: 'light', locale: 'en-US', timezoneId: 'UTC' });
    context.setDefaultTimeout(20_000);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await editor?.stop();
    await sandbox?.close();
    if (home) n8n.removeHome(home);
    process.stderr.write(`[e2e] browser test: ${((Date.now() - started) / 1000).toFixed(1)} s in all (n8n home, editor, Chromium)\n`);
  });

  // A new tab per test: leaving a workflow with unsaved changes would otherwise ask "Save changes?".
  beforeEach(async () => {
    page = await context.newPage();
  });
  afterEach(async () => {
    await page?.close();
  });

  it('signs in through the sign-in form and lists the example workflows', async () => {
    await b.signIn(page, url, p.DEMO_OWNER);
    // The node types first: the next test reads the action node's operations from them.
    const res = await page.request.get(`${url}/types/nodes.json`);
    expect(res.status()).toBe(200);
    const types = /** @type {any[]} */ (await res.json());
    actionNode = types.find((t) => t.name === p.NODE_TYPE);
    expect(actionNode).toBeDefined();
    expect(types.find((t) => t.name === 'n8n-nodes-commerce-messaging.commerceMessagingTrigger')).toBeDefined();

    await page.goto(`${url}/home/workflows`);
    // The list may render twice (a first page, then the whole list): wait for the card itself, not any card.
    const names = page.locator(tid('workflow-card-name'));
    await names.filter({ hasText: 'Commerce Messaging demo 1' }).first().waitFor();
    expect(await names.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('Commerce Messaging demo 1')]));
  });

  it('the node search finds the package by the words users type, and lists its operations as actions', async () => {
    await b.openWorkflow(page, url, WF.contacts);
    for (const words of ['commerce messaging', 'whatsapp', 'abandoned cart', 'ecommerce', 'shop', 'marketing']) {
      expect({ words, found: await b.searchNodes(page, words) }).toEqual({ words, found: expect.arrayContaining(['Commerce Messaging']) });
    }
    await b.searchNodes(page, 'whatsapp');
    await b.screenshot(page, 'node-search');
    await page.setViewportSize({ width: 1440, height: 1700 }); // tall enough for the whole list of actions

    await page.locator(`${tid('node-creator')} ${tid('node-creator-item-name')}`).getByText('Commerce Messaging', { exact: true }).first().click();
    const actionNames = page.locator(`${tid('node-creator')} ${tid('node-creator-item-name')}`);
    await actionNames.getByText('Send a WhatsApp message', { exact: true }).waitFor();
    await b.settle(page);
    const shown = (await actionNames.allInnerTexts()).map((t) => t.trim());
    // Every operation's action sentence, e.g. "Send a WhatsApp message", "Push an abandoned cart event".
    const expected = actionNode.properties
      .filter((/** @type {any} */ prop) => prop.name === 'operation')
      .flatMap((/** @type {any} */ prop) => prop.options.filter((/** @type {any} */ o) => o.action).map((/** @type {any} */ o) => o.action));
    expect(expected.length).toBeGreaterThanOrEqual(20);
    expect(shown).toEqual(expect.arrayContaining(expected));
    await page.mouse.move(400, 300); // no hover highlight in the list
    await b.screenshot(page, 'node-actions', { clip: await b.boundsOf(page, tid('node-creator')) });
  });

  it('the canvas shows the icon and an "Operation: Resource" subtitle on each node, on the light and the dark theme', async () => {
    await b.openWorkflow(page, url, WF.order);
    await page.locator(tid('zoom-to-fit')).click();
    await page.mouse.move(700, 120); // away from the nodes and the canvas buttons
    await b.settle(page);
    const subtitles = {
      'Push order event': 'Push Event: Order',
      'Send order confirmation': 'Send: Template',
    };
    for (const [name, subtitle] of Object.entries(subtitles)) {
      const node = b.canvasNode(page, name);
      await expect(node.innerText()).resolves.toContain(subtitle);
      // The SVG icon is served by n8n and rendered (a broken image has naturalWidth 0).
      const icon = node.locator('img[src*="commerceMessaging.svg"]');
      await icon.waitFor();
      expect(await icon.evaluate((img) => /** @type {HTMLImageElement} */ (img).naturalWidth)).toBeGreaterThan(0);
    }
    // The workflow itself (nodes and sticky note), not the empty canvas around it.
    await b.screenshot(page, 'canvas', { clip: await b.boundsOf(page, `${tid('canvas-node')}, ${tid('sticky')}`, CANVAS_MARGIN) });

    // The trigger's subtitle is its event's name.
    const triggerPage = await context.newPage();
    try {
      await b.openWorkflow(triggerPage, url, WF.welcome);
      await expect(b.canvasNode(triggerPage, 'New contact').innerText()).resolves.toContain('New Contact');
    } finally {
      await triggerPage.close();
    }

    const dark = await context.browser()?.newContext({ viewport: b.VIEWPORT, colorScheme: 'dark', storageState: await context.storageState() });
    if (!dark) throw new Error('no browser');
    try {
      const darkPage = await dark.newPage();
      await b.openWorkflow(darkPage, url, WF.order);
      await darkPage.locator(tid('zoom-to-fit')).click();
      await darkPage.mouse.move(700, 120);
      await b.settle(darkPage);
      // n8n follows the system theme by default: the canvas background is dark.
      const bg = await darkPage.locator(tid('canvas')).evaluate((el) => getComputedStyle(el).backgroundColor);
      const [r, g, bl] = (bg.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
      expect((r + g + bl) / 3).toBeLessThan(80);
      await b.screenshot(darkPage, 'canvas-dark', { clip: await b.boundsOf(darkPage, `${tid('canvas-node')}, ${tid('sticky')}`, CANVAS_MARGIN) });
    } finally {
      await dark.close();
    }
  });

  it('Template > Send: credential, resources and operations shown, the template list loaded from the service, example 2\'s mapped variables', async () => {
    await b.openWorkflow(page, url, WF.order);
    await b.openNode(page, 'Send order confirmation');
    await expect(page.locator(`${tid('node-credentials-select')} input`).inputValue()).resolves.toBe(p.DEMO_CREDENTIAL_NAME);

    const resources = await b.dropdownOptions(page, 'resource');
    // n8n appends its own "Custom API Call" (the HTTP Request node with this credential): it must be the only one.
    expect(resources).toEqual(['Automation', 'Cart', 'Contact', 'Media', 'Message', 'Order', 'Other Endpoint', 'Product', 'Template', 'Custom API Call']);
    const operations = await b.dropdownOptions(page, 'operation');
    expect(operations).toEqual(['Create Draft', 'Delete', 'Get', 'Get Many', 'Send', 'Submit for Review', 'Wait for Approval', 'Custom API Call']);

    // Example 2 as saved: its template's two placeholders mapped from the item, the header from its binary field.
    expect(await b.mappedFields(page)).toEqual([
      { label: VARIABLE_LABELS.order_confirmation[0], value: '{{ $json.customer_name }}' },
      { label: VARIABLE_LABELS.order_confirmation[1], value: '{{ $json.order_id }}' },
    ]);
    await expect(page.locator(`${tid('parameter-input-headerMedia')} input`).inputValue()).resolves.toBe('From Binary Field');
    await expect(page.locator(`${tid('parameter-input-headerMediaBinaryField')} input`).inputValue()).resolves.toBe('data');

    // The template picker asks the service (the emulator) for every template of the account.
    const before = sandbox.state.requests.filter((r) => r.path === '/api/v2/whatsapp/templates').length;
    await page.locator(`${tid('resource-locator-templateId')} ${tid('rlc-input')}`).click();
    const items = page.locator(`${tid('rlc-item')}:visible`);
    await items.first().waitFor();
    await b.settle(page);
    const shown = (await items.allInnerTexts()).map((t) => t.trim());
    const templates = [...sandbox.state.templates.values()];
    expect(shown).toHaveLength(templates.length);
    for (const t of templates) expect(shown).toContainEqual(expect.stringContaining(`${t.name} (${t.state}`));
    expect(sandbox.state.requests.filter((r) => r.path === '/api/v2/whatsapp/templates').length).toBeGreaterThan(before);
    await b.screenshot(page, 'node-template-send');

    // The ID fallback: "By ID" is offered next to "From list".
    await page.keyboard.press('Escape');
    await page.locator(`${tid('resource-locator-templateId')} ${tid('rlc-mode-selector')}`).click();
    await expect(page.locator(`${tid('mode-id')}:visible`).innerText()).resolves.toContain('By ID');
  });

  it('Template > Send of example 3, its template given by an expression: the mapped variables stay shown with their values', async () => {
    await b.openWorkflow(page, url, WF.lifecycle);
    await b.openNode(page, 'Send shipping update');
    // The editor cannot read a template that is created in the run: it keeps the saved fields (and offers a refresh).
    expect(await b.mappedFields(page)).toEqual([
      { label: 'Hi {{1}}, your', value: 'David' },
      { label: 'your order {{2}} has', value: 'ORD-1002' },
      { label: 'Track it here: {{3}}', value: 'https://shop.example.com/track/ORD-1002' },
    ]);
  });

  it('Template > Send added from the search: picking a template shows one required field per placeholder, labelled with its text', async () => {
    // Example 7, which no later test opens: n8n 2.x saves a workflow as it is edited and keeps it locked to the
    // editing tab for a while after that tab is closed ("Editing in another tab").
    await b.openWorkflow(page, url, WF.welcome);
    await b.searchNodes(page, 'whatsapp');
    await page.locator(`${tid('node-creator')} ${tid('node-creator-item-name')}`).getByText('Commerce Messaging', { exact: true }).first().click();
    await page.locator(`${tid('node-creator')} ${tid('node-creator-item-name')}`).getByText('Send a template', { exact: true }).click();
    await page.locator(tid('ndv')).waitFor();
    await b.settle(page);
    await expect(page.locator(`${tid('parameter-input-operation')} input`).inputValue()).resolves.toBe('Send');
    // No template yet: no variables to map.
    expect(await b.mappedFields(page)).toEqual([]);

    const reads = () => sandbox.state.requests.filter((r) => r.method === 'GET' && r.path === '/api/v2/whatsapp/templates/1').length;
    const readsBefore = reads();
    await b.pickFromList(page, 'templateId', 'order_confirmation');
    // The fields come from the template the service holds, read when it is picked: {{1}} and {{2}} of its body.
    expect(await b.waitForMappedLabels(page, VARIABLE_LABELS.order_confirmation)).toEqual(VARIABLE_LABELS.order_confirmation);
    expect(await b.mappedFields(page)).toEqual([
      { label: VARIABLE_LABELS.order_confirmation[0], value: '' },
      { label: VARIABLE_LABELS.order_confirmation[1], value: '' },
    ]);
    expect(reads()).toBeGreaterThan(readsBefore);
    // Both are required: the editor offers no button to remove either.
    const mapper = page.locator(`${tid('ndv')} ${tid('mapping-fields-container')}`);
    await expect(mapper.locator('[data-test-id^="remove-field-button-"]').count()).resolves.toBe(0);
    await b.fillMappedField(page, 'body:1', 'Ada');
    await b.fillMappedField(page, 'body:2', 'ORD-1001');
    expect(await b.mappedFields(page)).toEqual([
      { label: VARIABLE_LABELS.order_confirmation[0], value: 'Ada' },
      { label: VARIABLE_LABELS.order_confirmation[1], value: 'ORD-1001' },
    ]);

    // Another template, other placeholders: the fields follow it; and back.
    await b.pickFromList(page, 'templateId', 'cart_reminder');
    expect(await b.waitForMappedLabels(page, VARIABLE_LABELS.cart_reminder)).toEqual(VARIABLE_LABELS.cart_reminder);
    await b.pickFromList(page, 'templateId', 'order_confirmation');
    expect(await b.waitForMappedLabels(page, VARIABLE_LABELS.order_confirmation)).toEqual(VARIABLE_LABELS.order_confirmation);
    await page.locator(`${tid('parameter-input-phone')} input`).fill('+33610000005');
    await b.fillMappedField(page, 'body:1', 'Ada');
    await b.fillMappedField(page, 'body:2', 'ORD-1001');
    await page.mouse.move(5, 5);
    await b.settle(page);
    // How much of each label the panel shows at its default width (the Fixed / Expression switch keeps room beside it).
    const cut = await mapper.locator(`${tid('input-label')} .n8n-text`).evaluateAll((els) =>
      els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => `${el.textContent?.trim()} (${el.clientWidth} of ${el.scrollWidth} px shown)`),
    );
    if (cut.length) process.stderr.write(`[e2e] browser: mapped field labels cut by the editor: ${cut.join('; ')}\n`);
    // The parameters column, from the credential down to Header Media.
    const params = await b.boundsOf(page, `${tid('ndv')} ${tid('node-parameters')}`);
    const last = await b.boundsOf(page, `${tid('ndv')} ${tid('parameter-input-headerMedia')}`, { bottom: 12 });
    await b.screenshot(page, 'node-template-variables', { clip: { ...params, height: last.y + last.height - params.y } });
  });

  it('a node added from the search: formats shown as placeholders and hints, and Return All / Limit on every list', async () => {
    await b.openWorkflow(page, url, WF.contacts);
    await b.searchNodes(page, 'whatsapp');
    await page.locator(`${tid('node-creator')} ${tid('node-creator-item-name')}`).getByText('Commerce Messaging', { exact: true }).first().click();
    await page.locator(`${tid('node-creator')} ${tid('node-creator-item-name')}`).getByText('Send a WhatsApp message', { exact: true }).click();
    await page.locator(tid('ndv')).waitFor();
    await b.settle(page);
    // The only credential of its type is picked for the new node.
    await expect(page.locator(`${tid('node-credentials-select')} input`).inputValue()).resolves.toBe(p.DEMO_CREDENTIAL_NAME);
    await expect(page.locator(`${tid('parameter-input-resource')} input`).inputValue()).resolves.toBe('Message');
    await expect(page.locator(`${tid('parameter-input-operation')} input`).inputValue()).resolves.toBe('Send WhatsApp');
    await expect(page.locator(`${tid('parameter-input-phone')} input`).getAttribute('placeholder')).resolves.toBe('+4915123456789');
    await expect(page.getByText(/^E\.164: a plus, the country code and the number/).isVisible()).resolves.toBe(true);
    await b.screenshot(page, 'node-message-send');

    await b.selectOption(page, 'resource', 'Cart');
    await expect(page.locator(`${tid('parameter-input-operation')} input`).inputValue()).resolves.toBe('Push Abandoned Cart');
    await expect(page.getByText('A decimal number with a dot, e.g. 49.90').isVisible()).resolves.toBe(true);
    // Customer > Add Contact Reference > Phone: the E.164 format again, as placeholder and hint.
    await page.getByPlaceholder('Add Contact Reference', { exact: true }).click();
    await page.locator(`${tid('collection-parameter-option')}:visible`).getByText('Phone', { exact: true }).click();
    await expect(page.locator(`${tid('parameter-input-phone')} input`).getAttribute('placeholder')).resolves.toBe('+4915123456789');
    await expect(page.getByText('E.164: a plus, the country code and the number, e.g. +4915123456789').isVisible()).resolves.toBe(true);
    await page.mouse.move(5, 5);
    await b.settle(page);
    await b.screenshot(page, 'node-cart-push');

    await b.selectOption(page, 'resource', 'Automation');
    await expect(page.getByText(/^A whole number, e\.g\. 12\./).isVisible()).resolves.toBe(true);

    // Every list operation of the node (those with a Return All parameter) shows Return All, and Limit while off.
    const lists = actionNode.properties
      .filter((/** @type {any} */ prop) => prop.name === 'returnAll')
      .map((/** @type {any} */ prop) => ({ resource: prop.displayOptions.show.resource[0], operation: prop.displayOptions.show.operation[0] }))
      .filter((/** @type {{ resource: string }} */ l) => l.resource !== 'customApiCall'); // there: only with Paginate on
    expect(lists.length).toBeGreaterThanOrEqual(4);
    const label = (/** @type {string} */ param, /** @type {string} */ value) =>
      actionNode.properties.find((/** @type {any} */ prop) => prop.name === param && prop.options?.some((/** @type {any} */ o) => o.value === value))
        ?.options.find((/** @type {any} */ o) => o.value === value).name;
    for (const { resource, operation } of lists) {
      await b.selectOption(page, 'resource', label('resource', resource));
      await b.selectOption(page, 'operation', label('operation', operation));
      const labels = await b.parameterLabels(page);
      expect({ resource, operation, labels }).toEqual({ resource, operation, labels: expect.arrayContaining(['Return All', 'Limit']) });
    }
  });

  it('the credential form: fields in order, the plugin group explained, and the connection tested', async () => {
    await page.goto(`${url}/home/credentials/${p.DEMO_CREDENTIAL_ID}`);
    const modal = page.locator(tid('editCredential-modal'));
    await modal.waitFor();
    // Opening a saved credential tests it: the demo account logs in to the emulator.
    await modal.locator(tid('credentials-config-container-test-success')).waitFor({ timeout: 30_000 });
    const order = await modal
      .locator('[data-test-id^="parameter-input-"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-test-id')?.replace('parameter-input-', '')));
    const ours = order.filter((n) => ['baseUrl', 'username', 'password', 'pluginIntegration', 'pluginApiKey', 'pluginPlatformType', 'pluginBaseUri'].includes(String(n)));
    expect(ours).toEqual(['baseUrl', 'username', 'password', 'pluginIntegration', 'pluginApiKey', 'pluginPlatformType', 'pluginBaseUri']);
    const notice = modal.getByText(/^Shop plugin \(optional\)/);
    await expect(notice.isVisible()).resolves.toBe(true);
    const y = async (/** @type {import('playwright-core').Locator} */ l) => (await l.boundingBox())?.y ?? NaN;
    expect(await y(notice)).toBeGreaterThan(await y(modal.locator(tid('parameter-input-password'))));
    expect(await y(notice)).toBeLessThan(await y(modal.locator(tid('parameter-input-pluginIntegration'))));
    await expect(modal.locator(`${tid('parameter-input-pluginPlatformType')} input`).inputValue()).resolves.toBe('WooCommerce');
    // The form scrolls inside the dialog (n8n gives it a fixed height): show it down to the last plugin field.
    await modal.locator(tid('parameter-input-pluginBaseUri')).evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await page.mouse.move(5, 5);
    await b.settle(page);
    await b.screenshot(modal, 'credential');
  });

  it('a run tells what it did: hints above the output of Order > Push Event (a duplicate skipped, a wait for the rate limit)', async () => {
    // The service holds back the run's first order event with a 429 and Retry-After; ORD-2001 comes twice.
    sandbox.faults.inject({ method: 'POST', path: '/api/v1/order/', kind: '429', retryAfter: 1, times: 1 });
    const sends = () => sandbox.state.requests.filter((r) => r.method === 'POST' && /^\/api\/v2\/whatsapp\/templates\/[^/]+\/send$/.test(r.path)).length;
    const sendsBefore = sends();
    await b.openWorkflow(page, url, WF.order);
    await page.locator(tid('execute-workflow-button')).first().click();
    // The workflow's last node sends the two new orders' confirmations.
    for (const until = Date.now() + 60_000; sends() < sendsBefore + 2 && Date.now() < until; ) await page.waitForTimeout(250);
    expect(sends()).toBe(sendsBefore + 2);
    await b.settle(page);
    await b.openNode(page, 'Push order event');
    const output = page.locator(`${tid('ndv')} ${tid('output-panel')}`);
    const hints = output.locator(tid('node-hint'));
    await hints.first().waitFor({ timeout: 20_000 });
    const shown = (await hints.allInnerTexts()).join('\n');
    expect(shown).toContain('1 of 3 items were skipped as duplicates');
    expect(shown).toMatch(/Waited 1(\.\d)? s in all for the service's rate limit/);
    // A plain success says nothing: the template send (which also uploaded the header images), meeting neither, shows no hint.
    await page.keyboard.press('Escape');
    await b.openNode(page, 'Send order confirmation');
    await expect(page.locator(`${tid('ndv')} ${tid('output-panel')} ${tid('node-hint')}`).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await b.openNode(page, 'Push order event');
    await page.locator(`${tid('ndv')} ${tid('output-panel')} ${tid('node-hint')}`).first().waitFor();
    await page.mouse.move(5, 5);
    await b.settle(page);
    // The output panel down to its table: the hints and the items they speak of.
    const panel = await b.boundsOf(page, `${tid('ndv')} ${tid('output-panel')}`);
    const table = await b.boundsOf(page, `${tid('ndv')} ${tid('output-panel')} table`, { bottom: 16 });
    await b.screenshot(page, 'hints', { clip: { ...panel, height: table.y + table.height - panel.y } });
  });

  it('a new credential found by name; the Test fails with the service\'s own message for a wrong password', async () => {
    await page.goto(`${url}/home/credentials/create`);
    await page.locator(tid('selectCredential-modal')).waitFor();
    await page.locator(`${tid('new-credential-type-select')} input`).fill('commerce');
    const option = page.locator(`${tid('new-credential-type-select-option')}:visible`).filter({ hasText: 'Commerce Messaging API' });
    await option.first().click();
    await page.locator(tid('new-credential-type-button')).click();
    const modal = page.locator(tid('editCredential-modal'));
    await modal.waitFor();
    await modal.locator(`${tid('parameter-input-baseUrl')} input`).fill(sandbox.url);
    await modal.locator(`${tid('parameter-input-username')} input`).fill(p.DEMO_USER.username);
    await modal.locator(`${tid('parameter-input-password')} input`).fill('not-the-password-1');
    const loginsBefore = sandbox.loginCount();
    await modal.locator(tid('credential-save-button')).click(); // saving runs the credential test
    await modal.getByText('More details').click();
    const message = 'Login to the Commerce Messaging service failed: Invalid credentials. (code INVALID_CREDENTIALS, HTTP 401)';
    await modal.getByText(message).waitFor();
    expect(sandbox.loginCount()).toBe(loginsBefore); // a refused login is not counted as one
    expect(sandbox.state.requests.some((r) => r.path === '/api/login_check' && r.status === 401)).toBe(true);
    await expect(modal.innerText()).resolves.not.toContain('not-the-password-1');
    await page.mouse.move(5, 5);
    await b.settle(page);
    await b.screenshot(modal, 'credential-test-failed');
  });
});
