// `portcullis/client` against a running service (issue 13): imported by its package name (the
// `exports` entry, as a user would), typed calls for every family, problem answers thrown as
// PortcullisProblem, and the three stream helpers: AG-UI frames, workflow progress that reconnects
// with Last-Event-ID after a dropped connection, eval progress by polling.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, PortcullisProblem, unwrap, type AguiEvent, type PortcullisClient, type WorkflowProgressEvent } from 'portcullis/client';
import { startLiveService, type LiveService } from '../helpers/live-service.js';
import { AGENT_MD, bundleZip } from './bundles-harness.js';

let live: LiveService;
let client: PortcullisClient;
let datasets: string;

beforeAll(async () => {
  datasets = await mkdtemp(join(tmpdir(), 'portcullis-client-evals-'));
  await writeFile(join(datasets, 'greetings.jsonl'), `${JSON.stringify({ id: 'hi', input: 'hello', assert: [{ type: 'contains', value: 'You said: hello' }] })}\n`);
  live = await startLiveService({ Evaluation: { DatasetRoots: [datasets] } });
  client = createClient({ baseUrl: `${live.url}/`, token: await live.token('client-user') });
});
afterAll(async () => {
  await live.close();
  await rm(datasets, { recursive: true, force: true });
});

async function upload(): Promise<string> {
  return (await client.registerBundle(bundleZip({ 'AGENT.md': AGENT_MD }), 'helper.zip')).handle;
}

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const GATED = {
  name: 'gated',
  steps: [
    { name: 'add', type: 'ToolUse' as const, configuration: { type: 'ToolUse' as const, tool: 'calculator', operation: 'evaluate', parameters: { expression: '2+2' } } },
    { name: 'approve', type: 'HumanGate' as const, configuration: { type: 'HumanGate' as const, message: 'Ship it?' } },
  ],
  edges: [{ from: 'add', to: 'approve' }],
};

describe('portcullis/client', () => {
  it('calls operations with types generated from the document', async () => {
    const tools = await unwrap(client.api.GET('/api/tools'));
    expect(tools.tools.map((tool) => tool.name)).toContain('calculator');
    const invoked = await unwrap(
      client.api.POST('/api/tools/{name}/invoke', { params: { path: { name: 'calculator' } }, body: { operation: 'evaluate', parameters: { expression: '6*7' } } }),
    );
    expect(invoked).toMatchObject({ succeeded: true });
    expect(JSON.stringify(invoked.output)).toContain('42');
  });

  it('throws problem answers as PortcullisProblem with the document’s fields', async () => {
    const failure = await client.api.GET('/api/evals/runs/{jobId}', { params: { path: { jobId: 'no-such-run' } } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PortcullisProblem);
    const problem = failure as PortcullisProblem;
    expect(problem).toMatchObject({ status: 404, title: 'Not found', instance: '/api/evals/runs/no-such-run' });
    expect(problem.problem.type).toMatch(/not-found/);

    const invalid = await client.api.POST('/api/workflows', { body: { name: 'x', steps: [] } as never }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400 });
    expect((invalid as PortcullisProblem).problem.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'missing-field' })]));
  });

  it('streams AG-UI frames from the AG-UI endpoint and from a reserved run', async () => {
    const handle = await upload();
    const events: AguiEvent[] = await collect(client.runAgui(handle, { threadId: 'client-thread', runId: 'ignored', messages: [{ id: 'u1', role: 'user', content: 'hi there' }] }));
    expect(events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 'client-thread' });
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    const runId = events[0]!.runId as string;
    expect(await unwrap(client.api.GET('/api/bundles/{handle}/runs/{jobId}', { params: { path: { handle, jobId: runId } } }))).toMatchObject({ status: 'Succeeded' });

    const started = await unwrap(client.api.POST('/api/bundles/{handle}/runs', { params: { path: { handle } }, body: { userMessages: ['one', 'two'], stream: true } }));
    const streamed = await collect(client.bundleRunEvents(handle, started.jobId));
    expect(streamed.filter((event) => String(event.type) === 'TEXT_MESSAGE_START')).toHaveLength(2);
    expect(streamed.at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('follows workflow progress across a dropped connection by reconnecting with Last-Event-ID, then resumes after an approval', async () => {
    const workflow = await unwrap(client.api.POST('/api/workflows', { body: GATED }));
    const run = await unwrap(client.api.POST('/api/workflows/{workflowId}/runs', { params: { path: { workflowId: workflow.id } } }));

    // A fetch whose first stream breaks off after its first frame, as a flaky proxy would.
    const sentLastEventIds: Array<string | null> = [];
    let streams = 0;
    const flaky: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input instanceof Request ? input.url : input).endsWith('/stream')) return response;
      sentLastEventIds.push(new Headers(init?.headers).get('last-event-id'));
      streams += 1;
      return streams === 1 ? firstFrameOnly(response) : response;
    };
    const flakyClient = createClient({ baseUrl: live.url, token: await live.token('client-user'), fetch: flaky });
    const parked: WorkflowProgressEvent[] = await collect(flakyClient.workflowProgress(workflow.id, run.jobId, { retryDelayMs: 1 }));
    expect(streams).toBe(2);
    expect(sentLastEventIds[0]).toBeNull();
    expect(sentLastEventIds[1]).toBe(parked[0]!.id);
    expect(parked.at(-1)?.frame).toMatchObject({ type: 'PARKED', stepName: 'approve' });

    const approvalId = (parked.at(-1)!.frame as { approvalId: string }).approvalId;
    await unwrap(
      client.api.POST('/api/workflows/{workflowId}/runs/{jobId}/approvals/{approvalId}', {
        params: { path: { workflowId: workflow.id, jobId: run.jobId, approvalId } },
        body: { decision: 'Approve' },
      }),
    );
    const rest = await collect(client.workflowProgress(workflow.id, run.jobId, { lastEventId: parked.at(-1)!.id! }));
    expect(rest.at(-1)?.frame).toMatchObject({ type: 'FINISHED', status: 'Succeeded' });
    const ids = [...parked, ...rest].flatMap((event) => (event.frame.type === 'SNAPSHOT' || event.id === undefined ? [] : [Number(event.id)]));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reports eval progress by polling until the run finishes', async () => {
    const started = await unwrap(client.api.POST('/api/evals/runs', { body: { datasets: ['greetings'], repeats: 2 } }));
    const seen = await collect(client.evalProgress(started.jobId, { intervalMs: 10 }));
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(new Set(seen.map((run) => `${run.status} ${run.progress?.completed}`)).size).toBe(seen.length);
    expect(seen.at(-1)).toMatchObject({ status: 'Succeeded', verdict: 'Pass', counts: { passed: 2, total: 2 } });
  });

  it('keeps an author\'s own dataset and runs it on their uploaded agent against a baseline (DESIGN §19)', async () => {
    const handle = await upload();
    const dataset = (value: string) => ({ cases: [{ id: 'hi', input: 'hello', assert: [{ type: 'contains' as const, value }] }] });
    const stored = await unwrap(client.api.PUT('/api/evals/datasets/mine/{name}', { params: { path: { name: 'greeting-checks' } }, body: dataset('You said: hello') }));
    expect(stored).toMatchObject({ name: 'greeting-checks', version: 1, caseCount: 1 });
    const run = async (body: { datasets: string[]; baseline?: string; failOnRegression?: boolean }) => {
      const started = await unwrap(client.api.POST('/api/evals/runs', { body: { ...body, subject: { handle } } }));
      return (await collect(client.evalProgress(started.jobId, { intervalMs: 10 }))).at(-1)!;
    };
    const baseline = await run({ datasets: ['mine/greeting-checks'] });
    expect(baseline).toMatchObject({ status: 'Succeeded', verdict: 'Pass' });
    const changed = await unwrap(client.api.PUT('/api/evals/datasets/mine/{name}', { params: { path: { name: 'greeting-checks' } }, body: dataset('never said') }));
    expect(changed.version).toBe(2);
    const compared = await run({ datasets: ['mine/greeting-checks@2'], baseline: baseline.jobId, failOnRegression: true });
    expect(compared).toMatchObject({ verdict: 'Fail', datasets: ['mine/greeting-checks@2'] });
    expect(compared.report?.comparison).toEqual({ baseline: baseline.jobId, regressions: [{ dataset: 'mine/greeting-checks@2', caseId: 'hi', was: 'passed', now: 'failed' }], improvements: [], unchanged: 0 });
    const listed = await unwrap(client.api.GET('/api/evals/datasets/mine'));
    expect(listed.datasets).toEqual([expect.objectContaining({ name: 'greeting-checks', version: 2, caseCount: 1 })]);
  });

  it('pins a finished bundle run as a recorded case and replays it with no model (DESIGN §19)', async () => {
    const handle = await upload();
    const started = await unwrap(client.api.POST('/api/bundles/{handle}/runs', { params: { path: { handle } }, body: { userMessages: ['refund order 7', 'thanks'] } }));
    let finished = await unwrap(client.api.GET('/api/bundles/{handle}/runs/{jobId}', { params: { path: { handle, jobId: started.jobId } } }));
    while (finished.status === 'Queued' || finished.status === 'Running') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = await unwrap(client.api.GET('/api/bundles/{handle}/runs/{jobId}', { params: { path: { handle, jobId: started.jobId } } }));
    }
    expect(finished.status).toBe('Succeeded');
    const pinned = await unwrap(
      client.api.POST('/api/evals/datasets/mine/{name}/cases', { params: { path: { name: 'pinned-runs' } }, body: { from: { handle, jobId: started.jobId }, id: 'refund-7' } }),
    );
    expect(pinned).toEqual({ name: 'pinned-runs', version: 1, caseId: 'refund-7' });
    const shown = await unwrap(client.api.GET('/api/evals/datasets/mine/{name}', { params: { path: { name: 'pinned-runs' } } }));
    expect(shown.cases[0]).toMatchObject({ id: 'refund-7', messages: ['refund order 7', 'thanks'], recording: { steps: expect.any(Array) } });

    const replayed = await unwrap(client.api.POST('/api/evals/runs', { body: { datasets: ['mine/pinned-runs'], subject: { handle }, replay: 'all' } }));
    const last = (await collect(client.evalProgress(replayed.jobId, { intervalMs: 10 }))).at(-1)!;
    expect(last).toMatchObject({ status: 'Succeeded', verdict: 'Pass', counts: { passed: 1, total: 1 } });
  });
});

/** The same response, its body cut after the first complete SSE message (no terminal frame). */
function firstFrameOnly(response: Response): Response {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done !== true) buffered += next.value;
      const end = buffered.indexOf('\n\n');
      if (end !== -1 || next.done === true) {
        controller.enqueue(new TextEncoder().encode(end === -1 ? buffered : buffered.slice(0, end + 2)));
        controller.close();
        await reader.cancel();
      }
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

describe('creates are safe to retry (DESIGN §14)', () => {
  it('sends an Idempotency-Key on every create and retries a lost answer with it: one run, the first answer again', async () => {
    const workflow = await unwrap(
      client.api.POST('/api/workflows', { body: { name: 'retried', steps: [{ name: 'now', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} } }], edges: [] } }),
    );
    const sent: Array<string | null> = [];
    let lost = 0;
    // The first start reaches the service and runs, but its answer is lost on the way back.
    const losing: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/runs')) {
        sent.push(request.headers.get('idempotency-key'));
        if (lost === 0) {
          lost += 1;
          throw new TypeError('fetch failed: the connection was reset');
        }
      }
      return response;
    };
    const retrying = createClient({ baseUrl: live.url, token: await live.token('client-user'), fetch: losing, createRetries: { retries: 2, delayMs: 1 } });
    const started = await retrying.api.POST('/api/workflows/{workflowId}/runs', { params: { path: { workflowId: workflow.id } } });
    expect(started.response.status).toBe(202);
    expect(started.response.headers.get('idempotent-replayed')).toBe('true');
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]).toBe(sent[0]);
    const runs = await unwrap(client.api.GET('/api/workflows/runs', { params: { query: { workflowId: workflow.id } } }));
    expect(runs.runs).toHaveLength(1);
  });
});
