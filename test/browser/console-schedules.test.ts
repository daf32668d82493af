// The console's schedules pages in a real browser whose time zone is New York, on a service whose clock
// and schedule ticker the test drives: "Schedule this" from a workflow's page and from the evals page
// fills the form in, the next fire shows in the viewer's zone (UTC in the tooltip), a refused cron shows
// the service's problem, disable and enable, a fire listed with a link to the run it started, and
// delete after asking.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock/index.js';
import { ManualTicks } from '../../src/schedules/index.js';
import { DEV_SETTINGS, formProblem, launchChromium, openPage, seriousA11yViolations, startConsoleServer, type ConsoleServer, type WatchedPage } from './harness.js';

const VIEWER_ZONE = 'America/New_York';
/** The service's clock: 07:00 in New York, 13:00 in Berlin. */
const START = Date.parse('2025-01-15T12:00:00Z');
/** `0 15 * * *` read in Berlin (UTC+1 in January), the first fire after START. */
const FIRST_FIRE = '2025-01-15T14:00:00.000Z';
const FIRST_FIRE_IN_NEW_YORK = 'Jan 15, 2025, 9:00:00 AM EST (America/New_York)';

const clock = new ManualClock(START);
const ticks = new ManualTicks();
let server: ConsoleServer;
let browser: Browser;
let tab: WatchedPage;
let workflowId: string;
let scheduleId: string;

const NIGHTLY = {
  name: 'nightly-report',
  steps: [{ name: 'stamp', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} } }],
  edges: [],
};

beforeAll(async () => {
  server = await startConsoleServer(DEV_SETTINGS, 'Development', { clock, scheduleTicks: ticks });
  browser = await launchChromium();
  tab = await openPage(browser, [server.url], { timezoneId: VIEWER_ZONE, locale: 'en-US' });
  workflowId = (await api<{ id: string }>('POST', '/api/workflows', NIGHTLY)).body.id;
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
  return { status: response.status, body: (response.status === 200 || response.status === 201 ? await response.json() : undefined) as T };
}

const fact = (name: string) => tab.page.locator('dl.facts > div', { has: tab.page.locator('dt', { hasText: name }) }).locator('dd');

describe('console: schedules', () => {
  it('schedules a workflow from its page: the form comes filled in, a refused cron shows the problem, then the next fire shows in the viewer’s zone', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/workflows/${workflowId}`);
    await page.getByLabel('Input (JSON object, optional)').fill('{ "day": "Wednesday" }');
    await page.getByRole('link', { name: 'Schedule this' }).click();
    await page.getByRole('heading', { level: 1, name: 'New schedule' }).waitFor();
    await page.getByText('Filled in from the workflow nightly-report').waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('nightly-report');
    expect(await page.getByLabel('a workflow run').isChecked()).toBe(true);
    await expect.poll(() => page.getByLabel('Workflow', { exact: true }).inputValue()).toBe(workflowId);
    expect(await page.getByLabel('Input (JSON object, optional)').inputValue()).toBe('{ "day": "Wednesday" }');
    expect(await page.getByLabel('Time zone').inputValue()).toBe(VIEWER_ZONE);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Six fields (seconds) need AppConfig:Schedules:MinIntervalSeconds under 60.
    await page.getByLabel('Cron').fill('*/10 * * * * *');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const problem = await formProblem(page);
    expect(problem).toContain('The schedule was not created: Validation failed');
    expect(problem).toContain('cron has six fields (seconds first), accepted only when AppConfig:Schedules:MinIntervalSeconds is under 60');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Cron').fill('0 15 * * *');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByRole('heading', { level: 1, name: 'nightly-report' }).waitFor();
    scheduleId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
    const next = fact('Next fire').locator('time');
    expect(await next.textContent()).toBe(FIRST_FIRE_IN_NEW_YORK);
    expect(await next.getAttribute('title')).toBe(`${FIRST_FIRE} (UTC)`);
    expect(await fact('Read in').textContent()).toBe('Europe/Berlin');
    expect(await fact('Starts').textContent()).toBe('workflow nightly-report');
    const stored = await api<Record<string, unknown>>('GET', `/api/schedules/${scheduleId}`);
    expect(stored.body).toMatchObject({ name: 'nightly-report', cron: '0 15 * * *', timeZone: 'Europe/Berlin', enabled: true, nextRunAt: FIRST_FIRE, target: { workflow: { workflowId, input: { day: 'Wednesday' } } } });
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'all schedules' }).click();
    const row = page.getByRole('row', { name: /nightly-report/ });
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual(['nightly-report', '0 15 * * *', 'Europe/Berlin', 'workflow nightly-report', 'Enabled', FIRST_FIRE_IN_NEW_YORK]);
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Schedules' }).getAttribute('aria-current')).toBe('page');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('disables and enables it again, then lists the fire it made, linked to the run it started', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/schedules/${scheduleId}`);
    await page.getByText('It has not fired yet.').waitFor();
    await page.getByRole('button', { name: 'Disable schedule' }).click();
    await page.getByRole('status').filter({ hasText: 'Disabled: it does not fire until enabled again.' }).waitFor();
    await fact('State').getByText('Disabled').waitFor();
    expect(await fact('Next fire').textContent()).toBe('— (disabled)');
    expect((await api<{ enabled: boolean }>('GET', `/api/schedules/${scheduleId}`)).body.enabled).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Enable schedule' }).click();
    await fact('State').getByText('Enabled').waitFor();
    expect(await fact('Next fire').textContent()).toBe(FIRST_FIRE_IN_NEW_YORK);

    clock.set(Date.parse(FIRST_FIRE) + 1_000);
    await ticks.step();
    const fire = page.locator('tbody tr');
    await fire.first().waitFor({ timeout: 10_000 });
    const cells = await fire.first().locator('td').allTextContents();
    expect(cells.slice(0, 4)).toEqual([FIRST_FIRE_IN_NEW_YORK, 'Jan 15, 2025, 9:00:01 AM EST (America/New_York)', 'Started', '—']);
    const { body } = await api<{ fires: { jobId: string }[] }>('GET', `/api/schedules/${scheduleId}/fires`);
    expect(cells[4]).toBe(body.fires[0]!.jobId);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await fire.first().getByRole('link', { name: body.fires[0]!.jobId }).click();
    await page.getByRole('heading', { level: 1, name: 'Run of nightly-report' }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/workflows/${workflowId}/runs/${body.fires[0]!.jobId}`);
  });

  it('schedules an eval from the evals page with the run settings chosen there', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/evals`);
    await page.getByLabel('capitals').check();
    await page.getByLabel('Repeats').fill('2');
    await page.getByLabel('Tags (any of)').fill('geography');
    await page.getByRole('link', { name: 'Schedule this' }).click();
    await page.getByRole('heading', { level: 1, name: 'New schedule' }).waitFor();
    expect(await page.getByLabel('an eval run').isChecked()).toBe(true);
    await page.getByLabel('capitals').waitFor();
    expect(await page.getByLabel('capitals').isChecked()).toBe(true);
    expect(await page.getByLabel('arithmetic').isChecked()).toBe(false);
    expect(await page.getByLabel('Repeats').inputValue()).toBe('2');
    expect(await page.getByLabel('Tags (any of)').inputValue()).toBe('geography');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Cron').fill('@daily');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByRole('heading', { level: 1, name: 'Eval of capitals' }).waitFor();
    expect(await fact('Starts').textContent()).toBe('eval of capitals');
    const id = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
    const stored = await api<{ target: unknown; timeZone: string }>('GET', `/api/schedules/${id}`);
    expect(stored.body.timeZone).toBe(VIEWER_ZONE);
    expect(stored.body.target).toEqual({ eval: { datasets: ['capitals'], repeats: 2, parallelism: 4, failRateThreshold: 0, tagFilter: ['geography'] } });
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('deletes a schedule only once asked twice', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/schedules/${scheduleId}`);
    await page.getByRole('button', { name: 'Delete schedule' }).click();
    const asking = page.getByRole('group', { name: 'Delete schedule' });
    await asking.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await asking.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByRole('heading', { level: 1, name: 'Schedules' }).waitFor();
    await page.getByRole('row', { name: /Eval of capitals/ }).waitFor();
    expect(await page.getByRole('row', { name: /nightly-report/ }).count()).toBe(0);
    expect((await api('GET', `/api/schedules/${scheduleId}`)).status).toBe(404);
  });

  it('ran no inline script, broke no CSP rule and asked nothing of any other origin', async () => {
    expect(await tab.violations()).toEqual([]);
    expect(tab.errors).toEqual([]);
    expect(tab.foreignRequests).toEqual([]);
  });
});
