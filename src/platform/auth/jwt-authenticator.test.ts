import { jwtVerify } from 'jose';
import type * as jose from 'jose';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startDevIdp, type DevIdp } from '../../cli/dev-idp/index.js';
import { ManualClock } from '../clock/index.js';
import type { AuthConfig } from '../config/types.js';
import { isProblemError } from '../problems/index.js';
import { createAuthenticator, IDENTITY_PROVIDER_UNREACHABLE_DETAIL, UNAUTHORIZED_DETAIL, type Authenticator } from './index.js';

// Observe signature verifications without changing them: the cache must skip this call.
vi.mock('jose', async (importOriginal) => {
  const actual = await importOriginal<typeof jose>();
  return { ...actual, jwtVerify: vi.fn(actual.jwtVerify) };
});

const COOLDOWN_MS = 30_000;

function authConfig(idp: DevIdp, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    tenantId: idp.tenantId,
    clientId: idp.clientId,
    instance: idp.instance,
    requireHttpsMetadata: false,
    validIssuers: [],
    allowAnonymous: false,
    anonymousRoles: [],
    jwksRefreshCooldownMs: COOLDOWN_MS,
    refusalLogIntervalMs: 60_000,
    maxTokenLifetimeMs: 365 * 86_400_000,
    ...overrides,
  };
}

interface Fixture {
  readonly idp: DevIdp;
  readonly clock: ManualClock;
  readonly auth: Authenticator;
  readonly paths: string[];
  readonly jwksHits: () => number;
}

// One provider per file (RSA key generation is slow); each test gets a fresh authenticator.
const clock = new ManualClock();
const paths: string[] = [];
let shared: DevIdp;
beforeAll(async () => {
  shared = await startDevIdp({ port: 0, persist: false, clock, onRequest: ({ path }) => paths.push(path) });
});
afterAll(() => shared.close());

function setup(overrides: Partial<AuthConfig> = {}, idp: DevIdp = shared): Fixture {
  paths.length = 0;
  const auth = createAuthenticator(authConfig(idp, overrides), { clock, log: { warn: () => undefined } });
  onTestFinished(() => auth.close());
  const jwksPath = new URL(idp.jwksUri).pathname;
  return { idp, clock, auth, paths, jwksHits: () => paths.filter((path) => path === jwksPath).length };
}

/** The problem `promise` rejects with, matching `expected`. */
async function expectProblem(promise: Promise<unknown>, expected: object): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(isProblemError(error)).toBe(true);
  expect(error).toMatchObject(expected);
}

const expectUnauthorized = (promise: Promise<unknown>): Promise<void> =>
  expectProblem(promise, { code: 'unauthorized', detail: UNAUTHORIZED_DETAIL, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });

/** The identity provider could not be reached: 503, never the 401 that would blame the token. */
const expectIdentityProviderUnavailable = (promise: Promise<unknown>): Promise<void> =>
  expectProblem(promise, { code: 'unavailable', detail: IDENTITY_PROVIDER_UNREACHABLE_DETAIL, headers: { 'retry-after': '5' } });

describe('JWT authenticator with a valid token', () => {
  it('returns the principal the token’s claims describe', async () => {
    const { idp, auth } = setup();
    const token = await idp.mintToken({ oid: 'o-1', sub: 's-1', name: 'Alice', roles: ['Harness.Tools.Invoke'], role: 'Reader' });
    await expect(auth.authenticate(`Bearer ${token}`)).resolves.toEqual({
      ownerId: 'oid:o-1',
      ownerClaimValue: 'o-1',
      subjectId: 's-1',
      roles: ['Harness.Tools.Invoke', 'Reader'],
      anonymous: false,
      displayName: 'Alice',
      // The string-valued claims, as policies read them (the roles array is not one).
      claims: expect.objectContaining({ oid: 'o-1', sub: 's-1', name: 'Alice', role: 'Reader' }),
    });
    const principal = await auth.authenticate(`Bearer ${token}`);
    expect(principal?.claims).not.toHaveProperty('roles');
  });

  it('accepts the audience written as api://{clientId} or as the bare client id', async () => {
    const { idp, auth } = setup();
    await expect(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'a' })}`)).resolves.toMatchObject({ ownerId: 'sub:a' });
    await expect(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'b', aud: idp.clientId })}`)).resolves.toMatchObject({ ownerId: 'sub:b' });
  });

  it('accepts an aud array that contains one of the accepted audiences', async () => {
    const { idp, auth } = setup();
    const token = await idp.mintToken({ sub: 'a', aud: ['api://someone-else', idp.clientId] });
    await expect(auth.authenticate(`Bearer ${token}`)).resolves.toMatchObject({ ownerId: 'sub:a' });
  });

  it('refuses an aud array that contains none of the accepted audiences', async () => {
    const { idp, auth } = setup();
    await expectUnauthorized(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'a', aud: ['api://x', 'y'] })}`));
  });

  it('accepts an issuer listed in ValidIssuers beside the discovered one', async () => {
    const { idp, auth } = setup({ validIssuers: ['https://sts.example.test/tenant/'] });
    const token = await idp.mintToken({ sub: 'a', iss: 'https://sts.example.test/tenant/' });
    await expect(auth.authenticate(`Bearer ${token}`)).resolves.toMatchObject({ ownerId: 'sub:a' });
    await expect(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'b' })}`)).resolves.toMatchObject({ ownerId: 'sub:b' });
  });

  it('accepts a token whose nbf is exactly now and refuses it once now reaches exp', async () => {
    const { idp, auth, clock } = setup();
    const now = Math.floor(clock.now() / 1000);
    await expect(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'a', nbf: now })}`)).resolves.toBeDefined();
    await expectUnauthorized(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'b', exp: now })}`));
  });
});

describe('JWT authenticator lifetime bound (Auth:MaxTokenLifetime)', () => {
  it('accepts a token valid for exactly the configured lifetime and refuses one a second longer', async () => {
    const { idp, auth } = setup({ maxTokenLifetimeMs: 3_600_000 });
    await expect(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'a' }, { ttlSeconds: 3_600 })}`)).resolves.toMatchObject({ ownerId: 'sub:a' });
    await expectUnauthorized(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'b' }, { ttlSeconds: 3_601 })}`));
  });

  it('counts from now when iat is missing or in the future', async () => {
    const { idp, auth } = setup({ maxTokenLifetimeMs: 3_600_000 });
    const now = Math.floor(clock.now() / 1000);
    await expectUnauthorized(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'a', iat: undefined, exp: now + 7_200 })}`));
    await expectUnauthorized(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'b', iat: now + 7_000, exp: now + 7_200 })}`));
    await expect(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'c', iat: undefined, exp: now + 3_000 })}`)).resolves.toMatchObject({ ownerId: 'sub:c' });
  });
});

describe('JWT authenticator token cache', () => {
  it('answers a repeated token without verifying its signature again', async () => {
    const { idp, auth } = setup();
    const token = await idp.mintToken({ sub: 'a' });
    const verify = vi.mocked(jwtVerify);
    verify.mockClear();
    const first = await auth.authenticate(`Bearer ${token}`);
    const second = await auth.authenticate(`bearer ${token}`);
    expect(second).toBe(first);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('stops answering from the cache once the injected clock reaches the token’s exp', async () => {
    const { idp, auth, clock } = setup();
    const token = await idp.mintToken({ sub: 'a' }, { ttlSeconds: 60 });
    const verify = vi.mocked(jwtVerify);
    verify.mockClear();
    await auth.authenticate(`Bearer ${token}`);
    clock.advance(59_999);
    await auth.authenticate(`Bearer ${token}`);
    expect(verify).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await expectUnauthorized(auth.authenticate(`Bearer ${token}`));
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('keeps no more tokens than its bound', async () => {
    const idp = shared;
    const auth = createAuthenticator(authConfig(idp), { clock, log: { warn: () => undefined }, tokenCacheSize: 1 });
    onTestFinished(() => auth.close());
    const [a, b] = [await idp.mintToken({ sub: 'a' }), await idp.mintToken({ sub: 'b' })];
    const verify = vi.mocked(jwtVerify);
    verify.mockClear();
    for (const token of [a, b, a, b]) await auth.authenticate(`Bearer ${token}`);
    expect(verify).toHaveBeenCalledTimes(4);
  });
});

describe('JWT authenticator remembered (the synchronous cache-hit lane)', () => {
  it('knows a token only once authenticate has verified it, and answers the same principal', async () => {
    const { idp, auth } = setup();
    const token = await idp.mintToken({ sub: 'a' });
    expect(auth.remembered(`Bearer ${token}`)).toBeUndefined();
    const principal = await auth.authenticate(`Bearer ${token}`);
    expect(auth.remembered(`Bearer ${token}`)).toBe(principal);
    expect(auth.remembered(` bearer\t${token} `)).toBe(principal);
  });

  it('never answers for a header authenticate would refuse, even one that starts like the usual form', async () => {
    const { idp, auth } = setup();
    const token = await idp.mintToken({ sub: 'a' });
    const principal = await auth.authenticate(`Bearer ${token}`);
    for (const header of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `Bearer ${token},${token}`, `Bearer ${token}\u0000`]) {
      expect(auth.remembered(header)).toBeUndefined();
      await expectProblem(auth.authenticate(header), { code: 'unauthorized', detail: UNAUTHORIZED_DETAIL });
    }
    // Accepted spellings the fast form does not cover are still answered by authenticate, from the cache.
    expect(auth.remembered(`Bearer  ${token} `)).toBeUndefined();
    await expect(auth.authenticate(`Bearer  ${token} `)).resolves.toBe(principal);
  });

  it('forgets a token once the injected clock reaches its exp (zero skew), so authenticate refuses it', async () => {
    const { idp, auth, clock } = setup();
    const token = await idp.mintToken({ sub: 'a' }, { ttlSeconds: 60 });
    await auth.authenticate(`Bearer ${token}`);
    clock.advance(59_999);
    expect(auth.remembered(`Bearer ${token}`)).toBeDefined();
    clock.advance(1);
    expect(auth.remembered(`Bearer ${token}`)).toBeUndefined();
    await expectUnauthorized(auth.authenticate(`Bearer ${token}`));
  });

  it('answers undefined, never throws, for a missing, malformed, two-token or over-long header', async () => {
    const { idp, auth } = setup();
    const token = await idp.mintToken({ sub: 'a' });
    await auth.authenticate(`Bearer ${token}`);
    for (const header of [undefined, '', token, `Basic ${token}`, `Bearer ${token} ${token}`, `Bearer ${token}${' '.repeat(20_000)}`]) {
      expect(auth.remembered(header)).toBeUndefined();
    }
  });
});

describe('JWT authenticator key refresh', () => {
  it('validates a token signed with a rotated key once the cooldown allows a JWKS refetch', async () => {
    const own = await startDevIdp({ port: 0, persist: false, clock, onRequest: ({ path }) => paths.push(path) });
    onTestFinished(() => own.close());
    const { idp, auth, jwksHits } = setup({}, own);
    await auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'before' })}`);
    expect(jwksHits()).toBe(1);
    await idp.rotateKey();
    const rotated = await idp.mintToken({ sub: 'after' });
    await expectUnauthorized(auth.authenticate(`Bearer ${rotated}`));
    expect(jwksHits()).toBe(1);
    clock.advance(COOLDOWN_MS);
    await expect(auth.authenticate(`Bearer ${rotated}`)).resolves.toMatchObject({ ownerId: 'sub:after' });
    expect(jwksHits()).toBe(2);
  });

  it('refetches the JWKS at most once per cooldown however many unknown kids arrive', async () => {
    const { idp, auth, clock, jwksHits } = setup();
    await auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'a' })}`);
    const unknown = (n: number) => idp.mintToken({ sub: 'a' }, { kid: `unknown-${n}` });
    const burst = async () => {
      const tokens = await Promise.all([1, 2, 3, 4, 5].map(unknown));
      await Promise.all(tokens.map((token) => expectUnauthorized(auth.authenticate(`Bearer ${token}`))));
    };
    await burst();
    expect(jwksHits()).toBe(1);
    clock.advance(COOLDOWN_MS);
    await burst();
    expect(jwksHits()).toBe(2);
    clock.advance(COOLDOWN_MS - 1);
    await burst();
    expect(jwksHits()).toBe(2);
  });

  it('refetches stale keys after ten minutes without waiting for an unknown kid', async () => {
    const { idp, auth, clock, jwksHits } = setup();
    await auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'a' })}`);
    clock.advance(10 * 60_000);
    await auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'b' })}`);
    expect(jwksHits()).toBe(2);
  });

  it('loads discovery once and reuses it', async () => {
    const { idp, auth, paths } = setup();
    for (const sub of ['a', 'b', 'c']) await auth.authenticate(`Bearer ${await idp.mintToken({ sub })}`);
    expect(paths.filter((path) => path.endsWith('/.well-known/openid-configuration'))).toHaveLength(1);
  });
});

describe('JWT authenticator readiness', () => {
  it('is ready once discovery and the JWKS load', async () => {
    const { auth, paths } = setup();
    await expect(auth.ready()).resolves.toBe(true);
    expect(paths).toHaveLength(2);
  });

  it('answers 503 (not 401, never 500) and is not ready while discovery is unreachable, with one warn per state change', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'portcullis-auth-'));
    onTestFinished(() => rm(stateDir, { recursive: true, force: true }));
    const first = await startDevIdp({ port: 0, stateDir, clock });
    const token = await first.mintToken({ sub: 'a' });
    await first.close();
    const warnings: object[] = [];
    const infos: object[] = [];
    const failures: string[] = [];
    const auth = createAuthenticator(authConfig(first), {
      clock,
      log: { warn: (obj) => warnings.push(obj), info: (obj) => infos.push(obj) },
      onFailure: (category) => failures.push(category),
    });
    onTestFinished(() => auth.close());

    for (let i = 0; i < 5; i += 1) await expectIdentityProviderUnavailable(auth.authenticate(`Bearer ${token}`));
    await expect(auth.ready()).resolves.toBe(false);
    expect(warnings).toEqual([{ event: 'identity_provider.unreachable', reason: expect.stringContaining('unreachable') }]);
    expect(failures).toEqual(Array(5).fill('identity_provider_unavailable'));

    // Same state directory: same tenant, port and key. Readiness returns after the retry backoff.
    const again = await startDevIdp({ stateDir, clock });
    onTestFinished(() => again.close());
    clock.advance(5_000);
    await expect(auth.ready()).resolves.toBe(true);
    await expect(auth.authenticate(`Bearer ${token}`)).resolves.toMatchObject({ ownerId: 'sub:a' });
    expect(infos).toEqual([{ event: 'identity_provider.reachable' }]);
    expect(warnings).toHaveLength(1);
  });

  it('refuses http metadata when RequireHttpsMetadata is true, without contacting the provider', async () => {
    const { idp, auth, paths } = setup({ requireHttpsMetadata: true });
    await expectIdentityProviderUnavailable(auth.authenticate(`Bearer ${await idp.mintToken({ sub: 'a' })}`));
    await expect(auth.ready()).resolves.toBe(false);
    expect(paths).toHaveLength(0);
  });

  it('answers 503 after close (no token can be checked any more)', async () => {
    const { idp, auth } = setup();
    const token = await idp.mintToken({ sub: 'a' });
    auth.close();
    await expectIdentityProviderUnavailable(auth.authenticate(`Bearer ${token}`));
  });
});
