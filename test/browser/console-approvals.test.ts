// The console's approvals inbox on the one approval contract (DESIGN §13), in a real browser, with
// approvals on: the anonymous developer holds the approver role (AnonymousRoles) and may decide its own
// approvals (AllowSelfApproval, the default), so its approvals show under both tabs — Mine (its runs)
// and To decide (routed to its role). A supervised workflow ToolUse step waits for a person and is
// approved; a typed gate's answer is a form generated from its responseSchema, refused with the
// server's violations when it breaks it, then approved; a decision made elsewhere first is a 409; with
// self-approval off the owner's own decision is a 403, said as such.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_SETTINGS, launchChromium, openPage, screenshot, seriousA11yViolations, startConsoleServer, type ConsoleServer, type WatchedPage } from './harness.js';

let server: ConsoleServer;
let browser: Browser;
let tab: WatchedPage;

const APPROVER = 'Harness.Approvals.Decide';

beforeAll(async () => {
  const { AI } = DEV_SETTINGS.AppConfig;
  server = await startConsoleServer({
    AppConfig: {
      AI: {
        ...AI,
        Approvals: { Enabled: true },
        BundleExecution: {
          ...AI.BundleExecution,
          Auth: { AllowAnonymous: true, AnonymousRoles: [APPROVER] },
          Envelopes: { Default: { ...AI.BundleExecution.Envelopes.Default, AutonomyCeiling: 'Supervised' } },
        },
      },
    },
  });
  browser = await launchChromium();
  tab = await openPage(browser, [server.url]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface ApprovalBody {
  approvalId: string;
  kind: string;
  status: string;
  decision?: { decision: string; comment?: string; payload?: unknown };
}

async function api<T>(method: string, path: string, body?: unknown, origin = server.url): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  expect(response.ok, `${method} ${path} → ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

/** Submits a workflow, starts it and waits until it is Blocked on its first approval. */
async function blockedRun(definition: unknown, origin = server.url): Promise<{ workflowId: string; jobId: string; approvalId: string }> {
  const { id } = await api<{ id: string }>('POST', '/api/workflows', definition, origin);
  const { jobId } = await api<{ jobId: string }>('POST', `/api/workflows/${id}/runs`, undefined, origin);
  const runPath = `/api/workflows/${id}/runs/${jobId}`;
  await expect.poll(async () => (await api<{ status: string }>('GET', runPath, undefined, origin)).status, { timeout: 10_000 }).toBe('Blocked');
  const { pendingApprovals } = await api<{ pendingApprovals: { approvalId: string }[] }>('GET', runPath, undefined, origin);
  return { workflowId: id, jobId, approvalId: pendingApprovals[0]!.approvalId };
}

const SUPERVISED = {
  name: 'remember-release',
  steps: [
    {
      name: 'remember',
      type: 'ToolUse',
      configuration: { type: 'ToolUse', tool: 'memory', operation: 'set', parameters: { key: 'release', value: { version: 'v2', ships: 'Friday' } } },
    },
  ],
  edges: [],
};

const TYPED = {
  name: 'ticketed-release',
  steps: [
    {
      name: 'ticket',
      type: 'HumanGate',
      configuration: {
        type: 'HumanGate',
        message: 'Which change ticket covers this release?',
        responseSchema: { type: 'object', required: ['ticket'], properties: { ticket: { type: 'string' } } },
      },
    },
  ],
  edges: [],
};

describe('console: approvals on the one approval contract', () => {
  let toolCall: { workflowId: string; jobId: string; approvalId: string };

  it('shows a supervised tool call under Mine with its tool, operation, arguments, risk tier, rule and time left', async () => {
    toolCall = await blockedRun(SUPERVISED);
    const { page } = tab;
    await page.goto(`${server.url}/console/#/approvals`);
    await page.getByRole('tab', { name: 'Mine', selected: true }).waitFor();
    const card = page.getByRole('button', { name: /Tool call memory\.set/ });
    await card.waitFor();
    expect(await card.textContent()).toContain('Supervised ceiling');
    await card.click();

    const detail = page.locator('article[aria-labelledby="approval-heading"]');
    await detail.getByRole('heading', { name: /Tool call memory\.set/ }).waitFor();
    const fact = (term: string) => detail.locator('.facts > div', { has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) }).locator('dd');
    expect(await fact('Kind').textContent()).toBe('Tool call');
    expect(await fact('Tool').textContent()).toBe('memory');
    expect(await fact('Operation').textContent()).toBe('set');
    expect(await fact('Risk tier').textContent()).toBe('Low');
    expect(await fact('Rule that asked').textContent()).toBe('Supervised ceiling');
    expect(await fact('Requested by').textContent()).toBe('someone unnamed');
    expect(await fact('Escalated').textContent()).toBe('no');
    expect(await fact('Step').textContent()).toBe('remember');
    // DefaultTimeout is a day: the countdown starts just under it.
    expect(await fact('Time left').textContent()).toMatch(/^23 h \d+ min left$/);
    expect(await fact('Time left').locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The redacted arguments, pretty-printed.
    const args = await page.getByLabel('Arguments (redacted)').textContent();
    expect(JSON.parse(args!)).toEqual({ key: 'release', value: { version: 'v2', ships: 'Friday' } });
    expect(args).toContain('\n  "key": "release"');
    // Its workflow run's step graph, the step waiting.
    await page.locator('svg g[data-step="remember"].dag-waiting').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'approvals');
  });

  it('shows the same approval under To decide, routed to the approver role', async () => {
    const { page } = tab;
    await page.getByRole('tab', { name: 'To decide' }).click();
    await page.waitForURL(/#\/approvals\/to-decide$/);
    // The selection follows the route on the next render: wait for it rather than read it at once.
    await page.getByRole('tab', { name: 'To decide', selected: true }).waitFor();
    await page.getByRole('tabpanel', { name: 'To decide' }).getByRole('button', { name: /Tool call memory\.set/ }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    const routed = await api<{ approvals: ApprovalBody[] }>('GET', '/api/approvals?scope=approver');
    expect(routed.approvals.map((a) => a.approvalId)).toContain(toolCall.approvalId);

    // The tabs follow the arrow keys.
    await page.getByRole('tab', { name: 'To decide' }).press('ArrowLeft');
    await page.waitForURL(/#\/approvals$/);
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id)).toBe('approvals-tab-mine');
  });

  it('approves the tool call through the decision route: the tool runs and the run goes on', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/approvals/to-decide`);
    await page.getByRole('button', { name: /Tool call memory\.set/ }).click();
    await page.getByLabel('Comment (optional)').fill('Release note is fine.');
    const decision = page.waitForRequest((request) => request.method() === 'POST');
    await page.getByRole('button', { name: 'Approve' }).click();
    expect(new URL((await decision).url()).pathname).toBe(`/api/approvals/${toolCall.approvalId}/decision`);
    await page.getByRole('status').filter({ hasText: /^Approved by anonymous:dev .*: “Release note is fine\.”/ }).waitFor();
    await page.locator('tr[data-step="remember"]').getByText('Succeeded').waitFor({ timeout: 10_000 });
    await page.getByText('The run ended: Succeeded.').waitFor({ timeout: 10_000 });

    const approval = await api<ApprovalBody>('GET', `/api/approvals/${toolCall.approvalId}`);
    expect(approval).toMatchObject({ kind: 'ToolCall', status: 'Approved', decision: { decision: 'Approve', comment: 'Release note is fine.' } });
    const run = await api<{ status: string }>('GET', `/api/workflows/${toolCall.workflowId}/runs/${toolCall.jobId}`);
    expect(run.status).toBe('Succeeded');
    await page.getByText('0 pending · refreshed live').waitFor();
  });

  it('answers a typed gate through a form generated from its responseSchema: the server’s violations beside it, then approved', async () => {
    const gate = await blockedRun(TYPED);
    const { page } = tab;
    await page.goto(`${server.url}/console/#/approvals`);
    await page.getByRole('button', { name: /Gate “ticket”/ }).click();
    await page.getByLabel('What it asks').getByText('Which change ticket covers this release?').waitFor();
    expect(await page.locator('.facts dt', { hasText: /^Tool$/ }).count()).toBe(0);
    const field = page.getByLabel('ticket (required)');
    await field.waitFor();

    // Left empty, the answer breaks the schema: the server's 400 names the violation beside the form.
    await page.getByRole('button', { name: 'Approve' }).click();
    const violations = page.locator('form.decision [role="alert"]');
    await violations.getByText('The answer does not meet the response schema:').waitFor();
    expect(await violations.locator('ul.violations li').allTextContents()).toEqual(["payload must have required property 'ticket'"]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect((await api<ApprovalBody>('GET', `/api/approvals/${gate.approvalId}`)).status).toBe('Pending');

    await field.fill('CHG-4711');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').filter({ hasText: /^Approved by/ }).waitFor();
    expect(await violations.count()).toBe(0);
    expect(JSON.parse((await page.getByLabel('The answer given').textContent())!)).toEqual({ ticket: 'CHG-4711' });
    await page.getByText('The run ended: Succeeded.').waitFor({ timeout: 10_000 });

    const run = await api<{ steps: { name: string; output: unknown }[] }>('GET', `/api/workflows/${gate.workflowId}/runs/${gate.jobId}`);
    expect(run.steps.find((step) => step.name === 'ticket')?.output).toEqual({ decision: 'Approve', comment: null, payload: { ticket: 'CHG-4711' } });
  });

  it('shows a 409 when the approval was decided elsewhere, and the approval as it now stands', async () => {
    const gate = await blockedRun(TYPED);
    const { page } = tab;
    await page.goto(`${server.url}/console/#/approvals`);
    await page.getByRole('button', { name: /Gate “ticket”/ }).click();
    await page.getByLabel('ticket (required)').waitFor();
    await api('POST', `/api/approvals/${gate.approvalId}/decision`, { decision: 'Reject', comment: 'Not this week.' });

    await page.getByLabel('ticket (required)').fill('CHG-1');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('alert').filter({ hasText: 'This approval can no longer be decided that way: Conflict' }).waitFor();
    await page.getByRole('status').filter({ hasText: /^Rejected by .*: “Not this week\.”/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('ran no inline script, broke no CSP rule and asked nothing of any other origin', async () => {
    expect(await tab.violations()).toEqual([]);
    expect(tab.errors).toEqual([]);
    expect(tab.foreignRequests).toEqual([]);
  });
});

describe('console: approvals with self-approval off', () => {
  let strict: ConsoleServer;
  let strictTab: WatchedPage;

  beforeAll(async () => {
    const { AI } = DEV_SETTINGS.AppConfig;
    strict = await startConsoleServer({ AppConfig: { AI: { ...AI, Approvals: { Enabled: true, AllowSelfApproval: false } } } });
    strictTab = await openPage(browser, [strict.url]);
  });

  afterAll(async () => {
    await strictTab?.context.close();
    await strict?.close();
  });

  it('says plainly that the owner may not decide its own approval (403, separation of duties)', async () => {
    const gate = await blockedRun(TYPED, strict.url);
    const { page } = strictTab;
    await page.goto(`${strict.url}/console/#/approvals`);
    await page.getByRole('button', { name: /Gate “ticket”/ }).click();
    await page.getByRole('button', { name: 'Reject' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'You may not decide this approval (separation of duties): Forbidden' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('an approver must');
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    expect((await api<ApprovalBody>('GET', `/api/approvals/${gate.approvalId}`, undefined, strict.url)).status).toBe('Pending');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(strictTab.errors).toEqual([]);
    expect(strictTab.foreignRequests).toEqual([]);
  });
});
