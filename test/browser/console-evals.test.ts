// The console's evals pages for an agent author (DESIGN §19) in a real browser: a dataset of my own PUT
// through the API is listed, its versions are shown one at a time, a run started from the console with
// one of its versions, my uploaded bundle as the subject and an earlier run as the baseline shows the
// comparison (a regression marked, an improvement, the unchanged count), and the dataset is deleted
// only once asked twice. The Scripted model echoes each case's input, so the assertions decide.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildZip } from '../fixtures/zip-builder.js';
import { DEV_SETTINGS, launchChromium, openPage, screenshot, seriousA11yViolations, startConsoleServer, type ConsoleServer, type WatchedPage } from './harness.js';

let server: ConsoleServer;
let browser: Browser;
let tab: WatchedPage;
let handle: string;
let baseline: string;

const AGENT = '---\nid: faq-helper\nname: FAQ helper\n---\nYou answer questions briefly.\n';

/** Version 1: greet and steady pass, fixed fails. Version 2: greet fails (a regression), fixed passes (an improvement). */
const FAQ_V1 = {
  description: 'Answers the FAQ',
  cases: [
    { id: 'greet', input: 'hello there', assert: [{ type: 'icontains', value: 'hello' }] },
    { id: 'steady', input: 'steady answer', tags: ['smoke'], assert: [{ type: 'contains', value: 'steady' }] },
    { id: 'fixed', input: 'fixed now', assert: [{ type: 'contains', value: 'broken' }] },
  ],
};
const FAQ_V2 = {
  ...FAQ_V1,
  cases: [
    { id: 'greet', input: 'hello there', assert: [{ type: 'icontains', value: 'goodbye' }] },
    FAQ_V1.cases[1],
    { id: 'fixed', input: 'fixed now', assert: [{ type: 'contains', value: 'fixed' }] },
  ],
};

/** DEV_SETTINGS with the anonymous principal allowed to run evals (as `npm start`'s appsettings.Development.json has it). */
const SETTINGS = {
  AppConfig: {
    AI: {
      ...DEV_SETTINGS.AppConfig.AI,
      BundleExecution: { ...DEV_SETTINGS.AppConfig.AI.BundleExecution, Auth: { AllowAnonymous: true, AnonymousRoles: ['Harness.Evals.Execute'] } },
    },
  },
};

beforeAll(async () => {
  server = await startConsoleServer(SETTINGS);
  browser = await launchChromium();
  tab = await openPage(browser, [server.url]);
  expect((await api('PUT', '/api/evals/datasets/mine/faq', FAQ_V1)).status).toBe(201);
  expect((await api<{ version: number }>('PUT', '/api/evals/datasets/mine/faq', FAQ_V2)).body.version).toBe(2);
  const form = new FormData();
  form.append('file', new Blob([buildZip({ entries: [{ name: 'AGENT.md', data: AGENT }] })]), 'faq.zip');
  handle = ((await (await fetch(`${server.url}/api/bundles`, { method: 'POST', body: form })).json()) as { handle: string }).handle;
  baseline = (await api<{ jobId: string }>('POST', '/api/evals/runs', { datasets: ['mine/faq@1'] })).body.jobId;
  await vi.waitFor(async () => expect((await api<{ status: string }>('GET', `/api/evals/runs/${baseline}`)).body.status).toBe('Succeeded'), { timeout: 15_000, interval: 100 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: response.status, body: (response.status === 200 || response.status === 201 || response.status === 202 ? await response.json() : undefined) as T };
}

const casesRow = (name: string) => tab.page.locator('table.dataset-cases tbody tr', { has: tab.page.getByRole('rowheader', { name, exact: true }) });

describe('console: evals for agent authors', () => {
  it('lists my own datasets with their latest version, case count and last update', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/evals`);
    await page.getByRole('heading', { level: 2, name: 'My datasets' }).waitFor();
    const row = page.getByRole('row', { name: /^mine\/faq / });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['mine/faq', '2', '3']);
    expect(cells[3]).not.toBe('—');
    // The run list is still there, the baseline run in it.
    await page.getByRole('link', { name: baseline }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows a dataset’s latest version and switches between its versions', async () => {
    const { page } = tab;
    await page.getByRole('link', { name: 'mine/faq' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dataset mine/faq' }).waitFor();
    const version = page.getByLabel('Version', { exact: true });
    expect(await version.inputValue()).toBe('2');
    expect(await version.locator('option').allTextContents()).toEqual(['2 (latest)', '1']);
    await casesRow('greet').waitFor();
    expect(await casesRow('greet').locator('td').allTextContents()).toEqual(['hello there', '—', 'icontains "goodbye"']);
    expect(await casesRow('steady').locator('td').nth(1).textContent()).toBe('smoke');
    expect(await page.getByRole('heading', { level: 2, name: 'Cases (3)' }).count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'eval-own-dataset');

    await version.selectOption('1');
    await casesRow('greet').getByText('icontains "hello"').waitFor();
    expect(await casesRow('fixed').locator('td').last().textContent()).toBe('contains "broken"');
    expect(await page.getByRole('link', { name: 'Run version 1' }).getAttribute('href')).toBe('#/evals?dataset=mine%2Ffaq%401');

    await version.selectOption('2');
    await casesRow('greet').getByText('icontains "goodbye"').waitFor();
    expect(await page.getByRole('link', { name: 'Run the latest version' }).getAttribute('href')).toBe('#/evals?dataset=mine%2Ffaq');
  });

  it('starts a run of a pinned version with my bundle as the subject and a baseline, then shows the comparison with the regression marked', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/evals`);
    const faq = page.getByLabel('mine/faq', { exact: true });
    await faq.waitFor();
    const versionOfFaq = page.getByLabel('Version of mine/faq');
    expect(await versionOfFaq.isDisabled()).toBe(true);
    await faq.check();
    await versionOfFaq.selectOption('2');
    await page.getByLabel('Subject', { exact: true }).selectOption(handle);
    const failOnRegression = page.getByLabel('Fail on regression');
    expect(await failOnRegression.isDisabled()).toBe(true);
    await page.getByLabel('Baseline run').selectOption(baseline);
    await failOnRegression.check();
    // Without failOnRegression one failing case in three would pass under this threshold.
    await page.getByLabel('Fail-rate threshold').fill('1');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const started = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/evals/runs'));
    await page.getByRole('button', { name: 'Start eval run' }).click();
    expect((await started).postDataJSON()).toEqual({
      datasets: ['mine/faq@2'],
      repeats: 1,
      parallelism: 4,
      failRateThreshold: 1,
      subject: { handle },
      baseline,
      failOnRegression: true,
    });
    await page.getByRole('heading', { level: 1, name: 'Eval run' }).waitFor();
    const compared = page.getByRole('heading', { level: 2, name: `Compared with ${baseline}` });
    await compared.waitFor({ timeout: 15_000 });
    expect(await page.getByRole('heading', { name: /Verdict/ }).textContent()).toContain('Fail');
    const panel = page.locator('section.comparison');
    expect(await panel.locator('p.meta').textContent()).toBe('1 regression, 1 improvement, 1 case unchanged.');
    const regressions = panel.locator('table.regressions');
    expect(await regressions.locator('caption').textContent()).toBe('Regressions');
    expect(await regressions.locator('tbody tr.regression td').allTextContents()).toEqual(['mine/faq@2', 'greet', 'passed → failed']);
    const improvements = panel.locator('table', { has: page.locator('caption', { hasText: 'Improvements' }) });
    expect(await improvements.locator('tbody tr td').allTextContents()).toEqual(['mine/faq@2', 'fixed', 'failed → passed']);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'eval-comparison');

    await compared.getByRole('link', { name: baseline }).click();
    await page.locator('p.meta code', { hasText: baseline }).waitFor();
    // The baseline's own report: version 1's outcomes, compared with nothing.
    await page.getByRole('heading', { name: /Verdict/ }).waitFor();
    expect(await page.locator('dl.facts').first().textContent()).toContain('mine/faq@1');
    expect(await page.locator('section.comparison').count()).toBe(0);
  });

  it('deletes a dataset of mine only once asked twice', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/evals/mine/faq`);
    await page.getByRole('button', { name: 'Delete dataset' }).click();
    const asking = page.getByRole('group', { name: 'Delete dataset' });
    await asking.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await asking.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByRole('heading', { level: 1, name: 'Evals' }).waitFor();
    await page.getByText('None yet:').waitFor();
    expect(await page.getByLabel('mine/faq', { exact: true }).count()).toBe(0);
    expect((await api('GET', '/api/evals/datasets/mine/faq')).status).toBe(404);
  });

  it('ran no inline script, broke no CSP rule and asked nothing of any other origin', async () => {
    expect(await tab.violations()).toEqual([]);
    expect(tab.errors).toEqual([]);
    expect(tab.foreignRequests).toEqual([]);
  });
});
