// DESIGN §18 for MCP servers that list their tools after start: policies naming a server that has not
// listed do not stop start-up; its tools are denied (fail closed) until it lists and the set validates
// against them; a set that does not validate against a server's listing keeps that server's tools
// denied (logged), while the rest of the catalog is judged as before. Real MCP servers over HTTP
// (server-everything), started after the service.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import { freePort, startEverythingHttp, type RunningHttpServer } from '../../src/tools/mcp/mcp-test-servers.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { captureLog } from '../helpers/log-capture.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const POLICIES = `
@id("echo-hello")
permit(principal, action == Portcullis::Action::"mcp__late__echo.call", resource)
  when { context.arguments.message == "hello" };

@id("wrong-argument")
permit(principal, action == Portcullis::Action::"mcp__wrong__echo.call", resource)
  when { context.arguments.text == "hello" };

@id("clock")
permit(principal, action == Portcullis::Action::"clock.now", resource);
`;

let idp: DevIdp;
let dir: string;
let t: TestApp;
let who: Record<string, string>;
const ports = { late: 0, wrong: 0 };
const servers: RunningHttpServer[] = [];
const log = captureLog();

const invoke = (tool: string, parameters: Record<string, unknown>, operation = 'call') =>
  t.app.inject({ method: 'POST', url: `/api/tools/${tool}/invoke`, headers: who, payload: { operation, parameters } });

/** The call once the server's tool exists: the first connection failed at start, and the reconnect backoff lets the next one try after a second. */
async function onceListed(tool: string, parameters: Record<string, unknown>) {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await invoke(tool, parameters);
    if (answer.statusCode !== 404 || attempt === 50) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function lines(): Array<Record<string, unknown>> {
  return log.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  idp = await startTestIdp();
  dir = await mkdtemp(join(tmpdir(), 'portcullis-policies-late-'));
  const file = join(dir, 'rules.cedar');
  await writeFile(file, POLICIES);
  ports.late = await freePort();
  ports.wrong = await freePort();
  const settings = idpSettings(idp, {
    Policies: { Files: [file], Mode: 'Enforce' },
    McpServers: {
      late: { Transport: 'http', Url: `http://127.0.0.1:${ports.late}/mcp` },
      wrong: { Transport: 'http', Url: `http://127.0.0.1:${ports.wrong}/mcp` },
    },
    BundleExecution: {
      Envelopes: { Default: { AllowedTools: ['clock', 'mcp__late', 'mcp__wrong'], AllowedMcpServers: ['late', 'wrong'], AutonomyCeiling: 'Autonomous' } },
      Auth: { AnonymousRoles: [] },
    },
    DirectToolInvocation: { Enabled: true },
  });
  t = await buildTestApp({ environment: 'Production', deps: { chatModel: null, logger: createLogger({ level: 'info', destination: log.destination }) }, settings });
  who = bearer(await idp.mintToken({ sub: 'alice', roles: ['Harness.Tools.Invoke'] }));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await Promise.all(servers.map((server) => server.stop()));
  await idp?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('policies on the tools of MCP servers that list after start (DESIGN §18)', () => {
  it('starts although the set names tools of servers that have not listed, says so, and judges the built-in tools meanwhile', async () => {
    const waiting = lines().find((line) => String(line['msg']).startsWith('policies name tools of MCP servers that have not listed them'));
    expect(waiting).toMatchObject({ servers: ['late', 'wrong'] });
    expect((await invoke('clock', {}, 'now')).statusCode).toBe(200);
    // Down, the servers offer no tools: their names answer as unknown ones do.
    expect((await invoke('mcp__late__echo', { message: 'hello' })).statusCode).toBe(404);
  });

  it('judges a server\'s tools by the set once it lists them and the set validates', async () => {
    servers.push(await startEverythingHttp(ports.late));
    const allowed = await onceListed('mcp__late__echo', { message: 'hello' });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ succeeded: true, output: 'Echo: hello' });
    const denied = await invoke('mcp__late__echo', { message: 'goodbye' });
    expect(denied.statusCode).toBe(403);
    const decided = lines().filter((line) => line['event'] === 'tool.call.decided' && line['tool'] === 'mcp__late__echo');
    expect(decided.at(-2)).toMatchObject({ verdict: 'allowed', policy: { decision: 'allow', determining: ['echo-hello'] } });
    expect(decided.at(-1)).toMatchObject({ verdict: 'denied', denial: 'policy', reason: 'denied by policy: No policy permits this call.', policy: { decision: 'deny', determining: [] } });
    const schema = (await t.app.inject({ method: 'GET', url: '/api/policies/schema', headers: who })).json<{ Portcullis: { actions: Record<string, unknown> } }>();
    expect(Object.keys(schema.Portcullis.actions)).toContain('mcp__late__echo.call');
  });

  it('denies every call of a server\'s tools when the set does not validate against its listing, and logs why', async () => {
    servers.push(await startEverythingHttp(ports.wrong));
    const denied = await onceListed('mcp__wrong__echo', { message: 'hello' });
    expect(denied.statusCode).toBe(403);
    const refused = lines().find((line) => line['msg'] === "the policy set does not validate against the MCP server's tools; every call of them is denied until it does");
    expect(refused).toMatchObject({ server: 'wrong', problems: [expect.stringMatching(/rules\.cedar:8: .*text/)] });
    expect(lines().filter((line) => line['event'] === 'tool.call.decided' && line['tool'] === 'mcp__wrong__echo').at(-1)).toMatchObject({
      verdict: 'denied',
      denial: 'policy',
      reason: expect.stringContaining('does not validate against MCP server "wrong"'),
      policy: { decision: 'deny', determining: [], errors: [] },
    });
    // The explain route says the same; the other server's tools are still judged by the set.
    const explained = await t.app.inject({ method: 'POST', url: '/api/policies/evaluate', headers: who, payload: { tool: 'mcp__wrong__echo', operation: 'call', arguments: { message: 'hello' }, surface: 'direct' } });
    expect(explained.json()).toMatchObject({ decision: 'deny', denial: 'policy', determining: [], errors: [] });
    expect((await invoke('mcp__late__echo', { message: 'hello' })).statusCode).toBe(200);
  });
});
