// @ts-check
'use strict';
/**
 * The polling trigger in a real n8n process: example workflow 07 (New Contact -> WhatsApp welcome) is activated
 * and `n8n start` runs it on its schedule (n8n polls at most once a minute). The emulator then shows what the
 * trigger did: nothing for the contacts that existed at activation, exactly one welcome per new contact, also
 * across two scheduled polls.
 */
const p = require('../../tools/provision');
const { activateWorkflow } = require('./lib/activation');
const { selectedVersions } = require('./lib/versions');

const { n8n } = p;
const POLL_WAIT_MS = 150_000; // a scheduled poll comes at most a minute after the previous one

/** @param {() => boolean} condition @param {number} timeoutMs */
async function waitFor(condition, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return condition();
}

for (const major of [2, 1]) {
  const enabled = selectedVersions().includes(major);
  (enabled ? describe : describe.skip)(`n8n ${n8n.VERSIONS[major]} runs the polling trigger on its schedule`, () => {
    /** @type {Awaited<ReturnType<typeof p.startDemoSandbox>>} */
    let sandbox;
    /** @type {import('../../tools/n8n').N8nHome | undefined} */
    let home;
    /** @type {Awaited<ReturnType<typeof n8n.startEditor>> | undefined} */
    let editor;

    beforeAll(async () => {
      const tarball = process.env.CM_E2E_TARBALL;
      if (!tarball) throw new Error('CM_E2E_TARBALL is not set: run with -c test/e2e/jest.config.js');
      sandbox = await p.startDemoSandbox({ port: 0 });
      const provisioned = await p.provisionN8n({ major, tarball, sandboxUrl: sandbox.url });
      home = provisioned.home;
      await activateWorkflow(home, 'cmDemoWorkflow07');
    }, 600_000);

    afterAll(async () => {
      await editor?.stop();
      await sandbox?.close();
      if (home) n8n.removeHome(home);
    });

    it('V1/C1: emits nothing old at activation, then each new contact exactly once, across scheduled polls', async () => {
      if (!home) throw new Error('no n8n home');
      const demo = /** @type {{ id: number }} */ (sandbox.state.userByName(p.DEMO_USER.username));
      const contactPolls = () =>
        sandbox.state.requests.filter((/** @type {{ method: string, path: string }} */ r) => r.method === 'GET' && r.path === '/api/contacts/').length;
      const welcomes = () => sandbox.state.messages.filter((/** @type {{ type: string }} */ m) => m.type === 'whatsapp');
      const welcomesTo = (/** @type {string} */ phone) => welcomes().filter((m) => m.phone === phone);

      editor = await n8n.startEditor(home, {});
      /** Waits for a scheduled poll's effect; when it does not come, the editor's log says why. */
      const waitForOrShowLog = async (/** @type {() => boolean} */ done) => {
        const ok = await waitFor(done, POLL_WAIT_MS);
        if (!ok) {
          const recent = sandbox.state.requests.slice(-10).map((/** @type {{ method: string, path: string, status: number }} */ r) => `${r.method} ${r.path} ${r.status}`);
          process.stderr.write(`[trigger] n8n ${n8n.VERSIONS[major]}: no welcome after ${POLL_WAIT_MS / 1000} s; emulator's last requests: ${JSON.stringify(recent)}\n` +
            `${String(editor?.output() ?? '').split('\n').slice(-80).join('\n')}\n`);
        }
        return ok;
      };
      // Activation: n8n runs the trigger once to record where "now" is. That poll reads two pages (the first, for the
      // total, then the last): a contact added between them would count as one that existed at activation, so the
      // contacts are added once the poll is over (no page asked for a second).
      expect(await waitFor(() => contactPolls() > 0, 60_000)).toBe(true);
      for (let seen = -1; seen !== contactPolls(); ) {
        seen = contactPolls();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const pollsAtActivation = contactPolls();

      const first = ['+4915800000001', '+4915800000002', '+4915800000003'];
      first.forEach((phone, i) => sandbox.state.addContact(demo.id, { firstname: `New${i + 1}`, phone }, new Date().toISOString()));
      expect(await waitForOrShowLog(() => first.every((phone) => welcomesTo(phone).length > 0))).toBe(true);
      expect(contactPolls()).toBeGreaterThan(pollsAtActivation);

      const second = ['+4915800000004', '+4915800000005'];
      second.forEach((phone, i) => sandbox.state.addContact(demo.id, { firstname: `Later${i + 1}`, phone }, new Date().toISOString()));
      expect(await waitForOrShowLog(() => second.every((phone) => welcomesTo(phone).length > 0))).toBe(true);

      // Exactly one welcome per new contact, and none for the 45 contacts that existed at activation.
      for (const phone of [...first, ...second]) expect(welcomesTo(phone)).toHaveLength(1);
      expect(welcomes()).toHaveLength(first.length + second.length);
      expect(welcomesTo('+4915800000001')[0]).toMatchObject({ message: expect.stringMatching(/^Welcome New1!/) });
    }, 400_000);
  });
}
