// The console's approvals inbox and workflow pages in a real browser: approving a parked run and
// watching it finish, validate-as-you-type with diagnostics on their steps, a run followed live.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_SETTINGS, launchChromium, openPage, screenshot, seriousA11yViolations, startConsoleServer, type ConsoleServer, type WatchedPage } from './harness.js';

let server: ConsoleServer;
let browser: Browser;
let tab: WatchedPage;

beforeAll(async () => {
  server = await startConsoleServer(DEV_SETTINGS);
  browser = await launchChromium();
  tab = await openPage(browser, [server.url]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const GATED = {
  name: 'publish-notes',
  steps: [
    { name: 'draft', type: 'LlmCall', configuration: { type: 'LlmCall', prompt: 'Summarise {{ input.topic }}' } },
    { name: 'review', type: 'HumanGate', configuration: { type: 'HumanGate', message: 'Publish the summary of the release notes?' } },
    { name: 'measure', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'text', operation: 'count_tokens', parameters: { text: '{{ steps.draft.output }}' } } },
  ],
  edges: [
    { from: 'draft', to: 'review' },
    { from: 'review', to: 'measure' },
  ],
  configuration: { input: { topic: 'the release notes' } },
};

// A branch on the input: small orders go straight to the calculator, large ones to a person.
const BRANCHED = {
  name: 'order-size',
  steps: [
    { name: 'is the order large', type: 'ConditionalBranch', configuration: { type: 'ConditionalBranch', condition: 'input.amount > 100', ifTrue: 'approve', ifFalse: 'price' } },
    { name: 'approve', type: 'HumanGate', configuration: { type: 'HumanGate', message: 'Approve the order?' } },
    { name: 'price', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'calculator', operation: 'evaluate', parameters: { expression: '{{ input.amount }} * 1.2' } } },
  ],
  edges: [
    { from: 'is the order large', to: 'approve' },
    { from: 'is the order large', to: 'price' },
  ],
  configuration: { input: { amount: 50 } },
};

type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box): boolean =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  expect(response.ok, `${method} ${path} → ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

async function blockedRun(): Promise<{ workflowId: string; jobId: string }> {
  const { id } = await api<{ id: string }>('POST', '/api/workflows', GATED);
  const { jobId } = await api<{ jobId: string }>('POST', `/api/workflows/${id}/runs`);
  await expect.poll(async () => (await api<{ status: string }>('GET', `/api/workflows/${id}/runs/${jobId}`)).status, { timeout: 10_000 }).toBe('Blocked');
  return { workflowId: id, jobId };
}

describe('console: approvals and workflows', () => {
  it('redirects / to the console, which opens on the approvals inbox with every family in its navigation', async () => {
    const capabilities = tab.page.waitForResponse((response) => response.url().endsWith('/api/capabilities'));
    await tab.page.goto(`${server.url}/`);
    expect(new URL(tab.page.url()).pathname).toBe('/console/');
    await expect.poll(() => tab.page.getByRole('heading', { level: 1 }).textContent()).toBe('Approvals');
    expect(((await (await capabilities).json()) as { families: unknown }).families).toMatchObject({ bundles: true, workflows: true, evals: true, schedules: true });
    const navigation = tab.page.getByRole('navigation', { name: 'Sections' }).getByRole('link');
    expect(await navigation.allTextContents()).toEqual(['Approvals', 'Workflows', 'Bundles', 'Evals', 'Schedules', 'Webhooks', 'Tools']);
  });

  it('approves a parked run from the inbox, beside its step graph, and sees it finish', async () => {
    const { workflowId, jobId } = await blockedRun();
    const { page } = tab;
    await page.goto(`${server.url}/console/#/approvals`);
    const card = page.getByRole('button', { name: /review/ }).first();
    await card.waitFor();
    expect(await card.textContent()).toContain('Publish the summary of the release notes?');
    await card.click();
    await page.locator('svg g[data-step="review"].dag-waiting').waitFor();
    await page.locator('tr[data-step="draft"]').getByText('Succeeded').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Comment (optional)').fill('Looks right to me.');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').filter({ hasText: 'Approved' }).waitFor();
    await page.locator('tr[data-step="measure"]').getByText('Succeeded').waitFor({ timeout: 10_000 });
    await page.locator('svg g[data-step="measure"].dag-succeeded').waitFor();
    await page.getByText('The run ended: Succeeded.').waitFor({ timeout: 10_000 });

    const run = await api<{ status: string; steps: { name: string; output: unknown }[] }>('GET', `/api/workflows/${workflowId}/runs/${jobId}`);
    expect(run.status).toBe('Succeeded');
    expect(run.steps.find((step) => step.name === 'review')?.output).toEqual({ decision: 'Approve', comment: 'Looks right to me.' });
    expect((await api<{ approvals: unknown[] }>('GET', '/api/approvals')).approvals).toEqual([]);
  });

  it('validates a definition as it is typed and shows every diagnostic on its step', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/workflows/new`);
    await page.getByText('Valid: ready to save.').waitFor();
    const broken = {
      name: 'broken',
      steps: [
        { name: 'ask', type: 'LlmCall', configuration: { type: 'LlmCall' } },
        { name: 'use', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'text' } },
      ],
      edges: [
        { from: 'ask', to: 'use' },
        { from: 'use', to: 'ghost' },
      ],
    };
    await page.getByLabel('Definition (JSON)').fill(JSON.stringify(broken, null, 2));
    await page.locator('li[data-step="ask"]').waitFor();
    await page.locator('li[data-step="use"]').waitFor();
    expect(await page.locator('li[data-step="ask"]').textContent()).toContain('missing-field');
    expect(await page.locator('ul.diagnostics').textContent()).toContain('Edge 1 (use → ghost)');
    expect(await page.locator('svg g.dag-problem').count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Save workflow' }).isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'workflow-editor');

    await page.getByLabel('Definition (JSON)').fill('{ "name": ');
    await page.getByText(/Not JSON yet/).waitFor();
  });

  it('saves a workflow, draws its DAG, starts a run and follows its steps live until it parks, then cancels it', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/workflows/new`);
    await page.getByLabel('Definition (JSON)').fill(JSON.stringify(GATED, null, 2));
    await page.getByText('Valid: ready to save.').waitFor();
    await page.getByRole('button', { name: 'Save workflow' }).click();
    await page.getByRole('heading', { level: 1, name: 'publish-notes' }).waitFor();
    expect(await page.locator('svg g[data-step]').count()).toBe(3);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'workflow');

    await page.getByRole('button', { name: 'Start run' }).click();
    await page.getByText(/Waiting for “review”/).waitFor({ timeout: 10_000 });
    await page.locator('svg g[data-step="draft"].dag-succeeded').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'workflow-run');
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.locator('dd .badge-cancelled').waitFor({ timeout: 10_000 });

    await page.goto(`${server.url}/console/#/workflows`);
    await page.getByRole('link', { name: 'publish-notes' }).first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows a step’s name, its whole type and its state on lines of their own, all inside its box', async () => {
    const { id } = await api<{ id: string }>('POST', '/api/workflows', BRANCHED);
    const { jobId } = await api<{ jobId: string }>('POST', `/api/workflows/${id}/runs`);
    await expect.poll(async () => (await api<{ status: string }>('GET', `/api/workflows/${id}/runs/${jobId}`)).status, { timeout: 10_000 }).toBe('Succeeded');
    const { page } = tab;
    await page.goto(`${server.url}/console/#/workflows/${id}/runs/${jobId}`);
    const node = page.locator('svg g[data-step="is the order large"]');
    await page.locator('svg g[data-step="is the order large"].dag-succeeded').waitFor();
    expect(await node.locator('.dag-name').textContent()).toBe('is the order large');
    expect(await node.locator('.dag-type').textContent()).toBe('ConditionalBranch');
    expect(await node.locator('.dag-state').textContent()).toBe('Succeeded');
    const box = (await node.locator('rect.dag-box').boundingBox())!;
    const name = (await node.locator('.dag-name').boundingBox())!;
    const type = (await node.locator('.dag-type').boundingBox())!;
    const state = (await node.locator('.dag-state').boundingBox())!;
    for (const [what, text] of [['name', name], ['type', type], ['state', state]] as const) expect(inside(text, box), `${what} ${JSON.stringify(text)} in ${JSON.stringify(box)}`).toBe(true);
    expect(inside(state, (await node.locator('.dag-badge rect').boundingBox())!)).toBe(true);
    // Not run together: the state sits below the type, which sits below the name.
    expect(type.y).toBeGreaterThanOrEqual(name.y + name.height - 0.5);
    expect(state.y).toBeGreaterThanOrEqual(type.y + type.height - 0.5);
    expect(await page.locator('svg g[data-step="approve"] .dag-state').textContent()).toBe('Skipped');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('ran no inline script, broke no CSP rule and asked nothing of any other origin', async () => {
    expect(await tab.violations()).toEqual([]);
    expect(tab.errors).toEqual([]);
    expect(tab.foreignRequests).toEqual([]);
  });
});
