// The MCP gateway at /mcp (DESIGN.md §15, issue 26) driven by real MCP clients over Streamable HTTP on
// loopback — the official v2 client at 2026-07-28 and 2025-06-18, the v1 SDK client at 2025-11-25 —
// with tokens from a real `portcullis dev-idp`: tools/list is the caller's catalog with the
// model-facing schema, tools/call is direct invocation (its gates, slots, deadline, audit line and
// metric, surface `mcp`), every refusal an `isError` result with the text HTTP gives; the 401 names the
// RFC 9728 document, which leads an OAuth client to the identity provider and back; and hostile
// requests (a 1,000-call batch, an oversized body, someone else's tool, arguments against the schema,
// a client that never reads its answer) are refused or bounded.
import { connect } from 'node:net';
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { INVOKE_FORBIDDEN_DETAIL } from '../../src/platform/access/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { captureLog } from '../helpers/log-capture.js';
import { connectMcp, REVISIONS, type McpTestClient } from '../helpers/mcp-gateway-clients.js';
import { eventually } from '../helpers/eventually.js';
import { startHangingServer, type HangingServer } from '../helpers/hanging-server.js';
import { Exposition } from '../helpers/prometheus.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const INVOKE = 'Harness.Tools.Invoke';
const log = captureLog();
let idp: DevIdp;
let t: TestApp;
let base: string;
let mcpUrl: string;
let hanging: HangingServer;

const ENVELOPES = {
  BySubject: {
    alice: { AllowedTools: ['clock', 'calculator', 'json', 'memory', 'http_fetch'], AutonomyCeiling: 'Autonomous' },
    carol: { AllowedTools: ['memory'], AutonomyCeiling: 'Autonomous' },
    bob: { AllowedTools: ['calculator'], AutonomyCeiling: 'Autonomous' },
    sam: { AllowedTools: ['clock'], AutonomyCeiling: 'Supervised' },
    dana: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' },
  },
};

beforeAll(async () => {
  idp = await startTestIdp();
  hanging = await startHangingServer();
  t = await buildTestApp({
    environment: 'Production',
    settings: idpSettings(idp, {
      McpGateway: { Enabled: true },
      DirectToolInvocation: { Enabled: true, MaxRequestBytes: 262_144, DefaultTimeoutSeconds: 3 },
      Tools: { HttpFetch: { AllowedHosts: ['127.0.0.1'] } },
      BundleExecution: { Envelopes: ENVELOPES },
      RateLimits: { 'tools-read': { PermitsPerMinute: 100_000 }, 'tools-invoke': { PermitsPerMinute: 100_000 } },
    }),
    deps: { logger: createLogger({ level: 'info', destination: log.destination }) },
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  mcpUrl = `${base}/mcp`;
});

afterAll(async () => {
  await t.close();
  await hanging.close();
  await idp.close();
});

function token(sub: string, roles: string[] = [INVOKE]): Promise<string> {
  return idp.mintToken({ sub, roles });
}

/** What POST /api/tools/{name}/invoke answers the same caller: `output` or `error` on 200, else the problem's detail. */
async function overHttp(sub: string, name: string, body: Record<string, unknown>, roles?: string[]): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base}/api/tools/${name}/invoke`, {
    method: 'POST',
    headers: { ...bearer(await token(sub, roles)), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { output?: string; error?: string; detail?: string };
  return { status: res.status, text: answer.output ?? answer.error ?? answer.detail ?? '' };
}

function textOf(result: { content: ReadonlyArray<{ type: string; text?: string }> }): string {
  expect(result.content).toHaveLength(1);
  expect(result.content[0]?.type).toBe('text');
  return result.content[0]?.text ?? '';
}

/** One raw JSON-RPC POST to /mcp (the 2025 revisions need no handshake on a stateless server). */
function rawPost(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
}

function decisions(): Array<Record<string, unknown>> {
  return log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === 'tool.call.decided');
}

describe.each(REVISIONS)('a real MCP client speaking %s', (revision) => {
  const open: McpTestClient[] = [];
  async function client(sub: string, roles?: string[]): Promise<McpTestClient> {
    const connected = await connectMcp(mcpUrl, revision, await token(sub, roles));
    open.push(connected);
    return connected;
  }
  afterAll(async () => {
    for (const connected of open.splice(0)) await connected.close();
  });

  it('negotiates this revision', async () => {
    expect((await client('alice')).negotiated).toBe(revision);
  });

  it('lists the caller’s catalog: the tools GET /api/tools lists, with the schema a model sees and annotations from their metadata', async () => {
    const tools = await (await client('alice')).listTools();
    const catalog = (await (await fetch(`${base}/api/tools`, { headers: bearer(await token('alice')) })).json()) as { tools: Array<{ name: string }> };
    expect(tools.map((tool) => tool.name)).toEqual(catalog.tools.map((tool) => tool.name));
    const clock = tools.find((tool) => tool.name === 'clock');
    expect(clock?.inputSchema).toMatchObject({ type: 'object', properties: { operation: { enum: ['now', 'convert'] }, parameters: { type: 'object' } }, required: ['operation'] });
    expect(Object.keys(clock?.inputSchema.properties as object)).toEqual(['operation', 'parameters']);
    expect(clock?.inputSchema.additionalProperties).toBe(false);
    expect(clock?.description).toContain('- now:');
    expect(clock?.description).toContain('Parameters schema: {');
    expect(clock?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(tools.find((tool) => tool.name === 'http_fetch')?.annotations).toEqual({ readOnlyHint: true, destructiveHint: true, openWorldHint: true });
    expect(tools.find((tool) => tool.name === 'memory')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
  });

  it('shows each caller only their own envelope’s tools', async () => {
    expect((await (await client('bob')).listTools()).map((tool) => tool.name)).toEqual(['calculator']);
    expect(await (await client('nobody')).listTools()).toEqual([]);
  });

  it('calls a tool as direct invocation does and answers its output as text', async () => {
    const result = await (await client('alice')).callTool('clock', { operation: 'now', parameters: { timeZone: 'Europe/Paris' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toMatchObject({ timeZone: 'Europe/Paris' });
    const sum = await (await client('bob')).callTool('calculator', { operation: 'evaluate', parameters: { expression: '6 * 7' } });
    expect(textOf(sum)).toBe((await overHttp('bob', 'calculator', { operation: 'evaluate', parameters: { expression: '6 * 7' } })).text);
  });

  it('answers a tool’s own failure as isError with the error HTTP gives', async () => {
    const call = { operation: 'query', parameters: { data: {}, expression: '[[[' } };
    const result = await (await client('alice')).callTool('json', call);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe((await overHttp('alice', 'json', call)).text);
  });

  it('refuses a tool the envelope does not grant — someone else’s, or none at all — with HTTP’s 404 text', async () => {
    const bob = await client('bob');
    const http = await overHttp('bob', 'memory', { operation: 'list' });
    expect(http.status).toBe(404);
    for (const name of ['memory', 'no_such_tool', 'render_chart']) {
      const result = await bob.callTool(name, { operation: 'list' });
      expect(result).toMatchObject({ isError: true });
      expect(textOf(result)).toBe(http.text);
    }
  });

  it('keeps each caller’s state their own (memory set by alice is not carol’s)', async () => {
    const key = `k-${revision}`;
    expect((await (await client('alice')).callTool('memory', { operation: 'set', parameters: { key, value: 'alice’s' } })).isError).toBeFalsy();
    const carol = textOf(await (await client('carol')).callTool('memory', { operation: 'get', parameters: { key } }));
    expect(carol).not.toContain('alice’s');
    expect(textOf(await (await client('alice')).callTool('memory', { operation: 'get', parameters: { key } }))).toContain('alice’s');
  });

  it('refuses arguments that violate the schema with the text HTTP gives', async () => {
    const alice = await client('alice');
    const cases: Array<Record<string, unknown>> = [
      { operation: 'now', parameters: { timeZone: 5 } },
      { operation: 'now', parameters: { nope: true } },
      { operation: 'explode' },
    ];
    for (const call of cases) {
      const http = await overHttp('alice', 'clock', call);
      expect(http.status).toBe(400);
      const result = await alice.callTool('clock', call);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(http.text);
    }
    // Arguments that are not `{ operation, parameters }`: HTTP's check of its body, naming `arguments`.
    for (const call of [{ parameters: {} }, { operation: 'now', extra: 1 }, { operation: '' }]) {
      const http = await overHttp('alice', 'clock', call);
      expect(http).toMatchObject({ status: 400, text: expect.stringMatching(/^body/) });
      expect(textOf(await alice.callTool('clock', call))).toBe(http.text.replaceAll('body', 'arguments'));
    }
    // timeoutSeconds is HTTP's own field; the tool's input schema has no room for it.
    expect(textOf(await alice.callTool('clock', { operation: 'now', timeoutSeconds: 1 }))).toMatch(/^arguments\/timeoutSeconds/);
  });

  it('refuses a caller without Harness.Tools.Invoke, and a ceiling below Autonomous, with HTTP’s 403 text', async () => {
    const viewer = await client('alice', []);
    expect((await viewer.listTools()).length).toBeGreaterThan(0);
    const refused = await viewer.callTool('clock', { operation: 'now' });
    expect(refused).toMatchObject({ isError: true });
    expect(textOf(refused)).toBe(INVOKE_FORBIDDEN_DETAIL);
    expect((await overHttp('alice', 'clock', { operation: 'now' }, [])).text).toBe(INVOKE_FORBIDDEN_DETAIL);
    const supervised = await (await client('sam')).callTool('clock', { operation: 'now' });
    expect(supervised).toMatchObject({ isError: true });
    expect(textOf(supervised)).toBe((await overHttp('sam', 'clock', { operation: 'now' })).text);
  });
});

describe('revisions it does not serve', () => {
  it('answers an older initialize with 2025-11-25, and refuses a request of a revision it does not serve', async () => {
    const alice = bearer(await token('alice'));
    const initialize = await rawPost(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }),
      alice,
    );
    expect(await initialize.json()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} } } });
    const old = await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { ...alice, 'mcp-protocol-version': '2025-03-26' });
    expect(old.status).toBe(400);
    expect(await old.json()).toMatchObject({ error: { message: expect.stringContaining('2026-07-28, 2025-11-25, 2025-06-18') } });
  });
});

describe('authorization as MCP clients expect it', () => {
  const metadataUrl = (): string => `${base}/.well-known/oauth-protected-resource`;

  it('answers 401 naming the RFC 9728 document when the token is missing or invalid', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const missing = await rawPost(list);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    const invalid = await rawPost(list, { authorization: 'Bearer not-a-token' });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl()}", error="invalid_token"`);
    const expired = await rawPost(list, bearer(await idp.mintToken({ sub: 'alice', roles: [INVOKE] }, { ttlSeconds: -60 })));
    expect(expired.status).toBe(401);
    // The API's own routes keep their plain challenge.
    expect((await fetch(`${base}/api/tools`)).headers.get('www-authenticate')).toBe('Bearer');
    for (const revision of REVISIONS) await expect(connectMcp(mcpUrl, revision)).rejects.toThrow();
  });

  it('publishes the protected-resource metadata naming the identity provider, at the root and path-suffixed', async () => {
    const expected = {
      resource: mcpUrl,
      authorization_servers: [idp.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: [`api://${idp.clientId}/.default`],
      resource_name: 'Portcullis MCP gateway',
    };
    for (const url of [metadataUrl(), `${metadataUrl()}/mcp`]) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual(expected);
    }
    // What the client reads next: the provider's OpenID discovery document under that authority.
    const discovery = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string };
    expect(discovery.issuer).toBe(idp.issuer);
  });

  it('leads an OAuth-capable MCP client from the 401 to the dev identity provider’s sign-in and back', async () => {
    const provider = new SignInProvider(idp.clientId);
    const first = new Client({ name: 'oauth-client', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await expect(first.connect(transport)).rejects.toThrow();
    // The client discovered the provider from our metadata and sent the user there.
    const authorize = provider.authorizationUrl;
    expect(authorize?.origin).toBe(idp.url);
    expect(authorize?.searchParams.get('client_id')).toBe(idp.clientId);
    expect(authorize?.searchParams.get('resource')).toBe(mcpUrl);
    expect(authorize?.searchParams.get('scope')).toContain(`api://${idp.clientId}/.default`);
    // The user signs in as dana (the dev provider's form), and the client redeems the code.
    const form = new URLSearchParams(authorize?.searchParams);
    form.set('sub', 'dana');
    form.set('roles', INVOKE);
    const signedIn = await fetch(`${idp.url}${authorize?.pathname ?? ''}`, { method: 'POST', body: form, redirect: 'manual' });
    expect(signedIn.status).toBe(302);
    const code = new URL(signedIn.headers.get('location') ?? '').searchParams.get('code');
    await transport.finishAuth(code ?? '');
    const signedInClient = new Client({ name: 'oauth-client', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await signedInClient.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    try {
      expect((await signedInClient.listTools()).tools.map((tool) => tool.name)).toEqual(['clock']);
      expect((await signedInClient.callTool({ name: 'clock', arguments: { operation: 'now' } })).isError).toBeFalsy();
    } finally {
      await signedInClient.close();
    }
  });
});

/** An OAuth client pre-registered with the dev provider (its client id), redirecting to a loopback callback. */
class SignInProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #tokens: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  #verifier = '';

  constructor(readonly clientId: string) {}

  get redirectUrl(): string {
    return 'http://127.0.0.1:9/callback';
  }

  get clientMetadata() {
    return { redirect_uris: [this.redirectUrl], client_name: 'portcullis-tests', token_endpoint_auth_method: 'none' };
  }

  clientInformation() {
    return { client_id: this.clientId };
  }

  tokens() {
    return this.#tokens;
  }

  saveTokens(tokens: Awaited<ReturnType<OAuthClientProvider['tokens']>>): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }
}

describe('tools/call is direct invocation, counted with it', () => {
  it('writes one tool.call.decided line and one metric sample per call, surface mcp, never the parameters', async () => {
    const samples = async (labels: Record<string, string>): Promise<number> =>
      Number(new Exposition(await (await fetch(`${base}/metrics`)).text()).sample('portcullis_tool_calls_total', labels)?.value ?? 0);
    const succeeded = { tool: 'clock', surface: 'mcp', outcome: 'succeeded', rule: '' };
    const denied = { tool: 'text', surface: 'mcp', outcome: 'denied', rule: 'not_granted' };
    const before = { lines: decisions().length, succeeded: await samples(succeeded), denied: await samples(denied) };
    const alice = await connectMcp(mcpUrl, '2026-07-28', await token('alice'));
    try {
      await alice.callTool('clock', { operation: 'now', parameters: { timeZone: 'UTC' } });
      await alice.callTool('text', { operation: 'count_tokens', parameters: { text: 'secret-ish words' } });
    } finally {
      await alice.close();
    }
    const lines = decisions().slice(before.lines);
    expect(lines.map((line) => [line['surface'], line['tool'], line['operation'], line['verdict'], line['denial']])).toEqual([
      ['mcp', 'clock', 'now', 'allowed', null],
      ['mcp', 'text', 'count_tokens', 'denied', 'not-granted'],
    ]);
    for (const line of lines) {
      expect(line).toMatchObject({ owner: 'sub:alice', reqId: expect.any(String) });
      expect(JSON.stringify(line)).not.toContain('secret-ish');
    }
    expect(await samples(succeeded)).toBe(before.succeeded + 1);
    expect(await samples(denied)).toBe(before.denied + 1);
  });

  it('shares the caller’s four executing calls with HTTP, and ends a call at the deadline with HTTP’s text', async () => {
    const alice = await token('alice');
    const mcp = await connectMcp(mcpUrl, '2026-07-28', alice);
    const fetchSlow = { operation: 'get', parameters: { url: hanging.url } };
    const invokeSlow = (): Promise<Response> =>
      fetch(`${base}/api/tools/http_fetch/invoke`, { method: 'POST', headers: { ...bearer(alice), 'content-type': 'application/json' }, body: JSON.stringify(fetchSlow) });
    try {
      const waiting = hanging.waiting();
      const overHttpCalls = [invokeSlow(), invokeSlow()];
      const overMcpCalls = [mcp.callTool('http_fetch', fetchSlow), mcp.callTool('http_fetch', fetchSlow)];
      await eventually(async () => (hanging.waiting() >= waiting + 4 ? true : undefined));
      const fifth = await mcp.callTool('clock', { operation: 'now' });
      expect(fifth).toMatchObject({ isError: true });
      const fifthOverHttp = await overHttp('alice', 'clock', { operation: 'now' });
      expect(fifthOverHttp.status).toBe(429);
      expect(textOf(fifth)).toBe(fifthOverHttp.text);
      // DefaultTimeoutSeconds is 3 here: both surfaces' calls end at the deadline, in the same words.
      const timedOut = await Promise.all(overHttpCalls);
      expect(timedOut.map((res) => res.status)).toEqual([504, 504]);
      const detail = ((await timedOut[0]!.json()) as { detail: string }).detail;
      for (const result of await Promise.all(overMcpCalls)) {
        expect(result).toMatchObject({ isError: true });
        expect(textOf(result)).toBe(detail);
      }
      // The slots are free again.
      expect((await mcp.callTool('clock', { operation: 'now' })).isError).toBeFalsy();
    } finally {
      hanging.releaseAll();
      await mcp.close();
    }
  });
});

describe('a client that goes away', () => {
  it('cancels its call, on either revision, as a closed HTTP invocation does', async () => {
    const samples = async (): Promise<number> =>
      Number(
        new Exposition(await (await fetch(`${base}/metrics`)).text()).sample('portcullis_tool_calls_total', { tool: 'http_fetch', surface: 'mcp', outcome: 'cancelled', rule: '' })?.value ?? 0,
      );
    const before = await samples();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const params = { name: 'http_fetch', arguments: { operation: 'get', parameters: { url: hanging.url } } };
    const alice = bearer(await token('alice'));
    const modern = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'http_fetch' };
    for (const [message, headers] of [
      [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params }, {}],
      [{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { ...params, _meta: meta } }, modern],
    ] as const) {
      const waiting = hanging.waiting();
      const leaving = new AbortController();
      const answer = fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...alice, ...headers },
        body: JSON.stringify(message),
        signal: leaving.signal,
      }).catch(() => 'gone');
      await eventually(async () => (hanging.waiting() > waiting ? true : undefined));
      leaving.abort();
      expect(await answer).toBe('gone');
    }
    await expect.poll(samples, { timeout: 5000 }).toBe(before + 2);
    hanging.releaseAll();
  });
});

describe('hostile requests', () => {
  it('refuses a batch of 1,000 calls in one body without running any of them', async () => {
    const before = decisions().length;
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'clock', arguments: { operation: 'now' } } });
    const batch = JSON.stringify(Array.from({ length: 1000 }, (_, id) => call(id)));
    const headers = bearer(await token('alice'));
    for (const body of [batch, JSON.stringify([call(1), call(2)])]) {
      const res = await rawPost(body, headers);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('batches are not supported') } });
    }
    expect(decisions().length).toBe(before);
  });

  it('refuses a body over MaxRequestBytes with 413 before reading it', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'json', arguments: { operation: 'query', parameters: { data: 'x'.repeat(300_000), expression: '@' } } } });
    const res = await rawPost(body, bearer(await token('alice')));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers subscriptions/listen at once instead of holding a stream open, and offers no GET stream', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const listen = await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } }), {
      ...bearer(await token('alice')),
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    });
    expect(listen.headers.get('content-type')).toContain('application/json');
    expect(await listen.json()).toMatchObject({ id: 7, error: { code: expect.any(Number) } });
    const get = await fetch(mcpUrl, { headers: { ...bearer(await token('alice')), accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('does not let a client that never reads its answer hold the call, its slot or the service', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'json', arguments: { operation: 'query', parameters: { data: Array.from({ length: 2000 }, (_, i) => `item-${i}-${'x'.repeat(80)}`), expression: '@' } } },
    });
    const port = new URL(base).port;
    const before = decisions().filter((line) => line['surface'] === 'mcp' && line['tool'] === 'json').length;
    const socket = connect(Number(port), '127.0.0.1');
    try {
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.pause();
      socket.write(
        [
          'POST /mcp HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          `Authorization: Bearer ${await token('alice')}`,
          'Content-Type: application/json',
          'Accept: application/json, text/event-stream',
          `Content-Length: ${Buffer.byteLength(body)}`,
          '',
          body,
        ].join('\r\n'),
      );
      // The call ran and was decided although nobody reads its answer…
      await eventually(async () => (decisions().filter((line) => line['surface'] === 'mcp' && line['tool'] === 'json').length > before ? true : undefined));
      // …and the caller's four slots are all free for the next calls once it ends (its decision comes
      // before the tool runs: on a busy machine the first batch may meet it still running), while the
      // service answers everyone. A call that held its slot until its answer was read fails every batch.
      const alice = await connectMcp(mcpUrl, '2025-06-18', await token('alice'));
      try {
        const batch = () => Promise.all([1, 2, 3, 4].map(() => alice.callTool('clock', { operation: 'now' })));
        const results = await eventually(async () => {
          const answered = await batch();
          return answered.every((result) => result.isError !== true) ? answered : undefined;
        });
        expect(results.map((result) => result.isError ?? false)).toEqual([false, false, false, false]);
      } finally {
        await alice.close();
      }
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      socket.destroy();
    }
  });
});

describe('the gateway switched off, and in anonymous mode', () => {
  it('answers 404 at /mcp, naming the switch, and for the metadata document when McpGateway:Enabled is false', async () => {
    const off = await buildTestApp({ settings: { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: true } }, DirectToolInvocation: { Enabled: true } } } } });
    try {
      const post = await off.app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
      expect(post.statusCode).toBe(404);
      expect(post.headers['content-type']).toContain('application/problem+json');
      expect(post.json()).toMatchObject({ status: 404, title: 'Not found', detail: 'The MCP gateway is off on this host (AppConfig:AI:McpGateway:Enabled is false).' });
      // Whatever the method, with or without a token.
      for (const method of ['GET', 'DELETE'] as const) {
        expect((await off.app.inject({ method, url: '/mcp', headers: { authorization: 'Bearer not-a-token' } })).json().detail).toContain('AppConfig:AI:McpGateway:Enabled');
      }
      for (const url of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        expect((await off.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      }
    } finally {
      await off.close();
    }
  });

  it('charges tools/call to tools-invoke, counted with HTTP, and anything else to tools-read; names no provider when anonymous', async () => {
    const limited = await buildTestApp({
      settings: {
        AppConfig: {
          AI: {
            McpGateway: { Enabled: true },
            DirectToolInvocation: { Enabled: true },
            BundleExecution: { Auth: { AllowAnonymous: true, AnonymousRoles: [INVOKE] }, Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } } },
            RateLimits: { 'tools-invoke': { PermitsPerMinute: 2 }, 'tools-read': { PermitsPerMinute: 100 } },
          },
        },
      },
    });
    const mcp = (payload: object) =>
      limited.app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload });
    try {
      for (let i = 0; i < 2; i++) expect((await limited.app.inject({ method: 'POST', url: '/api/tools/clock/invoke', payload: { operation: 'now' } })).statusCode).toBe(200);
      const call = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'clock', arguments: { operation: 'now' } } });
      expect(call.statusCode).toBe(429);
      expect(call.headers['retry-after']).toEqual(expect.any(String));
      const list = await mcp({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(list.statusCode).toBe(200);
      expect(JSON.parse(list.body)).toMatchObject({ id: 2, result: { tools: [{ name: 'clock' }] } });
      const metadata = await limited.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource', headers: { host: 'gateway.test:8080' } });
      expect(metadata.json()).toEqual({ resource: 'http://gateway.test:8080/mcp', bearer_methods_supported: ['header'], resource_name: 'Portcullis MCP gateway' });
    } finally {
      await limited.close();
    }
  });
});
