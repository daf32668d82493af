// DESIGN §12 / issue 12: GET /metrics (Prometheus text, read here with a real exposition-format
// parser) counts what the service did — requests by route pattern, runs by family and outcome, tool
// calls by tool, surface, outcome and denying rule, model calls, tokens and cost, rate-limit
// refusals, archive rejections, redactions — with bounded labels only; and every governance decision
// is one audit event in the JSON log (docs/audit-events.md), with no secret in it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatModel, ChatRequest, ChatStreamPart } from '../../src/models/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { secretRules } from '../../src/platform/redaction/index.js';
import { Exposition } from '../helpers/prometheus.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { bundleSettings, register, registerHandle, settled, startJob } from './bundles-harness.js';
import { chain, gateStep, isFinal, llmStep, pollUntil, start, statusIs, submit, toolStep, workflowSettings } from './workflows-harness.js';

const SECRET = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const PROMPT = 'Summarise the quarterly plan';

/** A model that answers with a secret (redacted on the way out) and reports 3 input and 2 output tokens. */
const model: ChatModel = {
  specificationVersion: 'portcullis-chat-v1',
  provider: 'Scripted',
  modelId: 'metered',
  stream: async function* (_request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    yield { type: 'text-delta', delta: `the token is ${SECRET}` };
    yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2 } };
  },
};

let t: TestApp;
let tempRoot: string;
const lines: Array<Record<string, unknown>> = [];
const ids: string[] = [];
let metrics: Exposition;

async function scrape(): Promise<Exposition> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return new Exposition(res.body);
}

beforeAll(async () => {
  tempRoot = await mkdtemp(join(tmpdir(), 'portcullis-metrics-'));
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  t = await buildTestApp({
    settings: merge(
      bundleSettings(tempRoot),
      workflowSettings({
        ChatModel: { Pricing: { InputPerMillionTokens: 1_000_000, OutputPerMillionTokens: 2_000_000 } },
        BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock', 'http_fetch'], AutonomyCeiling: 'Autonomous' } } },
        RateLimits: { 'tools-read': { PermitsPerMinute: 2 } },
      }),
    ),
    deps: { logger, chatModel: model },
  });
  const succeeding = await submit(t.app, chain('metered', llmStep('ask', PROMPT), toolStep('time')));
  const denied = await submit(t.app, chain('leaky', toolStep('fetch', 'http_fetch', 'get', { url: `http://127.0.0.1:9/?token=${SECRET}` })));
  const gated = await submit(t.app, chain('gated', gateStep('ok')));
  for (const workflowId of [succeeding, denied]) {
    const { jobId, statusUrl } = await start(t.app, workflowId, undefined, { 'x-request-id': `start-${workflowId}` });
    ids.push(jobId, workflowId);
    await pollUntil(t.app, statusUrl, isFinal);
  }
  const gate = await start(t.app, gated);
  ids.push(gate.jobId, gated);
  const waiting = await pollUntil(t.app, gate.statusUrl, statusIs('Blocked'));
  const approvalId = waiting.pendingApprovals[0].approvalId as string;
  const answered = await t.app.inject({ method: 'POST', url: `${gate.statusUrl}/approvals/${approvalId}`, payload: { decision: 'Approve', comment: `ok ${SECRET}` }, headers: { 'x-request-id': 'approve-1' } });
  expect(answered.statusCode, answered.body).toBe(200);
  await pollUntil(t.app, gate.statusUrl, isFinal);
  const handle = await registerHandle(t.app);
  const bundleJob = await startJob(t.app, handle, { userMessages: [PROMPT] }, { 'x-request-id': 'bundle-1' });
  ids.push(handle, bundleJob);
  expect(await settled(t.app, handle, bundleJob)).toMatchObject({ status: 'Succeeded' });
  for (let i = 0; i < 3; i += 1) await t.app.inject({ method: 'GET', url: '/api/tools' });
  expect((await register(t.app, { 'x-request-id': 'upload-1' }, Buffer.from('this is plainly not a zip archive, just some text that is long enough'))).statusCode).toBe(400);
  await t.app.inject({ method: 'GET', url: '/healthz' });
  await t.app.inject({ method: 'GET', url: '/api/nothing/here' });
  metrics = await scrape();
});

afterAll(async () => {
  await t.close();
  await rm(tempRoot, { recursive: true, force: true });
});

describe('GET /metrics', () => {
  it('is public and lists the Node process metrics beside the service’s', () => {
    expect(metrics.family('process_resident_memory_bytes').type).toBe('GAUGE');
    expect(metrics.family('portcullis_http_request_duration_seconds').type).toBe('HISTOGRAM');
  });

  it('times requests by method, route pattern and status; unmatched routes share one label', () => {
    expect(metrics.count('portcullis_http_request_duration_seconds', { method: 'GET', route: '/healthz', status: '200' })).toBe(1);
    expect(metrics.count('portcullis_http_request_duration_seconds', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(metrics.count('portcullis_http_request_duration_seconds', { method: 'POST', route: '/api/workflows/:workflowId/runs', status: '202' })).toBe(3);
  });

  it('counts runs started and finished by family and outcome, with active and queued gauges', () => {
    // Executions: the approved workflow run executed twice — parked for the approval, then woken (decision 3701).
    expect(metrics.value('portcullis_runs_started_total', { family: 'workflow' })).toBe(4);
    expect(metrics.value('portcullis_runs_finished_total', { family: 'workflow', outcome: 'parked' })).toBe(1);
    expect(metrics.value('portcullis_runs_started_total', { family: 'bundle' })).toBe(1);
    expect(metrics.value('portcullis_runs_finished_total', { family: 'bundle', outcome: 'succeeded' })).toBe(1);
    expect(metrics.value('portcullis_runs_finished_total', { family: 'workflow', outcome: 'succeeded' })).toBe(2);
    expect(metrics.value('portcullis_runs_finished_total', { family: 'workflow', outcome: 'failed' })).toBe(1);
    expect(metrics.count('portcullis_run_duration_seconds', { family: 'workflow', outcome: 'succeeded' })).toBe(2);
    expect(metrics.sample('portcullis_runs_active', { family: 'workflow' })?.value).toBe('0');
    expect(metrics.sample('portcullis_runs_queued', { family: 'workflow' })?.value).toBe('0');
    expect(metrics.sample('portcullis_streams_open', { family: 'bundle' })?.value).toBe('0');
  });

  it('counts tool calls by tool, surface and outcome, and a denial by the rule that denied it', () => {
    expect(metrics.value('portcullis_tool_calls_total', { tool: 'clock', surface: 'workflow', outcome: 'succeeded', rule: '' })).toBe(1);
    expect(metrics.value('portcullis_tool_calls_total', { tool: 'http_fetch', surface: 'workflow', outcome: 'denied', rule: 'data_classification' })).toBe(1);
    expect(metrics.count('portcullis_tool_call_duration_seconds', { tool: 'clock', surface: 'workflow' })).toBe(1);
  });

  it('counts model calls (a workflow step and a bundle turn), tokens and dollar cost by provider and model', () => {
    const model = { provider: 'Scripted', model: 'metered' };
    expect(metrics.value('portcullis_model_calls_total', { ...model, outcome: 'succeeded' })).toBe(2);
    expect(metrics.value('portcullis_model_tokens_total', { ...model, type: 'input' })).toBe(6);
    expect(metrics.value('portcullis_model_tokens_total', { ...model, type: 'output' })).toBe(4);
    expect(metrics.value('portcullis_model_cost_dollars_total', model)).toBe(2 * (3 * 1 + 2 * 2));
    expect(metrics.count('portcullis_model_call_duration_seconds', model)).toBe(2);
  });

  it('counts rate-limit refusals by policy, archive rejections by guard and redactions by rule', () => {
    expect(metrics.value('portcullis_rate_limit_refusals_total', { policy: 'tools-read' })).toBe(1);
    expect(metrics.value('portcullis_archive_rejections_total', { guard: 'not-a-zip' })).toBe(1);
    const rules = new Set(secretRules.map((rule) => rule.id));
    const redactions = metrics.family('portcullis_redactions_total').metrics;
    expect(redactions.length).toBeGreaterThan(0);
    for (const sample of redactions) expect(rules.has(sample.labels?.rule ?? '')).toBe(true);
  });

  it('never labels a series with an owner, a job or workflow id, a request id, a parameter or a prompt', () => {
    const values = metrics.labelValues('portcullis_');
    const forbidden = [...ids, 'anonymous:dev', 'approve-1', 'upload-1', 'bundle-1', SECRET, PROMPT];
    for (const value of values) for (const bad of forbidden) expect(value).not.toContain(bad);
  });

  it('answers 404 when AppConfig:Observability:Metrics:Enabled is false', async () => {
    const off = await buildTestApp({ settings: { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: true } } }, Observability: { Metrics: { Enabled: false } } } } });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('audit events in the JSON log', () => {
  const events = (name: string) => lines.filter((line) => line.event === name);

  it('logs the envelope each run was started under, with the rule that chose it and the request id', () => {
    const resolved = events('envelope.resolved');
    expect(resolved).toHaveLength(4);
    expect(resolved[3]).toMatchObject({ surface: 'bundle', source: 'anonymous', jobId: ids[7], reqId: 'bundle-1' });
    expect(resolved[0]).toMatchObject({ owner: 'anonymous:dev', surface: 'workflow', source: 'anonymous', autonomyCeiling: 'Autonomous', allowedTools: 2, jobId: ids[0], reqId: `start-${ids[1]}` });
  });

  it('logs every tool call decision: granted by which rule, denied and why', () => {
    const decided = events('tool.call.decided');
    expect(decided).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: 'clock', surface: 'workflow', verdict: 'allowed', denial: null }),
        expect.objectContaining({ tool: 'http_fetch', operation: 'get', surface: 'workflow', verdict: 'denied', denial: 'data-classification' }),
      ]),
    );
  });

  it('logs the approval requested and who decided it, and the archive guard that refused an upload', () => {
    expect(events('approval.requested')).toEqual([expect.objectContaining({ owner: 'anonymous:dev', kind: 'HumanGate', runKind: 'workflow', jobId: ids[4], reason: 'HumanGate', routedTo: [] })]);
    expect(events('approval.decided')).toEqual([expect.objectContaining({ owner: 'anonymous:dev', by: 'anonymous:dev', decision: 'Approve', reqId: 'approve-1', jobId: ids[4] })]);
    expect(events('archive.refused')).toEqual([expect.objectContaining({ owner: 'anonymous:dev', guard: 'not-a-zip', reqId: 'upload-1' })]);
  });

  it('never carries a parameter, a comment, a prompt or a secret', () => {
    const audit = JSON.stringify(lines.filter((line) => typeof line.event === 'string'));
    for (const bad of [SECRET, PROMPT, 'ok ghp_', '127.0.0.1:9']) expect(audit).not.toContain(bad);
  });
});
