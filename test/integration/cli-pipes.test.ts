// The built `portcullis` in shell pipelines (issue 27, decision 2701): `serve 2>&1 | jq …` — the
// audit recipe of docs/reference/operating.md — gets JSON on every line, the start-up banner included, while stdout alone
// keeps its human lines; and a reader that closes early (`… | head -3`) ends a command quietly.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, startServe } from '../helpers/cli-process.js';

const DEVELOPMENT = { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true', AppConfig__AI__DirectToolInvocation__Enabled: 'true' };
let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-cli-pipes-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('serve 2>&1 | jq (the audit recipe)', () => {
  it('writes only JSON lines into the merged stream: the banner is one service.started line, and a denied tool call is selectable', async () => {
    // As the recipe runs it: through a shell, stderr merged into stdout's pipe.
    const child = spawn('sh', ['-c', `exec '${process.execPath}' '${CLI}' serve --port 0 2>&1`], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...DEVELOPMENT, AppConfig__AI__BundleExecution__Envelopes__Default__AllowedTools__0: 'clock', AppConfig__AI__BundleExecution__Auth__AnonymousRoles__0: 'Harness.Tools.Invoke' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const lines: string[] = [];
    const parsed: Record<string, unknown>[] = [];
    let announced: (url: string) => void;
    const url = new Promise<string>((resolve) => (announced = resolve));
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const entry = JSON.parse(line) as Record<string, unknown>; // a plain-text line fails here, as jq would
      parsed.push(entry);
      if (entry.event === 'service.started') announced(entry.url as string);
    });
    try {
      const base = await Promise.race([url, exited.then((code) => Promise.reject(new Error(`serve exited (${code}):\n${lines.join('\n')}`)))]);
      const denied = await fetch(`${base}/api/tools/calculator/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'evaluate', parameters: { expression: '1+1' } }),
      });
      expect(denied.ok).toBe(false);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const started = parsed.filter((entry) => entry.event === 'service.started');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ level: 30, environment: 'Development', msg: `listening on ${started[0]!.url as string}` });
    expect(started[0]!.banner).toEqual(expect.arrayContaining([`listening on ${started[0]!.url as string}`, 'auth: anonymous', expect.stringMatching(/^try: curl -s /)]));
    expect(parsed.filter((entry) => entry.event === 'tool.call.decided' && entry.verdict === 'denied')).toHaveLength(1);
    expect(lines.every((line) => !line.startsWith('listening on'))).toBe(true);
  });

  it('keeps the human banner on stdout when stdout and stderr are apart (scripts read `listening on URL` from it)', async () => {
    const served = await startServe({ cwd, env: DEVELOPMENT });
    expect(await served.stop()).toBe(0);
    const { stdout, stderr } = served.output();
    expect(stdout).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\nenvironment: Development\nsurfaces: /);
    expect(stdout).not.toContain('service.started');
    for (const line of stderr.trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});

/** Runs the CLI with its stdout's reader gone before the first write; SIGTERM after `stopAfterMs` (serve). */
async function withReaderGone(args: string[], options: { readonly cwd: string; readonly stopAfterMs?: number }): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...DEVELOPMENT, AppConfig__Logging__Level: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = options.stopAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGTERM'), options.stopAfterMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  return { code, stderr };
}

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('a reader that closes early (… | head -3)', () => {
  it('ends serve quietly with 141 (SIGPIPE’s status in a shell): no stack trace, only JSON log lines on stderr', async () => {
    const { code, stderr } = await withReaderGone(['serve', '--port', '0'], { cwd, stopAfterMs: 15_000 });
    expect(code).toBe(141);
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    for (const line of stderr.trim().split('\n').filter((l) => l !== '')) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it('ends a service-facing command (bundle run --stream, writing as the run streams) quietly with 141', async () => {
    const served = await startServe({ cwd: REPO, env: { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__Logging__Level: 'warn' } });
    try {
      const args = ['bundle', 'run', join(REPO, 'examples/bundles/trip-timer'), '--message', 'one', '--message', 'two', '--stream', '--url', served.url];
      expect(await withReaderGone(args, { cwd })).toEqual({ code: 141, stderr: '' });
    } finally {
      await served.stop();
    }
  });

  it('prints --help into a pipe that `head -1` closes without a stack trace', async () => {
    const child = spawn('sh', ['-c', `'${process.execPath}' '${CLI}' --help | head -1`], { cwd, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await new Promise((resolve) => child.once('close', resolve));
    expect({ stdout, stderr }).toEqual({ stdout: expect.stringMatching(/^usage: portcullis <command>[^\n]*\n$/) as unknown, stderr: '' });
  });
});
