// `portcullis serve` as a command: exit 2 for bad usage, 1 listing every configuration problem,
// and a clean 0 after the shutdown signal, having printed the URL on a line of its own.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { runServe } from './serve.js';
import { ANONYMOUS_WARNING } from './startup-banner.js';
import type { CommandIo } from './cli-io.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function io(env: Record<string, string> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'portcullis-serve-'));
  dirs.push(dir);
  const out: string[] = [];
  const err: string[] = [];
  const controller = new AbortController();
  const commandIo: CommandIo = {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    cwd: dir,
    env: { AppConfig__Logging__Level: 'silent', ...env },
    signal: controller.signal,
  };
  return { io: commandIo, out, err, stop: () => controller.abort(), dir };
}

describe('portcullis serve', () => {
  it('exits 2 for bad usage', async () => {
    const t = await io();
    expect(await runServe(['--port', 'eighty'], t.io)).toBe(2);
    expect(await runServe(['--bogus'], t.io)).toBe(2);
    expect(t.err.join('\n')).toContain('--port');
  });

  it('exits 1 naming every configuration problem at once', async () => {
    const t = await io({ AppConfig__AI__Evaluation__Enabled: 'true', AppConfig__AI__BundleExecution__Auth__TenantId: 'x' });
    expect(await runServe(['--port', '0'], t.io)).toBe(1);
    expect(t.err.some((line) => line.startsWith('AppConfig:AI:Evaluation:DatasetRoots'))).toBe(true);
    expect(t.err.some((line) => line.includes('Auth:ClientId'))).toBe(true);
  });

  it('refuses OpenAI’s own API without a key, naming ChatModel:ApiKey, before listening (main prints it and exits 1)', async () => {
    const t = await io({
      PORTCULLIS_ENVIRONMENT: 'Development',
      AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true',
      AppConfig__AI__ChatModel__Provider: 'OpenAI',
      AppConfig__AI__ChatModel__Model: 'gpt-4o-mini',
    });
    await expect(runServe(['--port', '0'], t.io)).rejects.toThrow("AppConfig:AI:ChatModel:ApiKey is required for the OpenAI chat-model provider when the Endpoint is OpenAI's API (https://api.openai.com).");
    expect(t.out.join('\n')).not.toContain('listening on');
  });

  it('exits 1 with a hint about --port and PORT when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const t = await io({ PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' });
      expect(await runServe(['--port', String(port)], t.io)).toBe(1);
      expect(t.err).toEqual([
        `portcullis serve: 127.0.0.1:${port} is already in use (is \`npm start\` or another portcullis running?); pick another port with --port N or PORT=N (--port 0 picks a free one)`,
      ]);
    } finally {
      blocker.close();
    }
  });

  it('serves, prints the URL on its own line, and exits 0 after the shutdown signal', async () => {
    const t = await io({ PORTCULLIS_ENVIRONMENT: 'Development' });
    await writeFile(join(t.dir, 'appsettings.Development.json'), JSON.stringify({ AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: true } } } } }));
    const exit = runServe(['--port', '0', '--host', '127.0.0.1'], t.io);
    await expect.poll(() => t.out.find((line) => line.startsWith('listening on ')), { timeout: 15_000 }).toBeDefined();
    const url = t.out.find((line) => line.startsWith('listening on '))!.slice('listening on '.length);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    t.stop();
    expect(await exit).toBe(0);
  });

  it('prints the start-up banner: surfaces, a loud anonymous line, model, MCP servers and whether each connected, dataset roots, storage and the URLs', async () => {
    const t = await io({ PORTCULLIS_ENVIRONMENT: 'Development' });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await writeFile(
      join(t.dir, 'appsettings.Development.json'),
      JSON.stringify({
        AppConfig: {
          AI: {
            BundleExecution: { Auth: { AllowAnonymous: true } },
            Evaluation: { Enabled: true, DatasetRoots: [t.dir] },
            McpServers: { gone: { Transport: 'http', Url: `http://127.0.0.1:${port}/mcp`, Headers: { Authorization: 'Bearer sk-never-printed' } } },
          },
        },
      }),
    );
    const exit = runServe(['--port', '0', '--host', '127.0.0.1'], t.io);
    await expect.poll(() => t.out.find((line) => line.startsWith('metrics: ')), { timeout: 15_000 }).toBeDefined();
    const url = t.out.find((line) => line.startsWith('listening on '))!.slice('listening on '.length);
    expect(t.out).toEqual(
      expect.arrayContaining([
        'surfaces: bundles off, workflows on, evals on, direct tool invocation off, MCP gateway off, console on, metrics on',
        'auth: anonymous',
        ANONYMOUS_WARNING,
        'model: Scripted (canned replies; no model provider is called)',
        'MCP servers: gone (http, NOT connected)',
        `dataset roots: ${t.dir}`,
        'storage: Memory (state is lost on restart)',
        'tracing: off (set OTEL_EXPORTER_OTLP_ENDPOINT)',
        `API reference: ${url}/docs (OpenAPI document: ${url}/openapi.json)`,
        `console: ${url}/console`,
        `metrics: ${url}/metrics`,
      ]),
    );
    expect(t.out.join('\n')).not.toContain('sk-never-printed');
    t.stop();
    expect(await exit).toBe(0);
  });

  it('exits within its deadline (1, not 0) when a close hook hangs', async () => {
    const t = await io({ PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' });
    const exit = runServe(['--port', '0', '--host', '127.0.0.1'], t.io, {
      shutdownDeadlineMs: 300,
      buildApp: async (deps) => {
        const built = await buildApp(deps);
        built.app.addHook('onClose', () => new Promise<void>(() => undefined));
        return built;
      },
    });
    await expect.poll(() => t.out.find((line) => line.startsWith('listening on ')), { timeout: 15_000 }).toBeDefined();
    const url = t.out.find((line) => line.startsWith('listening on '))!.slice('listening on '.length);
    // A connection kept open (keep-alive) is closed at the deadline too.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    t.stop();
    expect(await exit).toBe(1);
  });
});
