import { decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock/index.js';
import { startDevIdp, type DevIdp } from './index.js';

let stateDir: string;
let idp: DevIdp;
const clock = new ManualClock();

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'portcullis-dev-idp-'));
  idp = await startDevIdp({ port: 0, stateDir, clock });
});

afterAll(async () => {
  await idp.close();
  await rm(stateDir, { recursive: true, force: true });
});

async function jwks(): Promise<JWK[]> {
  return ((await (await fetch(idp.jwksUri)).json()) as { keys: JWK[] }).keys;
}

describe('startDevIdp', () => {
  it('serves a discovery document whose issuer is the Entra-style authority', async () => {
    expect(idp.instance).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(idp.url).toBe(idp.instance.slice(0, -1));
    expect(idp.issuer).toBe(`${idp.instance}${idp.tenantId}/v2.0`);
    const response = await fetch(`${idp.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    await expect(response.json()).resolves.toMatchObject({ issuer: idp.issuer, jwks_uri: idp.jwksUri });
  });

  it('publishes only the public half of its RS256 key in the JWKS', async () => {
    const keys = await jwks();
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0]!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    expect((await fetch(`${idp.url}/other/v2.0/.well-known/openid-configuration`)).status).toBe(404);
    expect((await fetch(idp.jwksUri, { method: 'POST' })).status).toBe(405);
  });

  it('mints tokens with iss, aud api://{clientId}, iat, nbf and exp from its clock and its kid', async () => {
    const token = await idp.mintToken({ sub: 'alice', oid: 'o-1', roles: ['R'] }, { ttlSeconds: 120 });
    const now = Math.floor(clock.now() / 1000);
    expect(decodeJwt(token)).toEqual({ iss: idp.issuer, aud: `api://${idp.clientId}`, sub: 'alice', oid: 'o-1', roles: ['R'], iat: now, nbf: now, exp: now + 120 });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', typ: 'JWT', kid: (await jwks())[0]!.kid });
  });

  it('leaves out a claim given as undefined', async () => {
    expect(decodeJwt(await idp.mintToken({ sub: 'a', exp: undefined }))).not.toHaveProperty('exp');
  });

  it('keeps its ids, port and private key in a 0600 state file', async () => {
    const file = join(stateDir, 'dev-idp.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const state = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(state).toMatchObject({ tenantId: idp.tenantId, clientId: idp.clientId, host: '127.0.0.1', port: Number(new URL(idp.url).port) });
    expect(state.signingKey).toMatchObject({ kty: 'RSA', kid: (await jwks())[0]!.kid, d: expect.any(String) });
    expect((await readdir(stateDir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('comes back with the same ids, port and key from the same state directory', async () => {
    const before = { tenantId: idp.tenantId, clientId: idp.clientId, url: idp.url, kid: (await jwks())[0]!.kid };
    await idp.close();
    idp = await startDevIdp({ stateDir, clock });
    expect({ tenantId: idp.tenantId, clientId: idp.clientId, url: idp.url, kid: (await jwks())[0]!.kid }).toEqual(before);
  });

  it('rotates to a new key, still publishing the previous one, and remembers it', async () => {
    const previous = (await jwks())[0]!.kid;
    await idp.rotateKey();
    const keys = await jwks();
    expect(keys.map((key) => key.kid)).toEqual([expect.not.stringMatching(previous!), previous]);
    expect(decodeProtectedHeader(await idp.mintToken({ sub: 'a' })).kid).toBe(keys[0]!.kid);
    const state = JSON.parse(await readFile(join(stateDir, 'dev-idp.json'), 'utf8')) as { signingKey: JWK };
    expect(state.signingKey.kid).toBe(keys[0]!.kid);
  });

  it('writes nothing when persistence is off', async () => {
    const emptyDir = await mkdtemp(join(tmpdir(), 'portcullis-dev-idp-'));
    const ephemeral = await startDevIdp({ port: 0, stateDir: emptyDir, persist: false });
    await ephemeral.close();
    expect(await readdir(emptyDir)).toEqual([]);
    await rm(emptyDir, { recursive: true, force: true });
  });
});
