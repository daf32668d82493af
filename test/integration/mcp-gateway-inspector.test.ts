// The MCP Inspector's CLI mode (the official `@modelcontextprotocol/inspector`, as a user runs it with
// npx) listing and calling a tool through the gateway (DESIGN §15) on both protocol eras: `modern`
// (2026-07-28, stateless) and `legacy` (the 2025 initialize handshake). The Inspector needs Node 22, so
// it runs with npx on the `node@22` package from the registry, whatever Node runs the suite. A
// recording proxy in front of the service shows which revision each request carried.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/cli-process.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const INSPECTOR = ['-y', '-p', 'node@22.23.3', '-p', '@modelcontextprotocol/inspector@2.12.0', '--', 'mcp-inspector', '--cli'];
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

interface Seen {
  readonly method: string;
  readonly revision: string | undefined;
}

describe('the MCP Inspector CLI against /mcp', () => {
  let t: TestApp;
  let proxy: Server;
  let gateway: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    t = await buildTestApp({
      settings: {
        AppConfig: {
          AI: {
            McpGateway: { Enabled: true },
            DirectToolInvocation: { Enabled: true },
            BundleExecution: { Auth: { AllowAnonymous: true, AnonymousRoles: ['Harness.Tools.Invoke'] }, Envelopes: { Default: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Autonomous' } } },
          },
        },
      },
    });
    const upstream = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    // Forwards every request as it is and notes its JSON-RPC method and MCP-Protocol-Version header.
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        try {
          const message = JSON.parse(body.toString('utf8')) as { method?: string };
          seen.push({ method: message.method ?? '(response)', revision: req.headers['mcp-protocol-version'] as string | undefined });
        } catch {
          seen.push({ method: `${req.method} (no JSON)`, revision: req.headers['mcp-protocol-version'] as string | undefined });
        }
        const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on('error', () => res.destroy());
        forward.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    gateway = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await t?.close();
  });

  async function inspector(...args: string[]): Promise<unknown> {
    const result = await runProcess(NPX, [...INSPECTOR, gateway, '--transport', 'http', '--format', 'json', '-q', ...args], {
      cwd: tmpdir(),
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
    });
    expect(result.code, result.stderr).toBe(0);
    // --format json: one object, the method's result under `result`.
    return (JSON.parse(result.stdout) as { result: unknown }).result;
  }

  for (const era of ['modern', 'legacy'] as const) {
    it(`lists the caller’s tools and calls one on the ${era} protocol era`, async () => {
      seen.length = 0;
      const listed = (await inspector('--protocol-era', era, '--method', 'tools/list')) as { tools: Array<{ name: string; annotations?: Record<string, unknown> }> };
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['calculator', 'clock']);
      const called = (await inspector('--protocol-era', era, '--method', 'tools/call', '--tool-name', 'calculator', '--tool-args-json', '{"operation":"evaluate","parameters":{"expression":"6*7"}}')) as {
        content: Array<{ type: string; text: string }>;
        isError?: boolean;
      };
      expect(called.isError ?? false).toBe(false);
      expect(JSON.parse(called.content[0]!.text)).toEqual({ expression: '6*7', result: 42 });

      const calls = seen.filter((s) => s.method === 'tools/call');
      expect(calls).toHaveLength(1);
      if (era === 'modern') {
        expect(seen.some((s) => s.method === 'initialize')).toBe(false);
        expect(calls[0]!.revision).toBe('2026-07-28');
      } else {
        expect(seen.some((s) => s.method === 'initialize')).toBe(true);
        expect(calls[0]!.revision).toBe('2025-11-25');
      }
    }, 240_000);
  }
});
