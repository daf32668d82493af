// The console's spend panel and budget lines (DESIGN §16) in a real browser whose time zone is New York,
// on a service whose clock the test holds: before any spend the Tools page shows $0.00 against the
// day's limit and "why may I?" lists the budget; a chat run costing 85 % of the day's limit shows its
// cost and turns the panel to a warning; a run through the API that reaches the limit shows on the
// open panel when the window regains focus, with the reset in the viewer's zone (UTC in the tooltip);
// and the next chat message is refused, the chat saying why and linking the panel.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock/index.js';
import { buildZip } from '../fixtures/zip-builder.js';
import { merge } from '../helpers/test-app.js';
import { DEV_SETTINGS, launchChromium, openPage, seriousA11yViolations, startConsoleServer, type ConsoleServer, type WatchedPage } from './harness.js';

const VIEWER_ZONE = 'America/New_York';
/** The service's clock: noon UTC on Jan 15, so the UTC day ends at 7 PM in New York, the month on Jan 31. */
const START = Date.parse('2025-01-15T12:00:00Z');
const DAY_RESETS = '2025-01-16T00:00:00.000Z';
const DAY_RESETS_IN_NEW_YORK = 'Jan 15, 2025, 7:00:00 PM EST (America/New_York)';
const MONTH_RESETS_IN_NEW_YORK = 'Jan 31, 2025, 7:00:00 PM EST (America/New_York)';

// The Scripted model counts characters / 4 (rounded up) over what it is sent, here the system prompt
// (AGENT.md's body) and the message; only input is priced, $100 a million tokens = $0.0001 a token.
// One run of a new conversation is one model call: 340 characters = 85 tokens = $0.0085 (85 % of the
// $0.01 day limit), then 60 characters = 15 tokens = $0.0015, which reaches the limit exactly.
const SYSTEM = 'You answer briefly.';
const AGENT = `---\nid: spender\nname: Spender\nallowed-tools: [clock]\n---\n${SYSTEM}\n`;
const FIRST = 'What does a long question cost? '.padEnd(340 - SYSTEM.length, '.');
const SECOND = 'And a short one?'.padEnd(60 - SYSTEM.length, '.');
const LIMIT_TEXT = 'The spend limit was reached.';

const clock = new ManualClock(START);
let server: ConsoleServer;
let browser: Browser;
let tab: WatchedPage;
let handle: string;

beforeAll(async () => {
  server = await startConsoleServer(
    merge(DEV_SETTINGS, {
      AppConfig: {
        AI: {
          BundleExecution: { Envelopes: { Default: { Budget: { MaxUsdPerDay: 0.01, MaxUsdPerMonth: 0.05 } } } },
          ChatModel: { Pricing: { InputPerMillionTokens: 100, OutputPerMillionTokens: 0 } },
        },
      },
    }),
    'Development',
    { clock },
  );
  browser = await launchChromium();
  tab = await openPage(browser, [server.url], { timezoneId: VIEWER_ZONE, locale: 'en-US' });
  const form = new FormData();
  form.append('file', new Blob([buildZip({ entries: [{ name: 'AGENT.md', data: AGENT }] })]), 'spender.zip');
  const registered = await fetch(`${server.url}/api/bundles`, { method: 'POST', body: form });
  expect(registered.status).toBe(201);
  handle = ((await registered.json()) as { handle: string }).handle;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  expect(response.status, path).toBeLessThan(300);
  return (await response.json()) as T;
}

const fact = (name: string) => tab.page.locator('dl.facts > div', { has: tab.page.getByRole('term').getByText(name, { exact: true }) }).locator('dd');
const period = (title: string) => tab.page.getByRole('group', { name: title });

describe('console: spend', () => {
  it('shows no spend yet against the day’s and month’s limits, no per-run limit, and the budget in "why may I?"', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/tools`);
    const today = period('Today (UTC day)');
    await today.locator('.spend-figure').getByText('$0.00 of $0.01 (0 %)').waitFor();
    expect(await today.getAttribute('class')).toContain('spend-ok');
    const meter = today.getByRole('meter', { name: 'Today (UTC day)' });
    expect(await meter.getAttribute('aria-valuetext')).toBe('$0.00 of $0.01 (0 %)');
    expect(await today.locator('time').textContent()).toBe(DAY_RESETS_IN_NEW_YORK);
    expect(await today.locator('time').getAttribute('title')).toBe(`${DAY_RESETS} (UTC)`);
    expect(await period('This month (UTC)').locator('.spend-figure').textContent()).toBe('$0.00 of $0.05 (0 %)');
    expect(await period('This month (UTC)').locator('time').textContent()).toBe(MONTH_RESETS_IN_NEW_YORK);
    await page.getByText('Per run: no limit.').waitFor();

    await fact('Spend limit per day (UTC)').waitFor();
    expect(await fact('Autonomy ceiling').textContent()).toBe('Autonomous');
    expect(await fact('Auto-approved up to').textContent()).toBe('None');
    expect(await fact('Spend limit per run').textContent()).toBe('no limit');
    expect(await fact('Spend limit per day (UTC)').textContent()).toBe('$0.01');
    expect(await fact('Spend limit per month (UTC)').textContent()).toBe('$0.05');
    // No policy files: the capability page says so (DESIGN §18).
    expect(await fact('Policies').textContent()).toBe('none configured');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows a chat run’s cost, and the panel warns once the day’s spend is at 85 % of its limit', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/bundles/${handle}`);
    await page.getByLabel('Message').fill(FIRST);
    await page.getByRole('button', { name: 'Send' }).click();
    const end = page.locator('.msg-end');
    await end.getByText('$0.0085').waitFor({ timeout: 10_000 });
    expect(await end.textContent()).toBe('Run finished · 1 turn(s), 0 tool call(s) · 168 tokens · $0.0085');
    await page.getByRole('list', { name: 'Runs of this handle' }).getByText('· 1 turn(s), 0 tool call(s) · 168 tokens · $0.0085').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`${server.url}/console/#/tools`);
    const today = period('Today (UTC day)');
    await today.locator('.spend-figure').getByText('$0.0085 of $0.01 (85 %)').waitFor();
    expect(await today.getAttribute('class')).toContain('spend-warn');
    expect(await today.locator('.spend-state').textContent()).toBe(`Nearing the limit. Resets ${DAY_RESETS_IN_NEW_YORK}.`);
    const meter = today.getByRole('meter');
    expect([await meter.getAttribute('value'), await meter.getAttribute('max'), await meter.getAttribute('aria-valuetext')]).toEqual(['0.0085', '0.01', '$0.0085 of $0.01 (85 %)']);
    expect(await period('This month (UTC)').locator('.spend-figure').textContent()).toBe('$0.0085 of $0.05 (17 %)');
    expect(await period('This month (UTC)').getAttribute('class')).toContain('spend-ok');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('reads the spend again when the window regains focus: a run through the API reached the limit, refused until the reset in the viewer’s zone', async () => {
    const { page } = tab;
    const started = await api<{ statusUrl: string }>('POST', `/api/bundles/${handle}/runs`, { userMessages: [SECOND] });
    await expect.poll(async () => (await api<{ status: string }>('GET', started.statusUrl)).status, { timeout: 10_000 }).toBe('Succeeded');
    expect(await api('GET', '/api/spend')).toMatchObject({ limits: { perRun: null, perDay: 0.01, perMonth: 0.05 }, day: { spentUsd: 0.01, resetsAt: DAY_RESETS } });

    // Still the figures read when the page opened, until the viewer comes back to the window.
    expect(await period('Today (UTC day)').locator('.spend-figure').textContent()).toBe('$0.0085 of $0.01 (85 %)');
    await page.evaluate(() => void (globalThis as unknown as { dispatchEvent(event: Event): boolean }).dispatchEvent(new Event('focus')));
    const today = period('Today (UTC day)');
    await today.locator('.spend-figure').getByText('$0.01 of $0.01 (100 %)').waitFor();
    expect(await today.getAttribute('class')).toContain('spend-reached');
    expect(await today.locator('.spend-state').textContent()).toBe(`Limit reached: new model calls are refused until ${DAY_RESETS_IN_NEW_YORK}.`);
    expect(await today.locator('.spend-state time').getAttribute('title')).toBe(`${DAY_RESETS} (UTC)`);
    expect(await period('This month (UTC)').locator('.spend-figure').textContent()).toBe('$0.01 of $0.05 (20 %)');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('refuses the next chat message on the limit: the chat says so, costs nothing and links the spend panel', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/bundles/${handle}`);
    await page.getByLabel('Message').fill('One more?');
    await page.getByRole('button', { name: 'Send' }).click();
    const end = page.locator('.msg-end');
    await end.getByText(LIMIT_TEXT).waitFor({ timeout: 10_000 });
    expect(await end.textContent()).toBe(`Run stopped: ${LIMIT_TEXT} · 1 turn(s), 0 tool call(s) · 0 tokens · $0.00 · your spend and limits`);
    // The held clock gives the three runs one createdAt, so the refused one is found by its outcome.
    const { runs } = await api<{ runs: { result: { budgetExhausted: boolean; conversationError: string | null } }[] }>('GET', `/api/bundles/${handle}/runs`);
    expect(runs.map((run) => run.result.conversationError).sort()).toEqual([LIMIT_TEXT, null, null]);
    expect(runs.find((run) => run.result.budgetExhausted)?.result.conversationError).toBe(LIMIT_TEXT);
    await page.getByRole('list', { name: 'Runs of this handle' }).getByText(LIMIT_TEXT).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await end.getByRole('link', { name: 'your spend and limits' }).click();
    await period('Today (UTC day)').getByText('Limit reached').waitFor();
    expect(tab.errors).toEqual([]);
    expect(await tab.violations()).toEqual([]);
  });
});
