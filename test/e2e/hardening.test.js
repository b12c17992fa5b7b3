// @ts-check
'use strict';
/**
 * The transport's hardening in a REAL n8n 2.x process (`n8n execute`), against the emulator and a "trap": another
 * loopback server that must receive nothing.
 * - A6 redirects: the service redirects the node (an API call, the login) or n8n's HTTP Request node to another
 *   host; the run fails naming the status and host:port, and the trap gets no request at all.
 * - A6 credential: the HTTP Request node with this credential aimed at another host fails before sending anything.
 * - A3: the emulator restarted with another signing key between two executions; the stored token is refused and
 *   the next run heals with exactly one login.
 * - A6 logs: n8n's debug output and every execution error of this file hold no password, plugin key or token the
 *   emulator issued, also when the service echoes the request (headers and body) in an error page.
 */
const fs = require('node:fs');
const path = require('node:path');
const p = require('../../tools/provision');
const { startTrap } = require('../../sandbox');
const { selectedVersions } = require('./lib/versions');

const { n8n } = p;
const MAJOR = 2;

const CREDENTIALS = { commerceMessagingApi: { id: p.DEMO_CREDENTIAL_ID, name: p.DEMO_CREDENTIAL_NAME } };

/**
 * Manual Trigger -> one node.
 * @param {string} id 16 characters, like n8n's
 * @param {string} name
 * @param {Record<string, any>} node
 */
function oneNodeWorkflow(id, name, node) {
  return {
    id,
    name,
    nodes: [
      { parameters: {}, id: `${id}-start`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
      { id: `${id}-node`, position: [220, 0], credentials: CREDENTIALS, ...node },
    ],
    connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
    pinData: {},
    active: false,
  };
}

/** The node's Custom API Call: GET /api/user/profile/ (the emulator's extension path). */
const profileWorkflow = () =>
  oneNodeWorkflow('cmE2eHardProfile', 'e2e hardening: read the profile (node)', {
    parameters: { resource: 'customApiCall', operation: 'request', method: 'GET', path: '/api/user/profile/', options: {} },
    name: 'Read profile',
    type: p.NODE_TYPE,
    typeVersion: 1,
  });

/** Products need the plugin headers: the request carries the token AND the plugin API key. */
const productsWorkflow = () =>
  oneNodeWorkflow('cmE2eHardProduct', 'e2e hardening: list products (node, plugin headers)', {
    parameters: { resource: 'product', operation: 'getAll', returnAll: false, limit: 3 },
    name: 'Get products',
    type: p.NODE_TYPE,
    typeVersion: 1,
  });

/**
 * n8n's HTTP Request node with this package's credential (predefined credential type), as in workflow 06.
 * @param {string} id @param {string} url
 */
const httpRequestWorkflow = (id, url) =>
  oneNodeWorkflow(id, `e2e hardening: HTTP Request node with the credential to ${url}`, {
    parameters: { url, authentication: 'predefinedCredentialType', nodeCredentialType: p.CREDENTIAL_TYPE, options: {} },
    name: 'HTTP Request',
    type: 'n8n-nodes-base.httpRequest',
    typeVersion: 4.2,
  });

/**
 * Records every token the emulator hands out: the body of each login answer, read at the socket (the emulator's
 * own log keeps no tokens). Test-side only; the emulator is not changed.
 * @param {{ app: { server: import('node:http').Server } }} emulator
 * @param {string[]} into
 */
function recordIssuedTokens(emulator, into) {
  emulator.app.server.prependListener('request', (req, res) => {
    if (!/^\/api\/login_check\/?(\?|$)/.test(req.url ?? '')) return;
    const end = /** @type {(...args: any[]) => any} */ (res.end);
    res.end = /** @type {any} */ (
      function (/** @type {any[]} */ ...args) {
        try {
          const token = JSON.parse(String(args[0])).token;
          if (typeof token === 'string') into.push(token);
        } catch {
          // not a token answer (an error, a fault)
        }
        return end.apply(res, args);
      }
    );
  });
}

(selectedVersions().includes(MAJOR) ? describe : describe.skip)(
  `n8n ${n8n.VERSIONS[MAJOR]} (real process): secrets never leave for another host, in logs or errors; a refused token heals`,
  () => {
    /** @type {Awaited<ReturnType<typeof p.startDemoSandbox>>} */
    let sandbox;
    /** @type {Awaited<ReturnType<typeof startTrap>>} */
    let trap;
    /** @type {import('../../tools/n8n').N8nHome | undefined} */
    let home;
    /** @type {string[]} every token any emulator of this file issued */
    const issuedTokens = [];
    /** @type {Array<{ name: string, output: string, error: string }>} every execution: n8n's whole output, the run's error */
    const runs = [];
    const demo06 = { id: 'cmDemoWorkflow06', name: 'workflow 06 (custom API call + HTTP Request node)' };
    /** @type {Record<string, { id: string, name: string }>} */
    let wf = {};

    /** @param {{ port?: number, signingKey: string }} options */
    async function startEmulator(options) {
      const sb = await p.startDemoSandbox(options);
      recordIssuedTokens(sb, issuedTokens);
      return sb;
    }

    beforeAll(async () => {
      const tarball = process.env.CM_E2E_TARBALL;
      if (!tarball) throw new Error('CM_E2E_TARBALL is not set: run with -c test/e2e/jest.config.js (its globalSetup packs the package)');
      trap = await startTrap();
      sandbox = await startEmulator({ port: 0, signingKey: 'e2e-hardening-signing-key-first' });
      const extra = [
        profileWorkflow(),
        productsWorkflow(),
        httpRequestWorkflow('cmE2eHardHttpTrp', `${trap.url}/api/user/profile/`),
        httpRequestWorkflow('cmE2eHardHttpRdr', `${sandbox.url}/api/user/profile/`),
      ];
      wf = Object.fromEntries(extra.map((w) => [w.id, { id: w.id, name: w.name }]));
      const provisioned = await p.provisionN8n({ major: MAJOR, tarball, sandboxUrl: sandbox.url, extraWorkflows: extra });
      home = provisioned.home;
    }, 600_000);

    afterAll(async () => {
      await sandbox?.close();
      await trap?.close();
      if (home) n8n.removeHome(home);
    });

    beforeEach(() => {
      sandbox.reset();
    });

    /**
     * `n8n execute`; keeps the output and error for the log check.
     * @param {{ id: string, name: string }} workflow
     */
    async function execute(workflow) {
      if (!home) throw new Error('no n8n home');
      const result = await n8n.executeWorkflow(home, workflow.id, { timeoutMs: 120_000 });
      runs.push({ name: workflow.name, output: `${result.stdout}\n${result.stderr}`, error: JSON.stringify(result.error ?? null) });
      return result;
    }

    /** @param {{ id: string, name: string }} workflow */
    async function executeOk(workflow) {
      const result = await execute(workflow);
      if (!p.runSucceeded(result).ok) {
        throw new Error(`${workflow.name} failed: ${result.error?.message ?? `exit ${result.code}`}\n${(result.stdout + result.stderr).split('\n').slice(-30).join('\n')}`);
      }
      return result;
    }

    /** @param {{ id: string, name: string }} workflow */
    async function executeFailing(workflow) {
      const result = await execute(workflow);
      expect(result.ok).toBe(false);
      expect(result.error).toBeDefined();
      return { result, text: `${result.error?.message ?? ''}\n${result.error?.description ?? ''}` };
    }

    /** What reached the trap, without its headers (a failure must not print the token it caught). */
    const trapSaw = () => trap.requests.map((r) => `${r.method} ${r.url}${r.headers.authorization ? ' (Authorization)' : ''}${r.headers['x-api-key'] ? ' (x-api-key)' : ''}`);

    /** A redirect target with a path and query: the error may name host:port, never these. */
    const trapTarget = () => `${trap.url}/collect/secrets?session=from-redirect`;

    it('A6: the service redirects an API call (GET, 302) to another host: the run fails naming 302 and host:port, the trap receives nothing', async () => {
      sandbox.faults.inject({ method: 'GET', path: '/api/user/profile/', kind: 'redirect', status: 302, location: trapTarget() });
      const { result } = await executeFailing(wf.cmE2eHardProfile);
      expect(result.error.message).toBe(`The service answered HTTP 302 with a redirect to another host (127.0.0.1:${trap.port}); it was not followed`);
      expect(JSON.stringify(result.error)).not.toMatch(/collect|secrets|session=/);
      // The request did reach the emulator with the token (so it had something to lose), once.
      const calls = sandbox.state.requests.filter((r) => r.path === '/api/user/profile/');
      expect(calls.map((r) => [r.status, r.authorization])).toEqual([[302, true]]);
      expect(trapSaw()).toEqual([]);
    });

    it('A6: the service redirects the login (POST, 307 would re-post the password) to another host: refused, the trap receives nothing', async () => {
      sandbox.revokeTokens(); // the token n8n holds is refused: the next call logs in again
      sandbox.faults.inject({ method: 'POST', path: '/api/login_check', kind: 'redirect', status: 307, location: trapTarget() });
      const { result } = await executeFailing(wf.cmE2eHardProfile);
      expect(result.error.message).toBe(
        `Login to the Commerce Messaging service failed: The service answered HTTP 307 with a redirect to another host (127.0.0.1:${trap.port}); it was not followed. ` +
          'The session token, the plugin API key and the password are only ever sent to the Base URL. Nothing was sent to the redirect target. ' +
          'If the service has moved, change the Base URL of the Commerce Messaging credential.',
      );
      expect(JSON.stringify(result.error)).not.toMatch(/collect|secrets|session=/);
      expect(sandbox.state.requests.filter((r) => r.path === '/api/login_check').map((r) => r.status)).toEqual([307]);
      expect(trapSaw()).toEqual([]);
    });

    it('A6: the service redirects n8n\'s HTTP Request node (with this credential, 301) to another host: not followed, the trap receives nothing', async () => {
      sandbox.faults.inject({ method: 'GET', path: '/api/user/profile/', kind: 'redirect', status: 301, location: trapTarget(), times: Infinity });
      const { result } = await executeFailing(wf.cmE2eHardHttpRdr);
      // n8n's own words for a 3xx it was told not to follow; its credential headers are shown hidden.
      expect(result.error.httpCode).toBe('301');
      expect(result.error.context?.request).toMatchObject({ followRedirect: false, followAllRedirects: false, headers: { Authorization: '**hidden**' } });
      // n8n logs in again after any failed request and sends it once more: the same 301, never followed.
      const calls = sandbox.state.requests.filter((r) => r.path === '/api/user/profile/');
      expect(calls.length).toBeGreaterThanOrEqual(1);
      expect(calls.every((r) => r.status === 301 && r.authorization)).toBe(true);
      expect(trapSaw()).toEqual([]);
    });

    it('A6: n8n\'s HTTP Request node with this credential aimed at another host fails, saying the credential only signs its own service; the trap receives nothing', async () => {
      const { result, text } = await executeFailing(wf.cmE2eHardHttpTrp);
      expect(text).toContain(
        `The Commerce Messaging credential only signs requests to its own service (${sandbox.url}); this request goes to 127.0.0.1:${trap.port}, so it was not sent with the credential`,
      );
      expect(result.error.node?.name ?? result.run?.data?.resultData?.lastNodeExecuted).toBe('HTTP Request');
      // No token, no x-api-key, no request at all.
      expect(trapSaw()).toEqual([]);
    });

    it('A3: the emulator restarted with a new signing key between two executions: the next run succeeds with exactly one new login', async () => {
      await executeOk(demo06); // n8n now stores a token signed with the first key
      const { port } = sandbox;
      const oldKeyTokens = issuedTokens.length;
      expect(oldKeyTokens).toBeGreaterThan(0);
      await sandbox.close();
      sandbox = await startEmulator({ port, signingKey: 'e2e-hardening-signing-key-second' });
      expect(sandbox.url).toBe(`http://127.0.0.1:${port}`);

      const result = await executeOk(demo06);
      expect(sandbox.loginCount()).toBe(1);
      expect(result.nodeOutput('Read profile (HTTP Request node)')).toEqual([expect.objectContaining({ status: 'success' })]);
      const api = sandbox.state.requests.filter((r) => r.path !== '/api/login_check');
      // The stored token (old key) was sent and refused as invalid (not expired), once; then everything succeeded.
      expect(api[0]).toMatchObject({ status: 401, authorization: true });
      expect(api[0].tokenExpired).toBeUndefined();
      expect(api.slice(1).map((r) => r.status)).toEqual(api.slice(1).map(() => 200));
      expect(api.length).toBeGreaterThanOrEqual(4); // PUT (401, then 200), GET by the node, GET by the HTTP Request node

      // The healed token was stored: the run after that logs in no more.
      await executeOk(demo06);
      expect(sandbox.loginCount()).toBe(1);
    });

    it('A6: an error page that echoes the request (headers, body) reaches no error or log: not on an API call with the plugin key, not on the login', async () => {
      sandbox.faults.inject({ method: 'GET', path: '/api/v1/products/', kind: 'echo-headers', status: 400 });
      const apiCall = await executeFailing(wf.cmE2eHardProduct);
      const echoed = sandbox.state.requests.filter((r) => r.path === '/api/v1/products/');
      expect(echoed.map((r) => [r.status, r.authorization, r.fault])).toEqual([[400, true, 'echo-headers']]);
      expect(apiCall.text).toMatch(/400/);

      sandbox.revokeTokens();
      sandbox.faults.inject({ method: 'POST', path: '/api/login_check', kind: 'echo-headers', status: 400 });
      const login = await executeFailing(wf.cmE2eHardProfile);
      expect(login.result.error.message).toMatch(/^Login to the Commerce Messaging service failed: /);
      expect(sandbox.state.requests.filter((r) => r.path === '/api/login_check').map((r) => r.status)).toEqual([400]);
      // What these errors and logs must not hold is checked, with every other run of this file, by the next test.
    });

    it('A6: no password, plugin API key or issued token in n8n\'s output (debug level) or any execution error of this file', async () => {
      if (!home) throw new Error('no n8n home');
      // The token n8n holds now is one the emulator issued (the record is complete), and every login left a token.
      const exported = path.join(home.home, 'imports', 'exported-credential.json');
      const exportRun = await n8n.runN8n(home, ['export:credentials', `--id=${p.DEMO_CREDENTIAL_ID}`, '--decrypted', `--output=${exported}`]);
      expect(exportRun.code).toBe(0);
      const stored = JSON.parse(fs.readFileSync(exported, 'utf8'));
      fs.rmSync(exported, { force: true });
      const storedToken = (Array.isArray(stored) ? stored[0] : stored).data.sessionToken;
      expect(typeof storedToken).toBe('string');
      expect(issuedTokens).toContain(storedToken);

      expect(runs.length).toBeGreaterThanOrEqual(9);
      expect(issuedTokens.length).toBeGreaterThanOrEqual(3);
      // A token, and its signature alone (a token cut in a log line is still a leak).
      const secrets = [
        ['password', p.DEMO_USER.password],
        ['plugin API key', p.DEMO_PLUGIN.pluginApiKey],
        ...issuedTokens.flatMap((t, i) => [
          [`token #${i + 1}`, t],
          [`signature of token #${i + 1}`, t.split('.')[2]],
        ]),
      ];
      const leaks = [];
      for (const run of runs) {
        for (const [label, secret] of secrets) {
          if (run.output.includes(secret)) leaks.push(`${label} in n8n's output of "${run.name}"`);
          if (run.error.includes(secret)) leaks.push(`${label} in the execution error of "${run.name}"`);
        }
      }
      expect(leaks).toEqual([]);
      expect(trapSaw()).toEqual([]);
    });
  },
);
