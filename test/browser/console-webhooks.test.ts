// The console's webhooks pages in a real browser, against a real receiver on loopback: the event list is
// the service's own, a new webhook's secret is shown once (and copied) and never again, a test event's
// delivery goes Delivered signed with that very secret, older deliveries load page by page, a refused
// host shows the service's problem beside the form, and delete asks first.
import type { Browser } from 'playwright-core';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_EVENT_TYPES } from '../../src/platform/outbox/index.js';
import { merge } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { DEV_SETTINGS, formProblem, launchChromium, openPage, seriousA11yViolations, startConsoleServer, type ConsoleServer, type WatchedPage } from './harness.js';

let server: ConsoleServer;
let receiver: WebhookReceiver;
let browser: Browser;
let tab: WatchedPage;
/** The secret the console showed for the webhook these tests make. */
let secret = '';

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startConsoleServer(
    merge(DEV_SETTINGS, {
      AppConfig: {
        Webhooks: { AllowedHosts: ['127.0.0.1'], PollInterval: '00:00:00.05' },
        // The load-more test queues more test events than a minute's default writes.
        AI: { RateLimits: { 'webhooks-write': { PermitsPerMinute: 1000 } } },
      },
    }),
  );
  browser = await launchChromium();
  tab = await openPage(browser, [server.url], { permissions: ['clipboard-read', 'clipboard-write'] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

async function api<T>(method: string, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, { method });
  return { status: response.status, body: (response.status === 200 ? await response.json() : undefined) as T };
}

async function onlyWebhookId(): Promise<string> {
  const { body } = await api<{ webhooks: { id: string }[] }>('GET', '/api/webhooks');
  expect(body.webhooks).toHaveLength(1);
  return body.webhooks[0]!.id;
}

describe('console: webhooks', () => {
  it('offers exactly the service’s event names, creates a webhook to a loopback receiver and shows its secret once, with a copy button', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/webhooks`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('No webhooks yet.').waitFor();
    expect(await page.locator('input[name="event"]').evaluateAll((boxes) => boxes.map((box) => (box as unknown as { value: string }).value))).toEqual([...RESOURCE_EVENT_TYPES]);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('approval.requested').check();
    await page.getByLabel('workflow.run.finished').check();
    await page.getByLabel('Description (optional)').fill('Tell the release channel');
    await page.getByRole('button', { name: 'Create webhook' }).click();

    const panel = page.getByRole('region', { name: 'Signing secret of the new webhook' });
    await panel.waitFor();
    expect(await panel.textContent()).toContain('it will not be shown again');
    secret = await panel.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await panel.getByRole('button', { name: 'Copy secret' }).click();
    await panel.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(secret);

    const row = page.getByRole('row', { name: new RegExp(receiver.url) });
    await row.waitFor();
    // In the service's order, whatever order they were ticked in.
    expect(await row.textContent()).toContain('workflow.run.finished, approval.requested');
    expect(await row.textContent()).toContain('Tell the release channel');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.reload();
    await page.getByRole('row', { name: new RegExp(receiver.url) }).waitFor();
    expect(await page.getByRole('region', { name: 'Signing secret of the new webhook' }).count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
  });

  it('sends a test event from the webhook’s page and shows its delivery go Delivered, signed with the secret shown', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/webhooks`);
    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook' }).waitFor();
    await page.getByText('Nothing delivered yet.').waitFor();
    expect(await page.locator('dl.facts').textContent()).toContain(receiver.url);

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'A webhook.test event was queued' }).waitFor();
    const delivery = page.locator('tr[data-delivery]');
    await delivery.getByText('Delivered').waitFor({ timeout: 10_000 });
    expect(await delivery.count()).toBe(1);
    const cells = await delivery.locator('td').allTextContents();
    expect(cells.slice(0, 4)).toEqual(['webhook.test', '1', 'Delivered', 'HTTP 200']);
    expect(await seriousA11yViolations(page)).toEqual([]);

    expect(receiver.received).toHaveLength(1);
    const event = new Verifier(secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers as Record<string, string>) as { type: string };
    expect(event.type).toBe('webhook.test');
    expect(await page.content()).not.toContain(secret);
  });

  it('lists the newest deliveries first and loads older ones on demand', async () => {
    const id = await onlyWebhookId();
    for (let i = 0; i < 21; i += 1) expect((await api('POST', `/api/webhooks/${id}/test`)).status).toBe(202);
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(22);
    const { page } = tab;
    await page.goto(`${server.url}/console/#/webhooks/${id}`);
    await page.reload(); // the page was open already (a hash-only goto loads nothing)
    const rows = page.locator('tr[data-delivery]');
    await expect.poll(() => rows.count()).toBe(20);
    const { body } = await api<{ deliveries: { deliveryId: string }[] }>('GET', `/api/webhooks/${id}/deliveries?limit=200`);
    expect(await rows.first().getAttribute('data-delivery')).toBe(body.deliveries[0]!.deliveryId);

    await page.getByRole('button', { name: 'Load older deliveries' }).click();
    await expect.poll(() => rows.count()).toBe(22);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { delivery: string } }).dataset.delivery))).toEqual(body.deliveries.map((d) => d.deliveryId));
    expect(await page.getByRole('button', { name: 'Load older deliveries' }).count()).toBe(0);
  });

  it('shows the service’s problem beside the form when the host is not allowed', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/webhooks`);
    await page.getByLabel('URL').fill('https://hooks.example.com/portcullis');
    await page.getByLabel('eval.run.finished').check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const problem = await formProblem(page);
    expect(problem).toContain('The webhook was not created: Validation failed');
    expect(problem).toContain('The host "hooks.example.com" is not in AppConfig:Webhooks:AllowedHosts.');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await onlyWebhookId();
  });

  it('deletes a webhook only once asked twice', async () => {
    const id = await onlyWebhookId();
    const { page } = tab;
    await page.goto(`${server.url}/console/#/webhooks/${id}`);
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    const asking = page.getByRole('group', { name: 'Delete webhook' });
    await asking.waitFor();
    expect(await asking.textContent()).toContain('Deliveries not yet made are dropped');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await asking.getByRole('button', { name: 'Keep it' }).click();
    expect((await api('GET', `/api/webhooks/${id}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByText('No webhooks yet.').waitFor();
    expect(new URL(page.url()).hash).toBe('#/webhooks');
    expect((await api('GET', `/api/webhooks/${id}`)).status).toBe(404);
  });

  it('ran no inline script, broke no CSP rule and asked nothing of any other origin', async () => {
    expect(await tab.violations()).toEqual([]);
    expect(tab.errors).toEqual([]);
    expect(tab.foreignRequests).toEqual([]);
  });
});
