// DESIGN §12 traces, end to end with the real SDK and OTLP exporter (http/json) sending to a loopback
// receiver: an incoming traceparent is continued by the request's SERVER span; the workflow run, each
// step, the model call (`chat {model}`, GenAI attributes) and the tool call (`execute_tool {tool}`,
// the governance decision) nest under it; the model's and the MCP server's HTTP requests carry the
// trace onward; the problem document's traceId is the W3C trace id. No prompt or completion text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { startFakeOpenAIServer, openAIText, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';
import { startHttpMcpServer, type HttpMcpServer } from '../helpers/http-mcp-server.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { chain, isFinal, llmStep, pollUntil, start, submit, toolStep, workflowSettings } from './workflows-harness.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const PROMPT = 'The secret plan is 42';
const COMPLETION = 'a completion nobody should see on a span';
const SECRET = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';

let receiver: OtlpReceiver;
let model: FakeOpenAIServer;
let mcp: HttpMcpServer;
let t: TestApp;
let spans: ReceivedSpan[];
let notFound: { traceId: string; header: string | undefined };

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  model = await startFakeOpenAIServer(() => openAIText(COMPLETION));
  mcp = await startHttpMcpServer();
  t = await buildTestApp({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'portcullis-under-test' },
    settings: workflowSettings({
      ChatModel: { Provider: 'OpenAI', Endpoint: `${model.url}/v1`, Model: 'fake-model', ApiKey: 'sk-test' },
      McpServers: { echoes: { Transport: 'http', Url: mcp.url } },
      BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock', 'http_fetch', 'mcp__echoes__echo'], AllowedMcpServers: ['echoes'], AutonomyCeiling: 'Autonomous' } } },
    }),
  });
  const traceparent = { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` };
  const workflowId = await submit(t.app, chain('traced', llmStep('ask', PROMPT), toolStep('echo', 'mcp__echoes__echo', 'call', { text: 'hello' })));
  const { statusUrl } = await start(t.app, workflowId, undefined, traceparent);
  const run = await pollUntil(t.app, statusUrl, isFinal);
  expect(run.status, JSON.stringify(run)).toBe('Succeeded');
  const leaky = await submit(t.app, chain('leaky', toolStep('fetch', 'http_fetch', 'get', { url: `http://127.0.0.1:9/?token=${SECRET}` })));
  await pollUntil(t.app, (await start(t.app, leaky)).statusUrl, isFinal);
  const missing = await t.app.inject({ method: 'GET', url: '/api/nothing', headers: traceparent });
  notFound = { traceId: missing.json<{ traceId: string }>().traceId, header: missing.headers['x-request-id'] as string | undefined };
  // Closing the app shuts the tracer provider down, which exports every span still batched.
  await t.close();
  spans = receiver.spans;
});

afterAll(async () => {
  await mcp.close();
  await model.close();
  await receiver.close();
});

const named = (name: string): ReceivedSpan => {
  const span = spans.find((s) => s.name === name);
  if (span === undefined) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
  return span;
};
const parentOf = (span: ReceivedSpan): ReceivedSpan | undefined => spans.find((s) => s.spanId === span.parentSpanId);

describe('OpenTelemetry traces over OTLP', () => {
  it('exports with the service name and the http/json encoding', () => {
    expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
    expect(named('POST /api/workflows/:workflowId/runs').resource).toMatchObject({ 'service.name': 'portcullis-under-test' });
  });

  it('continues the caller’s trace: the request span’s parent is the traceparent’s span', () => {
    const request = named('POST /api/workflows/:workflowId/runs');
    expect(request).toMatchObject({ traceId: TRACE_ID, parentSpanId: CALLER_SPAN, kind: 2 });
    expect(request.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/workflows/:workflowId/runs', 'http.response.status_code': 202 });
  });

  it('nests run → step → chat and run → step → execute_tool under the request, all in the caller’s trace', () => {
    const request = named('POST /api/workflows/:workflowId/runs');
    const run = named('workflow run');
    const llm = named('workflow_step LlmCall');
    const tool = named('workflow_step ToolUse');
    const chat = named('chat fake-model');
    const execute = named('execute_tool mcp__echoes__echo');
    expect(parentOf(run)).toBe(request);
    expect(parentOf(llm)).toBe(run);
    expect(parentOf(tool)).toBe(run);
    expect(parentOf(chat)).toBe(llm);
    expect(parentOf(execute)).toBe(tool);
    for (const span of [run, llm, tool, chat, execute]) expect(span.traceId).toBe(TRACE_ID);
    expect(run.attributes).toMatchObject({ 'portcullis.run.family': 'workflow', 'portcullis.run.outcome': 'succeeded' });
    expect(llm.attributes).toMatchObject({ 'portcullis.workflow.step': 'ask', 'portcullis.workflow.step_outcome': 'succeeded' });
  });

  it('puts the GenAI attributes on the model call span', () => {
    const chat = named('chat fake-model');
    expect(chat.kind).toBe(3);
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'fake-model',
      'gen_ai.response.model': 'fake-model',
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(typeof chat.attributes['gen_ai.usage.input_tokens']).toBe('number');
    expect(typeof chat.attributes['gen_ai.usage.output_tokens']).toBe('number');
  });

  it('puts the tool attributes and the governance decision on the tool call span', () => {
    expect(named('execute_tool mcp__echoes__echo').attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'mcp__echoes__echo',
      'portcullis.tool.surface': 'workflow',
      'portcullis.governance.decision': 'allowed',
    });
  });

  it('marks a denied tool call with the decision and the denying rule', () => {
    const denied = named('execute_tool http_fetch');
    expect(denied.attributes).toMatchObject({
      'gen_ai.tool.name': 'http_fetch',
      'portcullis.governance.decision': 'denied',
      'portcullis.governance.denial': 'data-classification',
    });
    expect(denied.traceId).not.toBe(TRACE_ID);
    expect(parentOf(parentOf(denied)!)?.name).toBe('workflow run');
  });

  it('propagates traceparent to the model’s and the MCP server’s HTTP requests, from the span making the call', () => {
    const chat = named('chat fake-model');
    expect(model.requests.map((request) => request.headers.traceparent)).toEqual([`00-${TRACE_ID}-${chat.spanId}-01`]);
    const execute = named('execute_tool mcp__echoes__echo');
    const toolCall = mcp.headers.find((headers) => String(headers.traceparent ?? '').includes(execute.spanId));
    expect(toolCall?.traceparent).toBe(`00-${TRACE_ID}-${execute.spanId}-01`);
  });

  it('answers problems with the W3C trace id as traceId (the request id stays in X-Request-Id)', () => {
    expect(notFound.traceId).toBe(TRACE_ID);
    expect(notFound.header).not.toBe(TRACE_ID);
  });

  it('never puts prompt or completion text on a span', () => {
    const text = JSON.stringify(spans);
    expect(text).not.toContain(PROMPT);
    expect(text).not.toContain(COMPLETION);
    expect(text).not.toContain(SECRET);
  });
});
