import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import { AuthFailure } from './auth-failure.js';
import { authorityFor, IdentityMetadata } from './identity-metadata.js';

describe('authorityFor', () => {
  it.each([
    ['https://login.microsoftonline.com/', 'tid', 'https://login.microsoftonline.com/tid/v2.0'],
    ['https://login.microsoftonline.com', 'tid', 'https://login.microsoftonline.com/tid/v2.0'],
    ['https://login.microsoftonline.com//', '/tid/', 'https://login.microsoftonline.com/tid/v2.0'],
    ['http://127.0.0.1:5556/', 'tid', 'http://127.0.0.1:5556/tid/v2.0'],
  ])('joins %j and %j with exactly one slash', (instance, tenantId, expected) => {
    expect(authorityFor(instance, tenantId)).toBe(expected);
  });
});

function urlOf(input: string | URL | Request): string {
  return input instanceof URL ? input.href : typeof input === 'string' ? input : input.url;
}

function stubFetch(documents: Record<string, unknown>, calls: string[]): typeof fetch {
  return (input) => {
    const url = urlOf(input);
    calls.push(url);
    const body = documents[url];
    return Promise.resolve(body === undefined ? new Response('{}', { status: 404 }) : Response.json(body));
  };
}

function metadata(fetchImpl: typeof fetch, requireHttps = true): IdentityMetadata {
  return new IdentityMetadata({
    authority: 'https://idp.example.test/tid/v2.0',
    requireHttps,
    refreshCooldownMs: 30_000,
    clock: new ManualClock(),
    fetch: fetchImpl,
  });
}

const DISCOVERY = 'https://idp.example.test/tid/v2.0/.well-known/openid-configuration';

describe('IdentityMetadata', () => {
  it('refuses an http jwks_uri from https discovery when https is required, without fetching it', async () => {
    const calls: string[] = [];
    const fetchImpl = stubFetch({ [DISCOVERY]: { issuer: 'https://idp.example.test/tid/v2.0', jwks_uri: 'http://idp.example.test/keys' } }, calls);
    await expect(metadata(fetchImpl).load()).rejects.toThrow(/JWKS URL .* is not https/);
    expect(calls).toEqual([DISCOVERY]);
  });

  it('refuses a discovery document without an issuer', async () => {
    const fetchImpl = stubFetch({ [DISCOVERY]: { jwks_uri: 'https://idp.example.test/keys' } }, []);
    await expect(metadata(fetchImpl).load()).rejects.toThrow(AuthFailure);
  });

  it('refuses a JWKS document that is not a key set', async () => {
    const fetchImpl = stubFetch(
      { [DISCOVERY]: { issuer: 'i', jwks_uri: 'https://idp.example.test/keys' }, 'https://idp.example.test/keys': { keys: 'nope' } },
      [],
    );
    await expect(metadata(fetchImpl).load()).rejects.toThrow(/not a valid JSON Web Key Set/);
  });

  it('does not follow a redirect from the discovery URL', async () => {
    const calls: string[] = [];
    const redirecting: typeof fetch = (input, init) => {
      calls.push(urlOf(input));
      expect(init?.redirect).toBe('manual');
      return Promise.resolve(new Response(null, { status: 302, headers: { location: 'http://evil.example.test/' } }));
    };
    await expect(metadata(redirecting).load()).rejects.toThrow(/HTTP 302/);
    expect(calls).toEqual([DISCOVERY]);
  });

  it('fails fast without refetching discovery during the retry backoff', async () => {
    const calls: string[] = [];
    const source = metadata(stubFetch({}, calls));
    await expect(source.load()).rejects.toThrow(/HTTP 404/);
    await expect(source.load()).rejects.toThrow(/HTTP 404/);
    expect(calls).toHaveLength(1);
  });
});
