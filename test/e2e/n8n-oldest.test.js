// @ts-check
'use strict';
/**
 * Smoke test of the OLDEST n8n the package supports (tools/n8n/runtime.js VERSIONS.oldest, docs/compatibility.md),
 * in a real n8n process against the emulator: n8n loads the package from its tarball, the credential test of the
 * editor passes (login + API access) and fails with the service's words for a wrong password, two example
 * workflows run with the effects the emulator records, one of them with the hint a run gives (a Code node, as in
 * examples 1 and 2, does not finish under this version's `n8n execute`), and Template > Send runs with its Variables
 * mapped (a resourceMapper parameter; a test workflow, lib/testWorkflows.js). The versions tested in depth are in
 * lib/suite.js.
 */
const p = require('../../tools/provision');
const { mappedTemplateSendWorkflow } = require('./lib/testWorkflows');
const { selectedVersions } = require('./lib/versions');

const { n8n } = p;
const VERSION = n8n.VERSIONS.oldest;

(selectedVersions().includes('oldest') ? describe : describe.skip)(`n8n ${VERSION}, the oldest supported (real process): smoke test`, () => {
  /** @type {Awaited<ReturnType<typeof p.startDemoSandbox>>} */
  let sandbox;
  /** @type {Awaited<ReturnType<typeof p.provisionN8n>>} */
  let provisioned;
  /** @type {import('../../tools/n8n').Editor | undefined} */
  let editor;
  const mappedSend = mappedTemplateSendWorkflow({ customer: 'Ada', orderId: 'A-1001', phone: '+33610000009' });

  beforeAll(async () => {
    const tarball = process.env.CM_E2E_TARBALL;
    if (!tarball) throw new Error('CM_E2E_TARBALL is not set: run with -c test/e2e/jest.config.js (its globalSetup packs the package)');
    sandbox = await p.startDemoSandbox({ port: 0 });
    provisioned = await p.provisionN8n({ major: 'oldest', tarball, sandboxUrl: sandbox.url, extraWorkflows: [p.withSandboxUrl(mappedSend, sandbox.url)] });
  }, 600_000);

  afterAll(async () => {
    await editor?.stop();
    await sandbox?.close();
    if (provisioned) n8n.removeHome(provisioned.home);
  });

  it('loads the package from its npm tarball: one credential and both nodes', () => {
    expect(provisioned.home.runtime.version).toBe(VERSION);
    expect(provisioned.loaded.line).toMatch(/Loaded all credentials and nodes from n8n-nodes-commerce-messaging/);
    expect({ credentials: provisioned.loaded.credentials, nodes: provisioned.loaded.nodes }).toEqual({ credentials: 1, nodes: 2 });
  });

  it('runs example 6: a custom API call through the node, and the same call by the HTTP Request node with this credential', async () => {
    const wf = provisioned.workflows.find((w) => w.key === 'custom-api-call');
    if (!wf) throw new Error('no example workflow custom-api-call');
    const logins = sandbox.loginCount();
    const result = await n8n.executeWorkflow(provisioned.home, wf.id, { timeoutMs: 150_000 });
    if (!p.runSucceeded(result).ok) throw new Error(p.formatRun(wf, result));
    const demoUserId = /** @type {any} */ (sandbox.state.userByName(p.DEMO_USER.username)).id;
    const profile = expect.objectContaining({ id: demoUserId, username: p.DEMO_USER.username, language: 'fr' });
    expect(result.nodeOutput('Set profile language (Custom API Call)')).toEqual([profile]);
    expect(result.nodeOutput('Read profile (Custom API Call)')).toEqual([profile]);
    expect(result.nodeOutput('Read profile (HTTP Request node)')).toEqual([{ status: 'success', data: profile }]);
    // What the service received: one login (preAuthentication), then the three calls with its token.
    expect(sandbox.loginCount() - logins).toBe(1);
    const calls = sandbox.state.requests.filter((/** @type {any} */ r) => r.path === '/api/user/profile/');
    expect(calls.map((/** @type {any} */ r) => [r.method, r.status, r.userId])).toEqual([
      ['PUT', 200, demoUserId],
      ['GET', 200, demoUserId],
      ['GET', 200, demoUserId],
    ]);
  });

  it('runs example 5 with a rate limit on the way: the run\'s hint (the wait) reaches this n8n\'s execution data', async () => {
    const wf = provisioned.workflows.find((w) => w.key === 'contacts-export');
    if (!wf) throw new Error('no example workflow contacts-export');
    sandbox.faults.inject({ method: 'GET', path: '/api/contacts/', kind: '429', retryAfter: 1, times: 1 });
    const result = await n8n.executeWorkflow(provisioned.home, wf.id, { timeoutMs: 150_000 });
    if (!p.runSucceeded(result).ok) throw new Error(p.formatRun(wf, result));
    expect(result.nodeOutput('Get all contacts')).toHaveLength(45);
    const hints = (result.run.data.resultData.runData['Get all contacts'][0].hints ?? []).map((/** @type {any} */ hint) => hint.message);
    expect(hints).toEqual([expect.stringMatching(/^Waited 1(\.\d)? s in all for the service's rate limit/)]);
  });

  it('runs Template > Send with mapped Variables (the resourceMapper parameter): {{1}} and {{2}} filled from the item', async () => {
    const since = sandbox.state.requests.length;
    const result = await n8n.executeWorkflow(provisioned.home, mappedSend.id, { timeoutMs: 150_000 });
    if (!p.runSucceeded(result).ok) throw new Error(p.formatRun({ name: mappedSend.name, json: mappedSend }, result));
    expect(result.nodeOutput('Send order confirmation')).toEqual([expect.objectContaining({ template_id: 1, phone: '+33610000009', status: 'queued' })]);
    // The emulator refuses values that do not fill the template's placeholders (TEMPLATE_PARAMS_MISMATCH): it took these.
    const sent = sandbox.state.messages.filter((/** @type {any} */ m) => m.type === 'template');
    expect(sent.map((/** @type {any} */ m) => ({ template: m.template_name, phone: m.phone, variables: m.variables }))).toEqual([
      { template: 'order_confirmation', phone: '+33610000009', variables: ['Ada', 'A-1001'] },
    ]);
    // The template read once (its placeholders, checked before the send), then the send.
    const calls = sandbox.state.requests.slice(since).filter((/** @type {any} */ r) => r.path.startsWith('/api/v2/whatsapp/templates/'));
    expect(calls.map((/** @type {any} */ r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/api/v2/whatsapp/templates/1', 200],
      ['POST', '/api/v2/whatsapp/templates/1/send', 201],
    ]);
  });

  describe('the credential test of the editor (POST /rest/credentials/test)', () => {
    beforeAll(async () => {
      editor = await n8n.startEditor(provisioned.home, { owner: { email: p.DEMO_OWNER.email, password: p.DEMO_OWNER.password } });
    }, 180_000);

    /** @param {Record<string, unknown>} data @param {string} [id] */
    const check = (data, id) => {
      if (!editor?.ownerCookie) throw new Error('editor not started');
      const cred = p.demoCredential(sandbox.url, data);
      return n8n.testCredential(editor, editor.ownerCookie, { id, name: id ? cred.name : `smoke ${Object.keys(data).join(' ')}`, type: cred.type, data: cred.data });
    };

    it('passes for the demo user: it logs in and probes API access', async () => {
      const logins = sandbox.loginCount();
      const result = await check({}, p.DEMO_CREDENTIAL_ID);
      expect({ status: result.status, message: result.message }).toEqual({ status: 'OK', message: 'Connection successful!' });
      expect(sandbox.loginCount() - logins).toBeGreaterThanOrEqual(1);
    });

    it('fails for a wrong password with the service message, never showing the password', async () => {
      const result = await check({ password: 'wrong-password-123' });
      expect({ status: result.status, message: result.message }).toEqual({
        status: 'Error',
        message: 'Login to the Commerce Messaging service failed: Invalid credentials. (code INVALID_CREDENTIALS, HTTP 401)',
      });
      expect(JSON.stringify(result.body)).not.toContain('wrong-password-123');
    });
  });
});
