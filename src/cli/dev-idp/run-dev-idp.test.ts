import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDevIdp, runToken, type CliIo } from './index.js';

let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-dev-idp-cli-'));
});

afterAll(() => rm(cwd, { recursive: true, force: true }));

interface Running {
  readonly config: Record<string, string>;
  readonly err: string[];
  /** Every line it wrote, in order, as `stdout …` / `stderr …`. */
  readonly said: string[];
  stop(): Promise<number>;
}

/** Starts `portcullis dev-idp` and resolves once it has printed its configuration lines. */
async function start(args: string[]): Promise<Running> {
  const controller = new AbortController();
  const config: Record<string, string> = {};
  const err: string[] = [];
  const said: string[] = [];
  let printed!: () => void;
  const ready = new Promise<void>((resolve) => (printed = resolve));
  const io: CliIo = {
    cwd,
    signal: controller.signal,
    stdout: (line) => {
      said.push(`stdout ${line}`);
      const [key, ...value] = line.split('=');
      config[key!] = value.join('=');
      if (Object.keys(config).length === 5) printed();
    },
    stderr: (line) => {
      said.push(`stderr ${line}`);
      err.push(line);
    },
  };
  const exit = runDevIdp(args, io);
  await Promise.race([ready, exit]);
  return {
    config,
    err,
    said,
    stop: async () => {
      controller.abort();
      return exit;
    },
  };
}

const PREFIX = 'AppConfig__AI__BundleExecution__Auth__';

describe('portcullis dev-idp', () => {
  it('prints the service configuration as environment lines, serves discovery and exits 0 when stopped', async () => {
    const running = await start(['--port', '0', '--state', 'state']);
    const instance = running.config[`${PREFIX}Instance`]!;
    expect(instance).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(running.config).toMatchObject({
      [`${PREFIX}TenantId`]: expect.stringMatching(/^[0-9a-f-]{36}$/),
      [`${PREFIX}ClientId`]: expect.stringMatching(/^[0-9a-f-]{36}$/),
      [`${PREFIX}RequireHttpsMetadata`]: 'false',
      [`${PREFIX}AllowAnonymous`]: 'false',
    });
    const discovery = await fetch(`${instance}${running.config[`${PREFIX}TenantId`]}/v2.0/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(running.err.join('\n')).toContain('listening on');
    expect(await running.stop()).toBe(0);
  });

  it('writes every settings line before it says it is listening, so a reader who waits for that finds them all', async () => {
    const running = await start(['--port', '0', '--state', 'ordered']);
    expect(running.said.slice(0, 6).map((line) => line.replace(/=.*/, '').replace(/ \(issuer .*/, '').replace(/\d+/g, 'N'))).toEqual([
      `stdout ${PREFIX}Instance`,
      `stdout ${PREFIX}TenantId`,
      `stdout ${PREFIX}ClientId`,
      `stdout ${PREFIX}RequireHttpsMetadata`,
      `stdout ${PREFIX}AllowAnonymous`,
      'stderr dev identity provider listening on http://N.N.N.N:N',
    ]);
    expect(await running.stop()).toBe(0);
  });

  it('comes back on the remembered port with the same ids, and token reads the same state', async () => {
    const first = await start(['--port', '0', '--state', 'again']);
    expect(await first.stop()).toBe(0);
    const second = await start(['--state', 'again']);
    expect(second.config).toEqual(first.config);
    const io = { cwd, out: [] as string[], stdout(line: string) { this.out.push(line); }, stderr: () => undefined };
    expect(await runToken(['--sub', 'a', '--state', 'again'], io)).toBe(0);
    expect(await second.stop()).toBe(0);
  });

  it('listens on the --host name and puts it in the issuer, which token then mints for', async () => {
    const running = await start(['--port', '0', '--host', 'localhost', '--state', 'named']);
    const instance = running.config[`${PREFIX}Instance`]!;
    expect(instance).toMatch(/^http:\/\/localhost:\d+\/$/);
    const tenantId = running.config[`${PREFIX}TenantId`]!;
    const discovery = (await (await fetch(`${instance}${tenantId}/v2.0/.well-known/openid-configuration`)).json()) as { issuer: string };
    expect(discovery.issuer).toBe(`${instance}${tenantId}/v2.0`);
    const out: string[] = [];
    expect(await runToken(['--sub', 'a', '--state', 'named'], { cwd, stdout: (line) => out.push(line), stderr: () => undefined })).toBe(0);
    const claims = JSON.parse(Buffer.from(out[0]!.split('.')[1]!, 'base64url').toString('utf8')) as { iss: string };
    expect(claims.iss).toBe(discovery.issuer);
    expect(await running.stop()).toBe(0);
  });

  it.each([
    ['a non-numeric port', ['--port', 'http']],
    ['an empty host', ['--host', ' ']],
    ['an out-of-range port', ['--port', '70000']],
    ['an unknown flag', ['--tenant', 'x']],
    ['a positional argument', ['serve']],
  ])('exits 2 with a usage line for %s', async (_title, args) => {
    const err: string[] = [];
    const code = await runDevIdp(args, { cwd, stdout: () => undefined, stderr: (line) => err.push(line) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('usage: portcullis dev-idp');
  });
});
