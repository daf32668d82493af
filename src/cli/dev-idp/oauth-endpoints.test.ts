import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../platform/auth/index.js';
import { ManualClock } from '../../platform/clock/index.js';
import { startDevIdp, type DevIdp } from './index.js';

let idp: DevIdp;
let endpoints: { authorization_endpoint: string; token_endpoint: string; response_types_supported: string[]; code_challenge_methods_supported: string[] };
const clock = new ManualClock(Date.now());
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');
const redirectUri = 'http://127.0.0.1:5999/console/';

beforeAll(async () => {
  idp = await startDevIdp({ port: 0, persist: false, clock });
  endpoints = (await (await fetch(idp.discoveryUrl)).json()) as typeof endpoints;
});

afterAll(() => idp.close());

function authorizeParams(extra: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({
    response_type: 'code',
    client_id: idp.clientId,
    redirect_uri: redirectUri,
    scope: 'openid profile',
    state: 's-1',
    nonce: 'n-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
}

async function signIn(form: Record<string, string>, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(endpoints.authorization_endpoint, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...Object.fromEntries(authorizeParams(extra)), ...form }),
  });
}

async function redeem(code: string, overrides: Record<string, string> = {}): Promise<Response> {
  return fetch(endpoints.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: idp.clientId, redirect_uri: redirectUri, code_verifier: verifier, ...overrides }),
  });
}

describe('dev-idp authorization code flow', () => {
  it('lists its authorization and token endpoints, code flow and S256 in the discovery document', () => {
    expect(endpoints.authorization_endpoint).toBe(`${idp.url}/${idp.tenantId}/oauth2/v2.0/authorize`);
    expect(endpoints.token_endpoint).toBe(`${idp.url}/${idp.tenantId}/oauth2/v2.0/token`);
    expect(endpoints.response_types_supported).toEqual(['code']);
    expect(endpoints.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('shows a sign-in form carrying the request, every value escaped, under a CSP with no script', async () => {
    const response = await fetch(`${endpoints.authorization_endpoint}?${authorizeParams({ state: '"><script>alert(1)</script>' }).toString()}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('name="sub"');
    expect(html).toContain('name="roles"');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#34;&#62;&#60;script&#62;');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self' http://127.0.0.1:5999");
  });

  it.each([
    ['another client', { client_id: 'someone-else' }],
    ['a redirect off loopback', { redirect_uri: 'https://attacker.example/cb' }],
    ['no PKCE challenge', { code_challenge: '' }],
    ['the plain PKCE method', { code_challenge_method: 'plain' }],
    ['an implicit-flow response type', { response_type: 'token' }],
  ])('refuses %s without redirecting', async (_title, extra) => {
    const response = await fetch(`${endpoints.authorization_endpoint}?${authorizeParams(extra).toString()}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('sends the browser back with a one-time code and the state; the code and verifier buy tokens the service accepts', async () => {
    const answer = await signIn({ sub: 'carol', roles: 'Harness.Evals.Execute, Reader' });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe('s-1');
    const response = await redeem(location.searchParams.get('code')!);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const tokens = (await response.json()) as { access_token: string; id_token: string; token_type: string; expires_in: number };
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(decodeJwt(tokens.id_token)).toMatchObject({ sub: 'carol', aud: idp.clientId, nonce: 'n-1', iss: idp.issuer });
    const authenticator = createAuthenticator(
      { tenantId: idp.tenantId, clientId: idp.clientId, instance: idp.instance, requireHttpsMetadata: false, validIssuers: [], allowAnonymous: false, jwksRefreshCooldownMs: 30_000, anonymousRoles: [], refusalLogIntervalMs: 60_000, maxTokenLifetimeMs: 365 * 86_400_000 },
      { clock, log: { warn: () => undefined } },
    );
    await expect(authenticator.authenticate(`Bearer ${tokens.access_token}`)).resolves.toMatchObject({
      ownerId: 'sub:carol',
      subjectId: 'carol',
      roles: ['Harness.Evals.Execute', 'Reader'],
    });
    authenticator.close();
    expect(((await (await redeem(location.searchParams.get('code')!)).json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('puts the code in the fragment when the client asks for response_mode=fragment', async () => {
    const location = new URL((await signIn({ sub: 'dave', roles: '' }, { response_mode: 'fragment' })).headers.get('location')!);
    expect(location.search).toBe('');
    expect(new URLSearchParams(location.hash.slice(1)).get('state')).toBe('s-1');
  });

  it('refuses a wrong PKCE verifier, a changed redirect URI and an expired code', async () => {
    const code = async (): Promise<string> => new URL((await signIn({ sub: 'erin' })).headers.get('location')!).searchParams.get('code')!;
    expect(await (await redeem(await code(), { code_verifier: randomBytes(32).toString('base64url') })).json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await redeem(await code(), { redirect_uri: 'http://127.0.0.1:5999/other' })).json()).toMatchObject({ error: 'invalid_grant' });
    const late = await code();
    clock.advance(61_000);
    expect(await (await redeem(late)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('re-shows the form with an error for a subject outside the allowed characters', async () => {
    const response = await signIn({ sub: 'a b<c' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('role="alert"');
  });
});
