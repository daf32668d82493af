import { decodeJwt } from 'jose';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../platform/auth/index.js';
import { systemClock } from '../../platform/clock/index.js';
import { runToken, startDevIdp, type CliIo, type DevIdp } from './index.js';

let cwd: string;
let idp: DevIdp;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-token-'));
  idp = await startDevIdp({ port: 0, stateDir: join(cwd, 'idp-state') });
});

afterAll(async () => {
  await idp.close();
  await rm(cwd, { recursive: true, force: true });
});

function capture(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, cwd, stdout: (line) => out.push(line), stderr: (line) => err.push(line) };
}

describe('portcullis token', () => {
  it('prints a token that the service accepts from the dev-idp sharing its state directory', async () => {
    const io = capture();
    const code = await runToken(['--sub', 'alice', '--oid', 'o-1', '--role', 'Harness.Tools.Invoke', '--role', 'Reader', '--state', 'idp-state'], io);
    expect(code).toBe(0);
    expect(io.out).toHaveLength(1);
    const auth = createAuthenticator(
      {
        tenantId: idp.tenantId,
        clientId: idp.clientId,
        instance: idp.instance,
        requireHttpsMetadata: false,
        validIssuers: [],
        allowAnonymous: false,
        anonymousRoles: [],
        jwksRefreshCooldownMs: 30_000,
        refusalLogIntervalMs: 60_000,
        maxTokenLifetimeMs: 365 * 86_400_000,
      },
      { clock: systemClock, log: { warn: () => undefined } },
    );
    await expect(auth.authenticate(`Bearer ${io.out[0]}`)).resolves.toEqual({
      ownerId: 'oid:o-1',
      ownerClaimValue: 'o-1',
      subjectId: 'alice',
      roles: ['Harness.Tools.Invoke', 'Reader'],
      anonymous: false,
      displayName: null,
      // Its string-valued claims, which policies read as tags (DESIGN §18).
      claims: expect.objectContaining({ sub: 'alice', oid: 'o-1' }),
    });
    auth.close();
  });

  it('honours --ttl and leaves out roles and oid when none are given', async () => {
    const io = capture();
    expect(await runToken(['--sub', 'bob', '--ttl', '15m', '--state', join(cwd, 'idp-state')], io)).toBe(0);
    const claims = decodeJwt(io.out[0]!);
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(claims).not.toHaveProperty('roles');
    expect(claims).not.toHaveProperty('oid');
    expect(claims).not.toHaveProperty('name');
  });

  it('adds a name claim with --name (how approvals name the person)', async () => {
    const io = capture();
    expect(await runToken(['--sub', 'vera', '--name', 'Vera', '--state', join(cwd, 'idp-state')], io)).toBe(0);
    expect(decodeJwt(io.out[0]!)).toMatchObject({ sub: 'vera', name: 'Vera' });
  });

  it.each([
    ['no --sub', ['--state', 'idp-state']],
    ['an empty --sub', ['--sub', '', '--state', 'idp-state']],
    ['an unknown flag', ['--sub', 'a', '--audience', 'x']],
    ['a positional argument', ['--sub', 'a', 'extra']],
    ['a malformed --ttl', ['--sub', 'a', '--ttl', 'soon']],
    ['an empty --name', ['--sub', 'a', '--name', ' ']],
  ])('exits 2 with a usage line for %s', async (_title, args) => {
    const io = capture();
    expect(await runToken(args, io)).toBe(2);
    expect(io.err.join('\n')).toContain('usage: portcullis token');
    expect(io.out).toEqual([]);
  });

  it('exits 1 naming the state file when there is none', async () => {
    const io = capture();
    expect(await runToken(['--sub', 'a', '--state', 'missing'], io)).toBe(1);
    expect(io.err.join('\n')).toContain(join(cwd, 'missing', 'dev-idp.json'));
  });
});
