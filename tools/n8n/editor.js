// @ts-check
'use strict';
/**
 * The n8n editor server (`n8n start`) of a home, its owner, REST login and the credential test endpoint.
 */
const { startLongRunning, tail } = require('./process');
const { n8nRequire } = require('./runtime');

/** The browser-id header n8n ties its auth cookie to (same value for login and later requests). */
const BROWSER_ID = 'cm-e2e-browser';

/**
 * @typedef {import('./runtime').Runtime} Runtime @typedef {import('./home').N8nHome} N8nHome
 * @typedef {{ email: string, password: string, firstName?: string, lastName?: string }} Owner
 * @typedef {{ url: string, port: number, pid: number | undefined, home: N8nHome, owner: Owner | undefined,
 *   ownerCookie: string | undefined, output: () => string, stop: () => Promise<void> }} Editor
 */

/**
 * bcrypt hash of a password, made with the bcrypt implementation inside the installed n8n.
 * @param {Runtime} runtime @param {string} password
 */
function bcryptHash(runtime, password) {
  const req = n8nRequire(runtime);
  /** @type {any} */
  let bcrypt;
  for (const from of ['bcryptjs', '@n8n/backend-common/node_modules/bcryptjs', 'n8n/node_modules/bcryptjs']) {
    try {
      bcrypt = req(from);
      break;
    } catch {
      /* next */
    }
  }
  if (!bcrypt) throw new Error(`no bcryptjs found inside ${runtime.dir}`);
  return bcrypt.hashSync(password, 10);
}

/**
 * @param {string} url @param {{ method?: string, body?: unknown, cookie?: string, timeoutMs?: number }} [opts]
 * @returns {Promise<{ status: number, headers: Headers, body: any, text: string }>}
 */
async function http(url, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = { 'browser-id': BROWSER_ID, accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(url, {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    redirect: 'manual',
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** @param {Headers} headers @returns {string | undefined} "n8n-auth=..." */
function authCookie(headers) {
  const all = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [headers.get('set-cookie') ?? ''];
  for (const c of all) {
    const m = /(?:^|,\s*)(n8n-auth=[^;]+)/.exec(c);
    if (m) return m[1];
  }
  return undefined;
}

/**
 * Starts the n8n editor/server (`n8n start`) for the home and waits until /healthz answers 200 and the REST
 * API is up (`GET /rest/settings` answers its JSON).
 * With `owner`, the instance gets that owner without the sign-up screen: on 2.x via
 * N8N_INSTANCE_OWNER_MANAGED_BY_ENV + N8N_INSTANCE_OWNER_EMAIL + N8N_INSTANCE_OWNER_PASSWORD_HASH; on 1.x via
 * `POST /rest/owner/setup` right after start. Then `editor.ownerCookie` holds a logged-in session cookie.
 * @param {N8nHome} home
 * @param {{ port?: number, owner?: Owner, timeoutMs?: number, env?: Record<string, string>, echo?: boolean }} [opts]
 * @returns {Promise<Editor>}
 */
async function startEditor(home, opts = {}) {
  const port = opts.port ?? home.ports.n8n;
  const owner = opts.owner ? { firstName: 'E2E', lastName: 'Owner', ...opts.owner } : undefined;
  /** @type {Record<string, string>} */
  const env = {
    ...home.env,
    N8N_PORT: String(port),
    N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
    ...(home.runtime.major >= 2 ? { N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/` } : { WEBHOOK_URL: `http://127.0.0.1:${port}/` }),
    ...(opts.env ?? {}),
  };
  if (owner && home.runtime.major >= 2) {
    Object.assign(env, {
      N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
      N8N_INSTANCE_OWNER_EMAIL: owner.email,
      N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName,
      N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName,
      N8N_INSTANCE_OWNER_PASSWORD_HASH: bcryptHash(home.runtime, owner.password),
    });
  }
  const service = startLongRunning(home.runtime.nodeBin, [home.runtime.n8nBin, 'start'], { env, cwd: home.home, echo: opts.echo });
  const { output, stop } = service;
  const url = `http://127.0.0.1:${port}`;
  /** @type {Editor} */
  const editor = { url, port, pid: service.pid, home, owner, ownerCookie: undefined, output, stop };
  try {
    const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
    for (;;) {
      if (service.exitCode() !== undefined) throw new Error(`n8n start exited with ${service.exitCode()} before answering:\n${tail(output(), 60)}`);
      if (Date.now() > deadline) throw new Error(`n8n start did not answer /healthz in time:\n${tail(output(), 60)}`);
      try {
        // /healthz answers as soon as the port listens, before migrations (meanwhile every other path answers
        // 200 "n8n is starting up. Please wait") and before the REST routes are registered (404). The public
        // GET /rest/settings returns its JSON {data: {...}} only once the server is fully up.
        const h = await http(`${url}/healthz`, { timeoutMs: 2000 });
        if (h.status === 200) {
          const s = await http(`${url}/rest/settings`, { timeoutMs: 5000 });
          if (s.status === 200 && s.body && typeof s.body === 'object' && s.body.data) break;
        }
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    if (owner) {
      if (home.runtime.major < 2) {
        const r = await http(`${url}/rest/owner/setup`, {
          body: { email: owner.email, firstName: owner.firstName, lastName: owner.lastName, password: owner.password },
        });
        if (r.status !== 200) throw new Error(`POST /rest/owner/setup -> ${r.status}: ${r.text.slice(0, 500)}`);
      }
      editor.ownerCookie = await restLogin(editor, owner);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return editor;
}

/**
 * Logs in through the REST API; returns the session cookie ("n8n-auth=...") to pass to later calls.
 * @param {{ url: string }} editor @param {{ email: string, password: string }} owner
 * @returns {Promise<string>}
 */
async function restLogin(editor, owner) {
  // 1.123 and 2.x: LoginRequestDto {emailOrLdapLoginId, password, mfaCode?, mfaRecoveryCode?}
  const r = await http(`${editor.url}/rest/login`, {
    body: { emailOrLdapLoginId: owner.email, password: owner.password },
  });
  const cookie = authCookie(r.headers);
  if (r.status !== 200 || !cookie) throw new Error(`POST /rest/login -> ${r.status}: ${r.text.slice(0, 500)}`);
  return cookie;
}

/**
 * Creates a credential through the REST API (`POST /rest/credentials` {name, type, data}); returns its id.
 * @param {{ url: string }} editor @param {string} cookie
 * @param {{ name?: string, type: string, data: Record<string, unknown> }} credential
 * @returns {Promise<string>}
 */
async function createCredential(editor, cookie, credential) {
  const r = await http(`${editor.url}/rest/credentials`, {
    body: { name: credential.name ?? `e2e ${credential.type}`, type: credential.type, data: credential.data },
    cookie,
  });
  const id = (r.body?.data ?? r.body)?.id;
  if (r.status !== 200 || !id) throw new Error(`POST /rest/credentials -> ${r.status}: ${r.text.slice(0, 500)}`);
  return String(id);
}

/**
 * Calls the editor's credential test (`POST /rest/credentials/test` {credentials: {id, name, type, data}}),
 * which runs the credential type's `test` request (or a node's credential-test method). n8n only tests a
 * STORED credential the user can read (it merges the given plaintext `data` over the stored one), so without
 * `id` the credential is first created with createCredential().
 * @param {{ url: string }} editor @param {string} cookie from restLogin / editor.ownerCookie
 * @param {{ id?: string, name?: string, type: string, data: Record<string, unknown> }} credential
 * @returns {Promise<{ status: 'OK' | 'Error' | string, message: string, httpStatus: number, body: any, id: string }>}
 */
async function testCredential(editor, cookie, credential) {
  const id = credential.id ?? (await createCredential(editor, cookie, credential));
  const credentials = { id, name: credential.name ?? `e2e ${credential.type}`, type: credential.type, data: credential.data };
  const r = await http(`${editor.url}/rest/credentials/test`, { body: { credentials }, cookie });
  const result = r.body?.data ?? r.body;
  return { status: result?.status, message: result?.message, httpStatus: r.status, body: r.body, id };
}

/**
 * Edits a stored credential the way the editor saves it: reads it with its data (n8n redacts the password-type
 * fields), changes the given fields, writes it back (n8n puts the redacted fields back from what it stored).
 * Returns the data the editor saw.
 * @param {{ url: string }} editor @param {string} cookie @param {string} id @param {Record<string, unknown>} changes
 * @returns {Promise<Record<string, unknown>>}
 */
async function editCredential(editor, cookie, id, changes) {
  const read = await http(`${editor.url}/rest/credentials/${id}?includeData=true`, { cookie });
  const credential = read.body?.data ?? read.body;
  if (read.status !== 200 || !credential?.data) throw new Error(`GET /rest/credentials/${id} -> ${read.status}: ${read.text.slice(0, 300)}`);
  const write = await http(`${editor.url}/rest/credentials/${id}`, {
    method: 'PATCH',
    body: { name: credential.name, type: credential.type, data: { ...credential.data, ...changes } },
    cookie,
  });
  if (write.status !== 200) throw new Error(`PATCH /rest/credentials/${id} -> ${write.status}: ${write.text.slice(0, 300)}`);
  return credential.data;
}

/** The methods n8n's MCP Server Trigger registers on its URL: SSE stream, messages, session end. */
const MCP_TRIGGER_METHODS = ['GET', 'POST', 'DELETE'];

/**
 * Waits until a running n8n serves an active workflow's production URL (a Webhook's, an MCP Server Trigger's). n8n
 * answers its REST API before it has registered the active workflows' webhooks: until then such a URL is a 404
 * "not registered". Asked without side effects: a CORS preflight (OPTIONS with an Origin), which n8n answers with
 * the webhook's methods in `Access-Control-Allow-Methods` once it is registered, and with OPTIONS alone before.
 * n8n registers a trigger's webhooks one method at a time (an MCP Server Trigger has GET, POST and DELETE), so a
 * caller that needs several names them all: the first one alone answering is not enough.
 * @param {string} url
 * @param {{ methods?: string[], timeoutMs?: number }} [options] methods: all must be registered (default: any one)
 */
async function waitForProductionUrl(url, { methods = [], timeoutMs = 120_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(url, { method: 'OPTIONS', headers: { Origin: new URL(url).origin } }).catch(() => undefined);
    const allowed = (res?.headers.get('access-control-allow-methods') ?? '')
      .split(',')
      .map((method) => method.trim().toUpperCase())
      .filter((method) => method !== '' && method !== 'OPTIONS');
    const ready = methods.length === 0 ? allowed.length > 0 : methods.every((method) => allowed.includes(method.toUpperCase()));
    if (ready) return;
    if (Date.now() > deadline) {
      const wanted = methods.length === 0 ? 'any method' : methods.join(', ');
      throw new Error(`n8n has not registered ${url} for ${wanted} in time (OPTIONS answered ${res?.status ?? 'nothing'}, methods "${allowed.join(', ')}")`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

module.exports = { bcryptHash, startEditor, restLogin, createCredential, testCredential, editCredential, waitForProductionUrl, MCP_TRIGGER_METHODS };
