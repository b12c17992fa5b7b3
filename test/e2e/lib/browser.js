// @ts-check
'use strict';
/**
 * Drives the REAL n8n editor (started by n8n.js startEditor) in headless Chromium: Debian's `chromium` package
 * (/usr/bin/chromium, installed by scripts/ensure-chromium.sh) through playwright-core (no browser download).
 * Selectors are n8n's own `data-test-id`s, read from the n8n 2.40.7 editor; the editor of n8n 1.x differs, so the
 * browser test runs on 2.x only.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** This machine type has no internet: nothing in the browser may try to reach it. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/**
 * Where the screenshots go: a temporary folder during `npm test` (so a test run leaves the checkout clean), or
 * CM_SCREENSHOTS_DIR; `npm run screenshots` points it at docs/screenshots, which the README shows.
 */
const SCREENSHOTS_DIR = process.env.CM_SCREENSHOTS_DIR || path.join(os.tmpdir(), 'cm-screenshots');
const VIEWPORT = { width: 1440, height: 900 };

/** @typedef {import('playwright-core').Page} Page @typedef {import('playwright-core').Locator} Locator */

/** @returns {Promise<import('playwright-core').Browser>} */
async function launchChromium() {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: run scripts/ensure-chromium.sh (apt-get install -y chromium)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** @param {string} id n8n's data-test-id */
const tid = (id) => `[data-test-id="${id}"]`;

/**
 * Signs in through the editor's sign-in form (the owner exists already: startEditor sets it up).
 * @param {Page} page @param {string} url editor URL @param {{ email: string, password: string }} owner
 */
async function signIn(page, url, owner) {
  await page.goto(`${url}/signin`);
  await page.locator('input[name="emailOrLdapLoginId"]').fill(owner.email);
  await page.locator('input[name="password"]').fill(owner.password);
  await page.locator(tid('form-submit-button')).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/**
 * Waits until the page has settled enough for a screenshot: no network for 500 ms, web fonts loaded, no loading
 * spinner, then two animation frames and a short pause for n8n's panel transitions.
 * @param {Page} page
 */
async function settle(page) {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page
    .locator('.el-loading-spinner, [data-test-id="loading"], .n8n-loading')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
  await page.waitForTimeout(400);
}

/**
 * Opens a workflow of the editor and waits for its canvas nodes.
 * @param {Page} page @param {string} url @param {string} workflowId
 */
async function openWorkflow(page, url, workflowId) {
  await page.goto(`${url}/workflow/${workflowId}`);
  await page.locator(tid('canvas-node')).first().waitFor({ timeout: 30_000 });
  await settle(page);
}

/** @param {Page} page @param {string} name */
const canvasNode = (page, name) => page.locator(`${tid('canvas-node')}[data-node-name="${name}"]`);

/**
 * Opens a node's panel (NDV) by double-clicking it on the canvas.
 * @param {Page} page @param {string} name
 */
async function openNode(page, name) {
  await canvasNode(page, name).dblclick();
  await page.locator(tid('ndv')).waitFor({ timeout: 15_000 });
  await page.locator(tid('node-parameters')).waitFor({ timeout: 15_000 });
  await settle(page);
}

/**
 * Opens an options parameter's dropdown and returns the names of its options (first line of each entry; the
 * second is the option's description). Closes it again unless keepOpen.
 * @param {Page} page @param {string} parameter the parameter's name (resource, operation, ...)
 * @param {{ keepOpen?: boolean }} [opts]
 */
async function dropdownOptions(page, parameter, opts = {}) {
  await page.locator(tid(`parameter-input-${parameter}`)).click();
  const items = page.locator(`${tid('parameter-input-item')}:visible`);
  await items.first().waitFor({ timeout: 10_000 });
  const texts = await items.allInnerTexts();
  if (!opts.keepOpen) {
    await page.keyboard.press('Escape');
    await items.first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }
  return texts.map((t) => t.split('\n')[0].trim());
}

/**
 * Picks an option of an options parameter by its shown name.
 * @param {Page} page @param {string} parameter @param {string} optionName
 */
async function selectOption(page, parameter, optionName) {
  await page.locator(tid(`parameter-input-${parameter}`)).click();
  const option = page.locator(`${tid('parameter-input-item')}:visible`).filter({
    has: page.getByText(optionName, { exact: true }),
  });
  await option.first().click();
  await page.locator(`${tid('parameter-input-item')}:visible`).first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  await settle(page);
}

/**
 * The labels of the parameters the node panel shows, in order (the visible `parameter-item`s' first line).
 * @param {Page} page
 */
async function parameterLabels(page) {
  const labels = await page.locator(`${tid('node-parameters')} ${tid('input-label')}:visible`).allInnerTexts();
  return labels.map((l) => l.split('\n')[0].replace(/\s*\*$/, '').trim()).filter(Boolean);
}

/**
 * The fields of a resource mapper parameter (Template > Send's Variables) as the node panel shows them, in order:
 * each field's label and its value (the text of an input, or of an expression editor without its leading "=").
 * None when no mapper fields are shown.
 * @param {Page} page
 * @returns {Promise<Array<{ label: string, value: string }>>}
 */
async function mappedFields(page) {
  const container = page.locator(`${tid('ndv')} ${tid('mapping-fields-container')}`);
  if ((await container.count()) === 0) return [];
  return container.locator('.parameter-item').evaluateAll((items) =>
    items.map((item) => {
      const label = /** @type {HTMLElement | null} */ (item.querySelector('[data-test-id="input-label"]'));
      const input = /** @type {HTMLInputElement | HTMLTextAreaElement | null} */ (item.querySelector('input, textarea'));
      const editor = /** @type {HTMLElement | null} */ (item.querySelector('.cm-content'));
      return {
        label: (label?.innerText ?? '').split('\n')[0].replace(/\s*\*$/, '').trim(),
        value: (editor ? editor.innerText : input?.value ?? '').trim(),
      };
    }),
  );
}

/**
 * Picks an entry of a resource locator's list (mode "From list") by a text it contains.
 * @param {Page} page @param {string} parameter e.g. templateId @param {string} text
 */
async function pickFromList(page, parameter, text) {
  await page.locator(`${tid(`resource-locator-${parameter}`)} ${tid('rlc-input')}`).click();
  await page.locator(`${tid('rlc-item')}:visible`).filter({ hasText: text }).first().click();
  await settle(page);
}

/**
 * Waits (up to 20 s) until the resource mapper shows the fields with these labels, e.g. after another template was
 * picked; returns the labels shown in the end, for the test's assertion.
 * @param {Page} page @param {string[]} labels
 * @returns {Promise<string[]>}
 */
async function waitForMappedLabels(page, labels) {
  let shown = /** @type {string[]} */ ([]);
  for (const until = Date.now() + 20_000; Date.now() < until; await page.waitForTimeout(250)) {
    shown = (await mappedFields(page)).map((field) => field.label);
    if (JSON.stringify(shown) === JSON.stringify(labels)) break;
  }
  await settle(page);
  return shown;
}

/**
 * Types a fixed value into a field of a resource mapper parameter, by the field's id (e.g. "body:1").
 * @param {Page} page @param {string} fieldId @param {string} value
 */
async function fillMappedField(page, fieldId, value) {
  const input = page.locator(`${tid('ndv')} ${tid('mapping-fields-container')} ${tid(`parameter-input-${fieldId}`)} input`).first();
  await input.fill(value);
  await input.press('Tab');
}

/**
 * Opens the node creator (the "+" at the top right of the canvas) and types a search.
 * @param {Page} page @param {string} text
 * @returns {Promise<string[]>} the names of the items found
 */
async function searchNodes(page, text) {
  const creator = page.locator(tid('node-creator'));
  if (!(await creator.isVisible())) {
    await page.locator(tid('node-creator-plus-button')).click();
    await creator.waitFor({ timeout: 10_000 });
  }
  const input = page.locator(`${tid('node-creator-search-bar')} input, ${tid('search-bar')} input`).first();
  await input.fill(text);
  // The list is filtered as one types; wait until it shows the results for this text.
  await page.waitForTimeout(300);
  await settle(page);
  return (await page.locator(`${tid('node-creator')} ${tid('node-creator-item-name')}`).allInnerTexts()).map((t) => t.trim());
}

/**
 * The rectangle around every element matching a selector, plus margins, kept inside the viewport: a screenshot
 * clip. A canvas node's label and subtitle hang below its box and its "+" handle right of it: margins cover them.
 * @param {Page} page @param {string} selector
 * @param {{ top?: number, right?: number, bottom?: number, left?: number }} [margin]
 * @returns {Promise<{ x: number, y: number, width: number, height: number }>}
 */
async function boundsOf(page, selector, margin = {}) {
  const boxes = (await Promise.all((await page.locator(selector).all()).map((l) => l.boundingBox()))).filter((bx) => bx !== null);
  if (boxes.length === 0) throw new Error(`nothing visible matches ${selector}`);
  const m = { top: 0, right: 0, bottom: 0, left: 0, ...margin };
  const vp = page.viewportSize() ?? VIEWPORT;
  const x = Math.max(0, Math.floor(Math.min(...boxes.map((bx) => bx.x)) - m.left));
  const y = Math.max(0, Math.floor(Math.min(...boxes.map((bx) => bx.y)) - m.top));
  const right = Math.min(vp.width, Math.ceil(Math.max(...boxes.map((bx) => bx.x + bx.width)) + m.right));
  const bottom = Math.min(vp.height, Math.ceil(Math.max(...boxes.map((bx) => bx.y + bx.height)) + m.bottom));
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * Saves a PNG under the screenshots folder; fails when the capture is (nearly) blank, which means it was taken
 * before the page had rendered.
 * @param {Page | Locator} target @param {string} name file name without .png
 * @param {import('playwright-core').PageScreenshotOptions} [opts]
 * @returns {Promise<string>} the file's path
 */
async function screenshot(target, name, opts = {}) {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  const png = await target.screenshot({ ...opts, path: file, animations: 'disabled', caret: 'hide' });
  // A blank capture compresses to almost nothing; a real editor view is tens of kilobytes.
  if (png.length < 15_000) throw new Error(`screenshot ${name}.png is ${png.length} bytes: the page was not rendered yet`);
  return file;
}

module.exports = {
  CHROMIUM_PATH,
  CHROMIUM_ARGS,
  SCREENSHOTS_DIR,
  VIEWPORT,
  launchChromium,
  tid,
  signIn,
  settle,
  openWorkflow,
  canvasNode,
  openNode,
  dropdownOptions,
  selectOption,
  parameterLabels,
  mappedFields,
  pickFromList,
  waitForMappedLabels,
  fillMappedField,
  searchNodes,
  boundsOf,
  screenshot,
};
