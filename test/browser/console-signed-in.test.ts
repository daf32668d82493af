// The console against a service with an identity provider (the dev IdP), in a real browser: signing
// in through the provider's form (authorization code + PKCE), the paste-a-token fallback, and the
// pages that need roles — evals (start, live progress, report, JUnit) and tools (catalog, generated
// invoke form, "why may I?").
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { idpSettings, startTestIdp } from '../helpers/idp.js';
import { DEV_SETTINGS, launchChromium, openPage, screenshot, seriousA11yViolations, startConsoleServer, type ConsoleServer, type WatchedPage } from './harness.js';

let idp: DevIdp;
let server: ConsoleServer;
let browser: Browser;
let tab: WatchedPage;

const ROLES = ['Harness.Tools.Invoke', 'Harness.Evals.Execute'];

beforeAll(async () => {
  idp = await startTestIdp();
  const { Auth: _anonymous, ...bundleExecution } = DEV_SETTINGS.AppConfig.AI.BundleExecution;
  server = await startConsoleServer(idpSettings(idp, { ...DEV_SETTINGS.AppConfig.AI, BundleExecution: bundleExecution }));
  browser = await launchChromium();
  tab = await openPage(browser, [server.url, idp.url]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await idp?.close();
});

describe('console: signing in', () => {
  it('publishes the provider and client in /console/config.json and allows only it beside itself in the CSP', async () => {
    const response = await fetch(`${server.url}/console/config.json`);
    expect(await response.json()).toEqual({
      auth: { mode: 'oidc', authority: idp.issuer, clientId: idp.clientId, scope: `openid profile api://${idp.clientId}/.default` },
    });
    expect(response.headers.get('content-security-policy')).toContain(`connect-src 'self' ${idp.url}`);
  });

  it('signs in through the dev IdP form and calls the API with the token in the Authorization header only', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/tools`);
    await page.getByRole('heading', { level: 1, name: 'Sign in to Portcullis' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === idp.url);
    await page.getByLabel('Subject (sub)').fill('alice');
    await page.getByLabel('Roles').fill(ROLES.join(' '));
    const apiCall = page.waitForRequest((request) => request.url().startsWith(`${server.url}/api/`));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const request = await apiCall;
    expect(request.headers().authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    expect(await page.locator('header .who').textContent()).toContain('alice');
    expect(page.url()).toBe(`${server.url}/console/#/tools`);
    expect(tab.foreignRequests).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to Portcullis' }).waitFor();
  });

  it('accepts a pasted token when there is no browser sign-in', async () => {
    const { page } = tab;
    await page.getByLabel('Access token (JWT)').fill('not a token');
    await page.getByRole('button', { name: 'Use this token' }).click();
    await page.getByRole('alert').filter({ hasText: 'not a JWT' }).waitFor();
    await page.getByLabel('Access token (JWT)').fill(await idp.mintToken({ sub: 'bob', roles: ROLES }));
    await page.getByRole('button', { name: 'Use this token' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    expect(await page.locator('header .who').textContent()).toContain('bob (pasted token)');
  });
});

describe('console: tools and capabilities', () => {
  it('lists the catalog with risk metadata and explains, per host tool, why it is granted or not', async () => {
    const { page } = tab;
    await page.locator('table').getByRole('link', { name: 'calculator' }).waitFor();
    const row = page.locator('tr', { has: page.getByRole('link', { name: 'http_fetch' }) });
    expect(await row.count()).toBe(0);
    const why = page.locator('table', { has: page.getByText('Every tool the host offers') });
    await why.locator('tr', { hasText: 'http_fetch' }).locator('.badge-denied').waitFor();
    await why.locator('tr', { hasText: 'calculator' }).locator('.badge-granted').waitFor();
    await page.getByText('These tools are also an MCP server').waitFor();
    expect(await page.locator('p', { hasText: 'also an MCP server' }).locator('code').first().textContent()).toBe(`${server.url}/mcp`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'tools');
  });

  it('invokes an operation through a form generated from its parameter schema', async () => {
    const { page } = tab;
    await page.locator('table').getByRole('link', { name: 'memory' }).click();
    await page.getByLabel('Operation').selectOption('set');
    await page.getByLabel(/^key/).fill('console-note');
    await page.getByLabel(/^value/).fill('{"seen": [1, 2]}');
    await page.getByLabel(/^ttlSeconds/).fill('600');
    await page.getByRole('button', { name: 'Invoke' }).click();
    await page.locator('.result').getByText('Succeeded').waitFor();

    await page.getByLabel('Operation').selectOption('get');
    await page.getByLabel(/^key/).fill('console-note');
    await page.getByRole('button', { name: 'Invoke' }).click();
    await expect.poll(() => page.getByLabel('Tool answer').textContent()).toContain('"seen"');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'tool-invoke');

    await page.getByLabel('Operation').selectOption('set');
    await page.getByLabel(/^key/).fill('k');
    await page.getByLabel(/^value/).fill('{oops');
    await page.getByRole('button', { name: 'Invoke' }).click();
    await page.getByRole('alert').filter({ hasText: 'value must be JSON' }).waitFor();
  });

  it('gives a one-line string parameter a text input and keeps a text area for long-form text', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/tools/text`);
    await page.getByLabel('Operation').selectOption('extract');
    // text: maxLength 1 MiB (long-form); pattern: maxLength 1000; flags: maxLength 6.
    await page.locator('textarea#param-extract-text').waitFor();
    expect(await page.locator('input[type="text"]#param-extract-pattern').count()).toBe(1);
    expect(await page.locator('input[type="text"]#param-extract-flags').count()).toBe(1);
    expect(await page.locator('.schema-form textarea').count()).toBe(1);
    await page.getByLabel(/^text/).fill('order 12\norder 345');
    await page.getByLabel(/^pattern/).fill('\\d+');
    await page.getByRole('button', { name: 'Invoke' }).click();
    await expect.poll(() => page.getByLabel('Tool answer').textContent()).toContain('"345"');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`${server.url}/console/#/tools/calculator`);
    await page.locator('input[type="text"]#param-evaluate-expression').waitFor();
    expect(await page.locator('.schema-form textarea').count()).toBe(0);
  });
});

describe('console: evals', () => {
  it('starts a run, shows its progress, then the report with failing cases, pass^k, cost and a JUnit download', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/evals`);
    await page.getByLabel('capitals').check();
    await page.getByLabel('Repeats').fill('2');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Start eval run' }).click();
    await page.getByRole('heading', { level: 1, name: 'Eval run' }).waitFor();
    await page.getByRole('heading', { name: /Verdict/ }).waitFor({ timeout: 15_000 });

    expect(await page.getByRole('heading', { name: /Verdict/ }).textContent()).toContain('Fail');
    const byDataset = page.locator('table', { has: page.getByText('By dataset') });
    expect(await byDataset.locator('tbody tr').first().textContent()).toContain('capitals');
    const report = page.locator('.facts').last();
    expect(await report.textContent()).toMatch(/pass\^k.*k = 2/);
    expect(await report.textContent()).toContain('$');
    const failures = page.locator('table.failures tbody tr');
    await failures.first().waitFor();
    expect(await failures.count()).toBe(4);
    expect(await page.locator('table.failures').textContent()).toContain('france [repeat 1/2]');
    // Each failing case says why once: the reason, then what else the report has (the output), not the reason again.
    for (const why of await failures.locator('td:nth-child(4)').all()) {
      const reason = (await why.locator('p').textContent()) ?? '';
      expect(reason).not.toBe('');
      const text = (await why.textContent()) ?? '';
      expect(text.split(reason).length - 1, text).toBe(1);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'eval-report');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download JUnit XML' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.junit\.xml$/);
    const chunks: Buffer[] = [];
    for await (const chunk of (await file.createReadStream()) as AsyncIterable<Buffer>) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString('utf8')).toContain('<testsuites name="portcullis eval');
  });

  it('broke no CSP rule, threw nothing and reached only the service and the identity provider', async () => {
    expect(await tab.violations()).toEqual([]);
    expect(tab.errors).toEqual([]);
    expect(tab.foreignRequests).toEqual([]);
  });
});
