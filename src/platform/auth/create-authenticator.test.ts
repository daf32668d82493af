import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import type { AuthConfig } from '../config/types.js';
import { ANONYMOUS_PRINCIPAL, createAuthenticator } from './index.js';

const base: AuthConfig = {
  tenantId: null,
  clientId: null,
  instance: 'https://login.microsoftonline.com/',
  requireHttpsMetadata: true,
  validIssuers: [],
  allowAnonymous: false,
  anonymousRoles: [],
  jwksRefreshCooldownMs: 30_000,
  refusalLogIntervalMs: 60_000,
  maxTokenLifetimeMs: 365 * 86_400_000,
};
const deps = { clock: new ManualClock(), log: { warn: () => undefined } };

describe('createAuthenticator in anonymous mode', () => {
  const auth = createAuthenticator({ ...base, allowAnonymous: true }, deps);

  it('authenticates every request as the one synthetic principal', async () => {
    await expect(auth.authenticate(undefined)).resolves.toBe(ANONYMOUS_PRINCIPAL);
    expect(ANONYMOUS_PRINCIPAL).toEqual({ ownerId: 'anonymous:dev', ownerClaimValue: 'anonymous', subjectId: null, roles: [], anonymous: true });
  });

  it('ignores an Authorization header, valid or not', async () => {
    await expect(auth.authenticate('Bearer not.a.token')).resolves.toBe(ANONYMOUS_PRINCIPAL);
    await expect(auth.authenticate('Basic Zm9vOmJhcg==')).resolves.toBe(ANONYMOUS_PRINCIPAL);
  });

  it('remembers the synthetic principal for every request, header or not (no promise on the request path)', () => {
    expect(auth.remembered(undefined)).toBe(ANONYMOUS_PRINCIPAL);
    expect(auth.remembered('Bearer not.a.token')).toBe(ANONYMOUS_PRINCIPAL);
  });

  it('is always ready', async () => {
    await expect(auth.ready()).resolves.toBe(true);
  });

  it('gives the synthetic principal the AnonymousRoles, and only those', async () => {
    const withRoles = createAuthenticator({ ...base, allowAnonymous: true, anonymousRoles: ['Harness.Tools.Invoke', 'Harness.Evals.Execute'] }, deps);
    await expect(withRoles.authenticate(undefined)).resolves.toEqual({
      ...ANONYMOUS_PRINCIPAL,
      roles: ['Harness.Tools.Invoke', 'Harness.Evals.Execute'],
    });
  });
});

describe('createAuthenticator configuration checks', () => {
  it('refuses a configuration with neither a scheme nor anonymous mode', () => {
    expect(() => createAuthenticator(base, deps)).toThrow(/TenantId and ClientId/);
  });

  it('refuses exactly one of TenantId and ClientId', () => {
    expect(() => createAuthenticator({ ...base, tenantId: 't' }, deps)).toThrow(/TenantId and ClientId/);
  });

  it('refuses anonymous mode combined with a scheme', () => {
    expect(() => createAuthenticator({ ...base, allowAnonymous: true, tenantId: 't', clientId: 'c' }, deps)).toThrow(/AllowAnonymous/);
  });
});
