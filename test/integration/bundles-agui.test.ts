// DESIGN §12 AG-UI endpoint, driven by the stock `HttpAgent` of @ag-ui/client, unmodified: a
// multi-turn conversation with a tool call over real HTTP, the events passing the client's own
// verification, RUN_STARTED in the client's thread with the service's job id, the run pollable
// afterwards, the history kept by the service, and another caller's thread answered 404.
import { HttpAgent, verifyEvents, type BaseEvent } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import { startLiveService, type LiveService } from '../helpers/live-service.js';
import { AGENT_MD, bundleZip } from './bundles-harness.js';

let live: LiveService;
let token: string;
let handle: string;

async function upload(bearer: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bundleZip({ 'AGENT.md': AGENT_MD })]), 'helper.zip');
  const res = await fetch(`${live.url}/api/bundles`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` }, body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { handle: string }).handle;
}

beforeAll(async () => {
  live = await startLiveService();
  token = await live.token('agui-user');
  handle = await upload(token);
});
afterAll(async () => live.close());

function agent(threadId: string, bearer = token, on = handle): HttpAgent {
  return new HttpAgent({ url: `${live.url}/api/bundles/${on}/agui`, headers: { authorization: `Bearer ${bearer}` }, threadId });
}

/** One turn through the stock client; returns every event it received, in order. */
async function turn(client: HttpAgent, text: string): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  client.addMessage({ id: `user-${client.messages.length}`, role: 'user', content: text });
  await client.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

async function poll(runId: string): Promise<{ status: string; result: { finalResponse: string; totalToolInvocations: number } | null; usage?: { inputTokens: number } }> {
  const res = await fetch(`${live.url}/api/bundles/${handle}/runs/${runId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

describe('POST /api/bundles/{handle}/agui with the stock HttpAgent', () => {
  it('runs a multi-turn conversation with a tool call whose events pass the client’s verification', async () => {
    const client = agent('thread-one');
    const first = await turn(client, 'call calculator evaluate {"expression":"6*7"}');
    // The client's own verifier (the one runAgent applies) accepts the whole sequence again, standalone.
    await expect(lastValueFrom(from(first).pipe(verifyEvents(false), toArray()))).resolves.toHaveLength(first.length);

    const types = first.map((event) => event.type);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    expect(types).toEqual(expect.arrayContaining(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'TEXT_MESSAGE_CONTENT']));
    const started = first[0] as BaseEvent & { threadId: string; runId: string };
    expect(started.threadId).toBe('thread-one');
    expect((first.at(-1) as BaseEvent & { threadId: string }).threadId).toBe('thread-one');
    expect(client.messages.some((message) => message.role === 'tool' && JSON.stringify(message.content).includes('42'))).toBe(true);

    // runId is the service's job id: the run is pollable under the handle afterwards.
    const polled = await poll(started.runId);
    expect(polled.status).toBe('Succeeded');
    expect(polled.result?.totalToolInvocations).toBe(1);

    // The second turn sends the client's whole history; the service reads only the last user message
    // and continues its own copy of the conversation (a longer prompt than the same turn in a new thread).
    const second = await turn(client, 'and thank you');
    await expect(lastValueFrom(from(second).pipe(verifyEvents(false), toArray()))).resolves.toHaveLength(second.length);
    const secondRun = (second[0] as BaseEvent & { runId: string }).runId;
    expect(secondRun).not.toBe(started.runId);
    const continued = await poll(secondRun);
    expect(continued.result?.finalResponse).toBe('You said: and thank you');

    const fresh = await turn(agent('thread-fresh'), 'and thank you');
    const alone = await poll((fresh[0] as BaseEvent & { runId: string }).runId);
    expect(continued.usage!.inputTokens).toBeGreaterThan(alone.usage!.inputTokens);
  });

  it('answers 404 for a thread another caller owns, as a foreign conversationId is', async () => {
    await turn(agent('thread-owned'), 'hello');
    const intruder = await live.token('someone-else');
    const theirs = await upload(intruder);
    await expect(turn(agent('thread-owned', intruder, theirs), 'let me in')).rejects.toThrow(/404/);
    const res = await fetch(`${live.url}/api/bundles/${theirs}/agui`, {
      method: 'POST',
      headers: { authorization: `Bearer ${intruder}`, 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: 'thread-owned', runId: 'r', messages: [{ id: 'm', role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { detail: string }).detail).toMatch(/conversation/i);
    // The same thread is still the owner's.
    expect((await turn(agent('thread-owned'), 'still mine')).at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('refuses an input without a user message, or with fields RunAgentInput does not have, with 400', async () => {
    const post = (body: unknown) =>
      fetch(`${live.url}/api/bundles/${handle}/agui`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ threadId: 't-1', runId: 'r', messages: [{ id: 'm', role: 'assistant', content: 'hi' }] })).status).toBe(400);
    expect((await post({ threadId: 't-1', runId: 'r', messages: [{ id: 'm', role: 'user', content: '   ' }] })).status).toBe(400);
    expect((await post({ threadId: 't-1', runId: 'r', messages: [{ id: 'm', role: 'user', content: 'hi' }], owner: 'x' })).status).toBe(400);
    expect((await post({ threadId: 'not a valid id', runId: 'r', messages: [{ id: 'm', role: 'user', content: 'hi' }] })).status).toBe(400);
  });

  it('echoes the caller’s X-Request-Id on the event stream (a hijacked reply)', async () => {
    const res = await fetch(`${live.url}/api/bundles/${handle}/agui`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': 'agui-stream-1' },
      body: JSON.stringify({ threadId: 'thread-request-id', runId: 'r', messages: [{ id: 'm', role: 'user', content: 'hello' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-request-id')).toBe('agui-stream-1');
    await res.text();
  });

  it('reads the text parts of a user message given as content parts', async () => {
    const res = await fetch(`${live.url}/api/bundles/${handle}/agui`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: 'parts', runId: 'r', messages: [{ id: 'm', role: 'user', content: [{ type: 'text', text: 'from parts' }] }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const deltas = (await res.text())
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => JSON.parse(frame.slice('data: '.length)) as { type: string; delta?: string })
      .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT');
    expect(deltas.map((event) => event.delta).join('')).toBe('You said: from parts');
  });
});

describe('AG-UI interrupts and resume (DESIGN §13) with the stock HttpAgent', () => {
  let supervised: LiveService;
  let user: string;
  let on: string;

  beforeAll(async () => {
    supervised = await startLiveService({
      Approvals: { Enabled: true },
      BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Supervised' } } },
    });
    user = await supervised.token('agui-supervised');
    const form = new FormData();
    form.append('file', new Blob([bundleZip({ 'AGENT.md': AGENT_MD })]), 'helper.zip');
    const res = await fetch(`${supervised.url}/api/bundles`, { method: 'POST', headers: { authorization: `Bearer ${user}` }, body: form });
    on = ((await res.json()) as { handle: string }).handle;
  });
  afterAll(async () => supervised.close());

  it('ends a turn with the interrupt outcome, and a resume decides it and streams the same job’s continuation with the tool result', async () => {
    const client = new HttpAgent({ url: `${supervised.url}/api/bundles/${on}/agui`, headers: { authorization: `Bearer ${user}` }, threadId: 'thread-interrupt' });
    const first: BaseEvent[] = [];
    client.addMessage({ id: 'user-0', role: 'user', content: 'call calculator evaluate {"expression":"6*7"}' });
    await client.runAgent({}, { onEvent: ({ event }) => void first.push(event) });
    // Every event is one of @ag-ui/core's, and the client's verifier accepts the sequence.
    for (const event of first) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
    await expect(lastValueFrom(from(first).pipe(verifyEvents(false), toArray()))).resolves.toHaveLength(first.length);
    expect(first.map((event) => event.type).slice(-2)).toEqual(['TOOL_CALL_END', 'RUN_FINISHED']);
    const finished = first.at(-1) as BaseEvent & { runId: string; outcome: { type: string; interrupts: Array<{ id: string; reason: string; toolCallId: string }> } };
    expect(finished.outcome).toMatchObject({ type: 'interrupt', interrupts: [{ reason: 'tool_approval', toolCallId: expect.any(String) }] });
    const interrupt = finished.outcome.interrupts[0]!;

    const second: BaseEvent[] = [];
    await client.runAgent({ resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { decision: 'Approve', comment: 'go' } }] }, { onEvent: ({ event }) => void second.push(event) });
    for (const event of second) expect(EventSchemas.safeParse(event).success, JSON.stringify(event)).toBe(true);
    await expect(lastValueFrom(from(second).pipe(verifyEvents(false), toArray()))).resolves.toHaveLength(second.length);
    const types = second.map((event) => event.type);
    expect(types[0]).toBe('RUN_STARTED');
    expect((second[0] as BaseEvent & { runId: string }).runId).toBe(finished.runId);
    expect(second).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'TOOL_CALL_RESULT', toolCallId: interrupt.toolCallId, content: expect.stringContaining('"result":42') })]));
    expect(types.at(-1)).toBe('RUN_FINISHED');
    expect((second.at(-1) as BaseEvent & { outcome?: unknown }).outcome).toBeUndefined();

    const approval = await fetch(`${supervised.url}/api/approvals/${interrupt.id}`, { headers: { authorization: `Bearer ${user}` } });
    expect(await approval.json()).toMatchObject({ status: 'Approved', decision: { decision: 'Approve', comment: 'go' } });
    // An interrupt this caller does not have is the same 404 as any unknown id.
    const unknown = await fetch(`${supervised.url}/api/bundles/${on}/agui`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user}`, 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: 'thread-interrupt', runId: 'r', messages: [{ id: 'm', role: 'user', content: 'x' }], resume: [{ interruptId: 'no-such', status: 'cancelled' }] }),
    });
    expect(unknown.status).toBe(404);
  });
});
