// @ts-check
'use strict';
/**
 * Rules A3/A6 where n8n's own behaviour is the cause, in a REAL n8n 2.x: when a credential is saved from the editor,
 * n8n puts its stored password-type fields back, so the hidden session token survives an edit of the username or
 * the Base URL. The credential is edited here through the REST API exactly as the editor does it (read with its data
 * redacted, written back with one field changed) between two executions of an active webhook workflow that calls
 * the node and n8n's HTTP Request node with the credential. After each edit, every request is served as the new
 * account, and a new Base URL never receives a token another service issued.
 */
const p = require('../../tools/provision');
const { activateWorkflow } = require('./lib/activation');
const { selectedVersions } = require('./lib/versions');

const { n8n } = p;
const MAJOR = 2;
const OTHER_USER = { username: 'other@shop.test', password: 'other-password' };
const WORKFLOW_ID = 'cmE2eCredEdit001';
const WEBHOOK_PATH = 'cm-credential-edit';
const CREDENTIALS = { commerceMessagingApi: { id: p.DEMO_CREDENTIAL_ID, name: p.DEMO_CREDENTIAL_NAME } };

/** Webhook (answers with the last node's output) -> the node lists one contact -> the HTTP Request node reads `url`. */
function editWorkflow() {
  return {
    id: WORKFLOW_ID,
    name: 'e2e: credential edits (node and HTTP Request node)',
    nodes: [
      {
        parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'lastNode', options: {} },
        id: 'cmE2eCredEdit-webhook',
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: 'c4ed0000-0000-4000-8000-0000000000ed',
      },
      {
        parameters: { resource: 'contact', operation: 'getAll', returnAll: false, limit: 1 },
        id: 'cmE2eCredEdit-node',
        name: 'List a contact',
        type: p.NODE_TYPE,
        typeVersion: 1,
        position: [220, 0],
        credentials: CREDENTIALS,
      },
      {
        parameters: {
          url: "={{ $('Webhook').item.json.body.url }}",
          authentication: 'predefinedCredentialType',
          nodeCredentialType: p.CREDENTIAL_TYPE,
          options: {},
        },
        id: 'cmE2eCredEdit-http',
        name: 'HTTP Request',
        type: 'n8n-nodes-base.httpRequest',
        typeVersion: 4.2,
        position: [440, 0],
        credentials: CREDENTIALS,
      },
    ],
    connections: {
      Webhook: { main: [[{ node: 'List a contact', type: 'main', index: 0 }]] },
      'List a contact': { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
    active: false,
  };
}

(selectedVersions().includes(MAJOR) ? describe : describe.skip)(
  `n8n ${n8n.VERSIONS[MAJOR]} (real process): a credential edited in the editor never sends its old token`,
  () => {
    /** @type {Awaited<ReturnType<typeof p.startDemoSandbox>>} */
    let first;
    /** @type {Awaited<ReturnType<typeof p.startDemoSandbox>>} */
    let second;
    /** @type {import('../../tools/n8n').N8nHome | undefined} */
    let home;
    /** @type {import('../../tools/n8n').Editor | undefined} */
    let editor;
    let webhookUrl = '';

    beforeAll(async () => {
      const tarball = process.env.CM_E2E_TARBALL;
      if (!tarball) throw new Error('CM_E2E_TARBALL is not set: run with -c test/e2e/jest.config.js');
      first = await p.startDemoSandbox({ port: 0, signingKey: 'e2e-credential-edit-first-service' });
      second = await p.startDemoSandbox({ port: 0, signingKey: 'e2e-credential-edit-second-service' });
      home = (await p.provisionN8n({ major: MAJOR, tarball, sandboxUrl: first.url, extraWorkflows: [editWorkflow()] })).home;
      await activateWorkflow(home, WORKFLOW_ID);
      editor = await n8n.startEditor(home, { owner: p.DEMO_OWNER });
      webhookUrl = `${editor.url}/webhook/${WEBHOOK_PATH}`;
      await n8n.waitForProductionUrl(webhookUrl);
    }, 600_000);

    afterAll(async () => {
      await editor?.stop();
      await first?.close();
      await second?.close();
      if (home) n8n.removeHome(home);
    });

    /** One execution; the HTTP Request node reads `url` with the credential. */
    async function execute(/** @type {string} */ url) {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, text: await res.text() };
    }

    /** What the editor does on save: the credential read with its secrets redacted, written back with `changes`. */
    async function editCredential(/** @type {Record<string, string>} */ changes) {
      if (!editor?.ownerCookie) throw new Error('no editor session');
      const seen = await n8n.editCredential(editor, editor.ownerCookie, p.DEMO_CREDENTIAL_ID, changes);
      // The editor never sees the hidden token (n8n redacts it, and puts it back on save).
      expect(JSON.stringify(seen)).not.toMatch(/eyJ/);
    }

    const contactsCalls = (/** @type {typeof first} */ sandbox, /** @type {number} */ from) =>
      sandbox.state.requests.slice(from).filter((r) => r.path === '/api/contacts/');

    it('A3: after the username is edited, the node and the HTTP Request node are both served as the new user', async () => {
      const contactsUrl = `${first.url}/api/contacts/?limit=1`;
      const warmUp = await execute(contactsUrl);
      expect(warmUp.status).toBe(200);
      const demoId = first.state.userByName(p.DEMO_USER.username)?.id;
      const otherId = first.state.userByName(OTHER_USER.username)?.id;
      expect(contactsCalls(first, 0).map((r) => r.userId)).toEqual([demoId, demoId]);

      await editCredential({ username: OTHER_USER.username, password: OTHER_USER.password });
      const from = first.state.requests.length;
      const edited = await execute(contactsUrl);
      expect(edited.status).toBe(200);
      const calls = contactsCalls(first, from);
      expect(calls.map((r) => [r.userId, r.status])).toEqual([
        [otherId, 200],
        [otherId, 200],
      ]);
      expect(first.state.logins.at(-1)).toMatchObject({ username: OTHER_USER.username });
    }, 120_000);

    it('A6: after the Base URL is edited, the new service never receives a token the old one issued: its first request is the login', async () => {
      await editCredential({ baseUrl: second.url });
      const result = await execute(`${second.url}/api/contacts/?limit=1`);
      expect(result.status).toBe(200);
      const received = second.state.requests.map((/** @type {{ path: string, status: number }} */ r) => [r.path, r.status]);
      expect(received[0]).toEqual(['/api/login_check', 200]);
      expect(received.filter(([, status]) => status === 401)).toEqual([]);
      expect(received.filter(([path]) => path === '/api/contacts/')).toEqual([
        ['/api/contacts/', 200],
        ['/api/contacts/', 200],
      ]);
    }, 120_000);
  },
);
