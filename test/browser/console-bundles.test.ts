// The console's bundle pages in a real browser: a refused upload shows its guard, an accepted one
// gives a handle whose agent streams a run with a tool call as a chat transcript, the conversation
// goes on, and markup coming from the model or a tool stays inert text.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../fixtures/zip-builder.js';
import { DEV_SETTINGS, launchChromium, type PageGlobals, openPage, screenshot, seriousA11yViolations, startConsoleServer, type ConsoleServer, type WatchedPage } from './harness.js';

let server: ConsoleServer;
let browser: Browser;
let tab: WatchedPage;

const AGENT = '---\nid: console-helper\nname: Console helper\nallowed-tools: [clock, calculator, text]\n---\nYou help with times and sums.\n';
const GOOD = buildZip({ entries: [{ name: 'AGENT.md', data: AGENT }] });
const ESCAPING = buildZip({ entries: [{ name: 'AGENT.md', data: AGENT }, { name: '../outside.md', data: 'x' }] });
const PAYLOAD = '<img src=x onerror="window.__xss = 1">';

beforeAll(async () => {
  server = await startConsoleServer(DEV_SETTINGS);
  browser = await launchChromium();
  tab = await openPage(browser, [server.url]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function refusalDetail(bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'bundle.zip');
  const response = await fetch(`${server.url}/api/bundles`, { method: 'POST', body: form });
  expect(response.status).toBe(400);
  return ((await response.json()) as { detail: string }).detail;
}

describe('console: bundles', () => {
  it('shows the guard that refused an archive', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/bundles`);
    await page.getByLabel(/Bundle archive/).setInputFiles({ name: 'escaping.zip', mimeType: 'application/zip', buffer: ESCAPING });
    await page.getByRole('button', { name: 'Upload' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The bundle was refused' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(await refusalDetail(ESCAPING));
  });

  it('uploads a bundle and streams a run with a tool call, its arguments and result, as a transcript', async () => {
    const { page } = tab;
    await page.getByLabel(/Bundle archive/).setInputFiles({ name: 'helper.zip', mimeType: 'application/zip', buffer: GOOD });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agent console-helper' }).waitFor();

    await page.getByLabel('Message').fill('call calculator evaluate {"expression": "6*7"}');
    await page.getByRole('button', { name: 'Send' }).click();
    const tool = page.locator('.msg-tool');
    await tool.getByText('calculator').waitFor();
    await page.locator('.msg-end').first().waitFor({ timeout: 10_000 });
    expect(await tool.getByLabel('Arguments of calculator').textContent()).toContain('"expression": "6*7"');
    expect(await tool.getByLabel('Result of calculator').textContent()).toContain('42');
    expect(await page.locator('.msg-assistant').last().textContent()).toContain('42');

    // The same conversation goes on: the second run sees the first one's history.
    await page.getByLabel('Message').fill('and thanks');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.msg-end').count(), { timeout: 10_000 }).toBe(2);
    expect(await page.locator('.msg-user').count()).toBe(2);
    await page.locator('.pane').getByText('Succeeded').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'bundle-chat');

    await page.goto(`${server.url}/console/#/bundles`);
    await page.getByRole('link', { name: 'console-helper' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'bundles');
  });

  it('keeps an <img onerror> from the model and from tool arguments as inert text: no element, no script, no CSP violation', async () => {
    const { page } = tab;
    await page.getByRole('link', { name: 'console-helper' }).click();
    await page.getByLabel('Message').fill(PAYLOAD);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.msg-end').first().waitFor({ timeout: 10_000 });
    await page.getByLabel('Message').fill(`call text count_tokens ${JSON.stringify({ text: PAYLOAD })}`);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.msg-end').count(), { timeout: 10_000 }).toBe(2);

    expect(await page.locator('.msg-assistant').first().textContent()).toContain(PAYLOAD);
    expect(await page.locator('.msg-tool').textContent()).toContain('<img src=x onerror=');
    expect(await page.locator('.transcript img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__xss)).toBeUndefined();
    expect(await tab.violations()).toEqual([]);
    expect(tab.errors).toEqual([]);
    expect(tab.foreignRequests).toEqual([]);
  });
});
