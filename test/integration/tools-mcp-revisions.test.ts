// Host MCP servers of both protocol generations through the catalog and the governed direct call:
// one on the v2 server package (reached on 2026-07-28: a server/discover probe, no initialize, the
// revision header on every request) and one on the v1 SDK (reached on 2025-11-25 after the probe).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpMcpServer, type HttpMcpServer } from '../helpers/http-mcp-server.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

let modern: HttpMcpServer;
let legacy: HttpMcpServer;
let t: TestApp;

beforeAll(async () => {
  modern = await startHttpMcpServer({ speaks: 'modern' });
  legacy = await startHttpMcpServer({ speaks: 'legacy' });
  t = await buildTestApp({
    settings: {
      AppConfig: {
        AI: {
          BundleExecution: {
            Auth: { AllowAnonymous: true, AnonymousRoles: ['Harness.Tools.Invoke'] },
            Envelopes: { Default: { AllowedTools: ['mcp__current', 'mcp__older'], AllowedMcpServers: ['current', 'older'], AutonomyCeiling: 'Autonomous' } },
          },
          DirectToolInvocation: { Enabled: true },
          McpServers: { current: { Transport: 'http', Url: modern.url }, older: { Transport: 'http', Url: legacy.url } },
        },
      },
    },
  });
});

afterAll(async () => {
  await t.close();
  await modern.close();
  await legacy.close();
});

const invoke = (name: string, text: string) =>
  t.app.inject({ method: 'POST', url: `/api/tools/${name}/invoke`, headers: { 'content-type': 'application/json' }, payload: { operation: 'call', parameters: { text } } });

describe('host MCP servers across protocol revisions', () => {
  it('lists the tools of both servers in the catalog', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tools' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ tools: Array<{ name: string }> }>().tools.map((tool) => tool.name)).toEqual(['mcp__current__echo', 'mcp__older__echo']);
  });

  it('calls the tool of the 2026-07-28 server statelessly, the revision on every request and no initialize', async () => {
    const res = await invoke('mcp__current__echo', 'to the current server');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ succeeded: true, output: 'to the current server' });
    expect(modern.methods[0]).toBe('server/discover');
    expect(modern.methods).toContain('tools/call');
    expect(modern.methods).not.toContain('initialize');
    expect(new Set(modern.headers.map((headers) => headers['mcp-protocol-version']))).toEqual(new Set(['2026-07-28']));
  });

  it('calls the tool of the older server on 2025-11-25 after the probe fell back to initialize', async () => {
    const res = await invoke('mcp__older__echo', 'to the older server');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ succeeded: true, output: 'to the older server' });
    expect(legacy.methods.slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(legacy.methods).toContain('tools/call');
    expect(legacy.headers.at(-1)?.['mcp-protocol-version']).toBe('2025-11-25');
  });
});
