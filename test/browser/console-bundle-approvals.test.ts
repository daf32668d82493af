// The bundle chat with supervised tool calls (DESIGN §13), in a real browser. Approvals on and a
// Supervised default envelope: `call clock now` makes the Scripted model call a tool that waits for a
// person. The anonymous developer may decide its own calls (AllowSelfApproval, the default), so the
// chat shows the waiting call with Approve / Reject; deciding goes through the decision route and the
// same job's continuation is streamed in (the AG-UI resume, which only attaches once decided): the
// tool's result and the final answer, or the rejection the model was told. A waiting run found by a
// poll (the Runs list after a reload) is taken into the conversation the same way. With self-approval
// off, the owner (signed in through the dev IdP) sees the call wait for an approver without buttons,
// and the chat follows the run on once the approver decides; a call nobody decides expires, which the
// chat follows on as a rejection.
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { buildZip } from '../fixtures/zip-builder.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { DEV_SETTINGS, launchChromium, openPage, seriousA11yViolations, startConsoleServer, type ConsoleServer, type WatchedPage } from './harness.js';

const APPROVER = 'Harness.Approvals.Decide';
const AGENT = '---\nid: careful-helper\nname: Careful helper\nallowed-tools: [clock, calculator]\n---\nYou tell the time.\n';
const REJECTED = 'Tool call rejected by an approver.';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

type Headers = Record<string, string>;

async function api<T>(origin: string, method: string, path: string, body?: unknown, headers: Headers = {}): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${method} ${path} → ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

async function upload(origin: string, headers: Headers = {}): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([buildZip({ entries: [{ name: 'AGENT.md', data: AGENT }] })]), 'careful.zip');
  const response = await fetch(`${origin}/api/bundles`, { method: 'POST', headers, body: form });
  expect(response.status).toBe(201);
  return ((await response.json()) as { handle: string }).handle;
}

interface Polled {
  readonly status: string;
  readonly pendingApprovals?: { approvalId: string; tool: string; operation: string }[];
  readonly result: { finalResponse: string } | null;
}

/** The run the chat's last message started, as its poll body tells it. */
async function lastRun(origin: string, handle: string, headers: Headers = {}): Promise<Polled & { jobId: string }> {
  const { runs } = await api<{ runs: (Polled & { jobId: string })[] }>(origin, 'GET', `/api/bundles/${handle}/runs?limit=1`, undefined, headers);
  return runs[0]!;
}

/**
 * An anonymous Development service with approvals on (these settings) and a Supervised default envelope,
 * a tab on it, and the bundle uploaded.
 */
async function supervisedChat(approvals: Record<string, unknown>, anonymousRoles: string[]): Promise<{ server: ConsoleServer; tab: WatchedPage; handle: string }> {
  const { AI } = DEV_SETTINGS.AppConfig;
  const { BundleExecution } = AI;
  const server = await startConsoleServer({
    AppConfig: {
      AI: {
        ...AI,
        Approvals: approvals,
        BundleExecution: {
          ...BundleExecution,
          Auth: { AllowAnonymous: true, AnonymousRoles: anonymousRoles },
          Envelopes: { Default: { ...BundleExecution.Envelopes.Default, AutonomyCeiling: 'Supervised' } },
        },
      },
    },
  });
  return { server, tab: await openPage(browser, [server.url]), handle: await upload(server.url) };
}

/** No inline script ran, no CSP rule broke, nothing was asked of another origin, nothing threw. */
async function expectCleanTab(tab: WatchedPage): Promise<void> {
  expect(await tab.violations()).toEqual([]);
  expect(tab.errors).toEqual([]);
  expect(tab.foreignRequests).toEqual([]);
}

/** The waiting call's card in the transcript. */
const waitingCard = (page: Page) => page.locator('.msg-approval').last();
const fact = (page: Page, term: string) => waitingCard(page).locator('.facts > div', { has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) }).locator('dd');

async function say(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe('console: a bundle chat whose tool call waits for a person', () => {
  let server: ConsoleServer;
  let tab: WatchedPage;
  let handle: string;

  beforeAll(async () => {
    ({ server, tab, handle } = await supervisedChat({ Enabled: true }, [APPROVER]));
  });

  afterAll(async () => {
    await tab?.context.close();
    await server?.close();
  });

  it('shows the waiting call with its tool, operation, arguments, risk tier and time left, and Approve / Reject', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/bundles/${handle}`);
    await page.getByRole('heading', { level: 1, name: 'Agent careful-helper' }).waitFor();
    await say(page, 'call clock now');

    await waitingCard(page).getByRole('button', { name: 'Approve' }).waitFor({ timeout: 10_000 });
    expect(await waitingCard(page).getByRole('button', { name: 'Reject' }).count()).toBe(1);
    expect(await waitingCard(page).locator('p').first().textContent()).toContain('The agent asks to call clock (now); a person decides.');
    expect(await fact(page, 'Tool').textContent()).toBe('clock');
    expect(await fact(page, 'Operation').textContent()).toBe('now');
    expect(await fact(page, 'Risk tier').textContent()).toBe('Trivial');
    expect(await fact(page, 'Rule that asked').textContent()).toBe('Supervised ceiling');
    expect(await fact(page, 'Time left').textContent()).toMatch(/^23 h \d+ min left$/);
    expect(JSON.parse((await waitingCard(page).getByLabel('Arguments (redacted)').textContent())!)).toEqual({});
    // The call has not run, and the conversation waits for the decision.
    expect(await page.locator('.msg-tool').last().textContent()).toContain('not run: waiting for a decision');
    expect(await page.getByRole('button', { name: 'Waiting for a decision…' }).isDisabled()).toBe(true);
    expect(await page.locator('.msg-end').count()).toBe(0);

    // The run is Running with the call in pendingApprovals, and the Runs list says so.
    const run = await lastRun(server.url, handle);
    expect(run).toMatchObject({ status: 'Running', pendingApprovals: [{ tool: 'clock', operation: 'now' }] });
    await page.locator('.pane').getByText('waits for a decision on clock.now').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('approves through the decision route; the tool’s result and the final answer follow', async () => {
    const { page } = tab;
    const { jobId, pendingApprovals } = await lastRun(server.url, handle);
    const approvalId = pendingApprovals![0]!.approvalId;
    const posts: Request[] = [];
    const onRequest = (request: Request): void => void (request.method() === 'POST' && posts.push(request));
    page.on('request', onRequest);

    await waitingCard(page).getByLabel('Comment (optional)').fill('Reading the clock is fine.');
    await waitingCard(page).getByRole('button', { name: 'Approve' }).click();
    await waitingCard(page).getByRole('status').filter({ hasText: /^Approved by anonymous:dev .*: “Reading the clock is fine\.”/ }).waitFor();
    await page.locator('.msg-end').waitFor({ timeout: 10_000 });

    const result = await page.locator('.msg-tool').last().getByLabel('Result of clock').textContent();
    expect(result).toMatch(/\d{4}-\d\d-\d\dT/);
    expect(await page.locator('.msg-assistant .bubble').last().textContent()).toBe(`Tool results:\n- clock: ${result}`);
    expect(await waitingCard(page).getByRole('button').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(1);
    // Decided through the decision route, then the continuation followed (the AG-UI resume, attaching).
    expect(posts.map((request) => new URL(request.url()).pathname)).toEqual([`/api/approvals/${approvalId}/decision`, `/api/bundles/${handle}/agui`]);
    expect(posts[0]!.postDataJSON()).toEqual({ decision: 'Approve', comment: 'Reading the clock is fine.' });
    expect(posts[1]!.postDataJSON()).toMatchObject({ resume: [{ interruptId: approvalId, status: 'resolved', payload: { decision: 'Approve' } }] });
    page.off('request', onRequest);

    const run = await api<Polled>(server.url, 'GET', `/api/bundles/${handle}/runs/${jobId}`);
    expect(run).toMatchObject({ status: 'Succeeded', result: { finalResponse: `Tool results:\n- clock: ${result}` } });
    expect(run.pendingApprovals).toBeUndefined();
    await page.locator('.pane').getByText('Succeeded').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('rejects: the model is told the call was rejected, and says so', async () => {
    const { page } = tab;
    await say(page, 'call clock now');
    await waitingCard(page).getByRole('button', { name: 'Reject' }).waitFor({ timeout: 10_000 });
    await waitingCard(page).getByRole('button', { name: 'Reject' }).click();
    await waitingCard(page).getByRole('status').filter({ hasText: /^Rejected by anonymous:dev / }).waitFor();
    await expect.poll(() => page.locator('.msg-end').count(), { timeout: 10_000 }).toBe(2);
    expect(await page.locator('.msg-tool').last().getByLabel('Result of clock').textContent()).toBe(REJECTED);
    expect(await page.locator('.msg-assistant .bubble').last().textContent()).toBe(`Tool results:\n- clock: ${REJECTED}`);
    expect((await lastRun(server.url, handle)).result?.finalResponse).toBe(`Tool results:\n- clock: ${REJECTED}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('takes a waiting run its poll shows (pendingApprovals) into the conversation, and approves it there', async () => {
    const { page } = tab;
    const { jobId } = await api<{ jobId: string }>(server.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['call clock now'] });
    await expect.poll(async () => (await api<Polled>(server.url, 'GET', `/api/bundles/${handle}/runs/${jobId}`)).pendingApprovals?.length ?? 0, { timeout: 10_000 }).toBe(1);

    await page.reload();
    await page.locator('.pane').getByText('waits for a decision on clock.now').waitFor();
    await page.getByRole('button', { name: 'Show in the conversation' }).click();
    await waitingCard(page).getByRole('button', { name: 'Approve' }).click();
    await page.locator('.msg-end').waitFor({ timeout: 10_000 });
    expect(await page.getByLabel('Result of clock').textContent()).toMatch(/\d{4}-\d\d-\d\dT/);
    expect(await page.locator('.msg-assistant .bubble').last().textContent()).toMatch(/^Tool results:\n- clock: \{"iso":"\d{4}-/);
    expect(await page.getByRole('button', { name: 'Show in the conversation' }).count()).toBe(0);
    expect((await api<Polled>(server.url, 'GET', `/api/bundles/${handle}/runs/${jobId}`)).status).toBe('Succeeded');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('ran no inline script, broke no CSP rule and asked nothing of any other origin', async () => {
    await expectCleanTab(tab);
  });
});

describe('console: a bundle chat whose owner may not decide its own calls (AllowSelfApproval false)', () => {
  let idp: DevIdp;
  let server: ConsoleServer;
  let tab: WatchedPage;
  let handle: string;
  let sam: Headers;
  let vera: Headers;

  beforeAll(async () => {
    idp = await startTestIdp();
    const { Auth: _anonymous, ...bundleExecution } = DEV_SETTINGS.AppConfig.AI.BundleExecution;
    server = await startConsoleServer(
      idpSettings(idp, {
        ...DEV_SETTINGS.AppConfig.AI,
        Approvals: { Enabled: true, AllowSelfApproval: false },
        BundleExecution: { ...bundleExecution, Envelopes: { Default: { ...bundleExecution.Envelopes.Default, AutonomyCeiling: 'Supervised' } } },
      }),
    );
    tab = await openPage(browser, [server.url, idp.url]);
    const samToken = await idp.mintToken({ sub: 'sam', name: 'Sam' });
    sam = bearer(samToken);
    vera = bearer(await idp.mintToken({ sub: 'vera', name: 'Vera', roles: [APPROVER] }));
    handle = await upload(server.url, sam);
    const { page } = tab;
    await page.goto(`${server.url}/console/#/bundles/${handle}`);
    await page.getByLabel('Access token (JWT)').fill(samToken);
    await page.getByRole('button', { name: 'Use this token' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agent careful-helper' }).waitFor();
  });

  afterAll(async () => {
    await tab?.context.close();
    await server?.close();
    await idp?.close();
  });

  const decide = async (decision: 'Approve' | 'Reject'): Promise<void> => {
    const { pendingApprovals } = await lastRun(server.url, handle, sam);
    await api(server.url, 'POST', `/api/approvals/${pendingApprovals![0]!.approvalId}/decision`, { decision }, vera);
  };

  it('learns from the 403 that the owner may not decide, shows the call waiting for an approver, and follows the run once one approves', async () => {
    const { page } = tab;
    await say(page, 'call clock now');
    await waitingCard(page).getByRole('button', { name: 'Approve' }).click({ timeout: 10_000 });
    const refusal = waitingCard(page).getByRole('alert').filter({ hasText: 'You may not decide this approval (separation of duties): Forbidden' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('an approver must');
    await waitingCard(page).getByRole('status').filter({ hasText: /^Waiting for an approver/ }).waitFor();
    expect(await waitingCard(page).getByRole('button').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await decide('Approve');
    await waitingCard(page).getByRole('status').filter({ hasText: /^Approved by Vera / }).waitFor({ timeout: 10_000 });
    await page.locator('.msg-end').waitFor({ timeout: 10_000 });
    expect(await page.locator('.msg-assistant .bubble').last().textContent()).toMatch(/^Tool results:\n- clock: \{"iso":"\d{4}-/);
  });

  it('shows a later waiting call without buttons from the start, and follows the run to the approver’s rejection', async () => {
    const { page } = tab;
    await say(page, 'call clock now');
    await waitingCard(page).getByRole('status').filter({ hasText: /^Waiting for an approver/ }).waitFor({ timeout: 10_000 });
    expect(await fact(page, 'Tool').textContent()).toBe('clock');
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reject' }).count()).toBe(0);
    expect(await waitingCard(page).getByRole('alert').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await decide('Reject');
    await waitingCard(page).getByRole('status').filter({ hasText: /^Rejected by Vera / }).waitFor({ timeout: 10_000 });
    await expect.poll(() => page.locator('.msg-end').count(), { timeout: 10_000 }).toBe(2);
    expect(await page.locator('.msg-assistant .bubble').last().textContent()).toBe(`Tool results:\n- clock: ${REJECTED}`);
    await expectCleanTab(tab);
  });
});

describe('console: a bundle chat whose waiting call expires undecided', () => {
  let server: ConsoleServer;
  let tab: WatchedPage;
  let handle: string;

  beforeAll(async () => {
    // Nobody may decide (the anonymous owner is refused by separation of duties): only expiry ends the wait.
    ({ server, tab, handle } = await supervisedChat({ Enabled: true, AllowSelfApproval: false, DefaultTimeout: '00:00:02' }, []));
  });

  afterAll(async () => {
    await tab?.context.close();
    await server?.close();
  });

  it('follows the run past the expiry, a rejection: the model is told and says so', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/console/#/bundles/${handle}`);
    await say(page, 'call clock now');
    await waitingCard(page).getByRole('status').filter({ hasText: 'Expired undecided: that counts as a rejection.' }).waitFor({ timeout: 10_000 });
    await page.locator('.msg-end').waitFor({ timeout: 10_000 });
    expect(await page.locator('.msg-assistant .bubble').last().textContent()).toBe(`Tool results:\n- clock: ${REJECTED}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await expectCleanTab(tab);
  });
});
