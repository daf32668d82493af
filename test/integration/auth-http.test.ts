// Authentication over HTTP against a real OpenID provider on loopback: a valid token reaches
// /api/capabilities; every hostile token gets the same 401 (same body, same WWW-Authenticate).
import { generateKeyPair, SignJWT, exportJWK, type JWK } from 'jose';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { bearer, idpSettings, startKeyedTestIdp, type KeyedTestIdp } from '../helpers/idp.js';
import { withoutTraceId } from '../helpers/problem-body.js';

let keyed: KeyedTestIdp;
let idp: DevIdp;
let t: TestApp;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);
const DAY_SECONDS = 86_400;

beforeAll(async () => {
  keyed = await startKeyedTestIdp();
  idp = keyed.idp;
  t = await buildTestApp({
    environment: 'Production',
    settings: idpSettings(idp, {
      BundleExecution: {
        Envelopes: {
          Default: { AllowedTools: [], AutonomyCeiling: 'Restricted' },
          BySubject: { alice: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Autonomous' } },
          ByRole: {
            Readers: { AllowedTools: ['clock', 'knowledge'], AutonomyCeiling: 'Autonomous' },
            Auditors: { AllowedTools: ['clock'], AutonomyCeiling: 'Supervised' },
          },
        },
      },
    }),
  });
});
afterAll(async () => {
  await t.close();
  await keyed.close();
});

async function capabilities(headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/api/capabilities', headers });
}

async function foreignSigned(claims: Record<string, unknown>, header: Record<string, unknown>): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', ...header }).sign(privateKey);
}

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('a valid token', () => {
  it('reaches /api/capabilities and resolves the subject envelope', async () => {
    const res = await capabilities(bearer(await idp.mintToken({ sub: 'alice' })));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ source: 'subject', allowedTools: ['calculator', 'clock'], autonomyCeiling: 'Autonomous' });
    expect(body.tools.find((x: { name: string }) => x.name === 'clock')).toMatchObject({ granted: true });
    expect(body.tools.find((x: { name: string }) => x.name === 'memory')).toMatchObject({ granted: false });
  });

  it('combines matching roles to the least privilege', async () => {
    const res = await capabilities(bearer(await idp.mintToken({ sub: 'bob', roles: ['Readers', 'Auditors'] })));
    expect(res.json()).toMatchObject({
      source: 'roles',
      matchedRoles: ['Auditors', 'Readers'],
      allowedTools: ['clock'],
      autonomyCeiling: 'Supervised',
    });
  });

  it('falls back to the default envelope, which grants nothing', async () => {
    const res = await capabilities(bearer(await idp.mintToken({ sub: 'carol' })));
    expect(res.json()).toMatchObject({ source: 'default', allowedTools: [], autonomyCeiling: 'Restricted' });
  });

  it('is accepted for as long as the dev identity provider mints (365 days, the default MaxTokenLifetime)', async () => {
    const res = await capabilities(bearer(await idp.mintToken({ sub: 'alice' }, { ttlSeconds: 365 * DAY_SECONDS })));
    expect(res.statusCode).toBe(200);
  });

  it('may spell a claim name with escapes, as long as no name comes twice', async () => {
    const claims = `{"\\u0073ub":"alice","iss":${JSON.stringify(idp.issuer)},"aud":"api://${idp.clientId}","exp":${nowSeconds() + 600}}`;
    const res = await capabilities(bearer(keyed.signRaw(claims)));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ source: 'subject' });
  });
});

describe('hostile tokens', () => {
  let reference: { body: string; wwwAuthenticate: unknown };

  beforeAll(async () => {
    const res = await capabilities({});
    expect(res.statusCode).toBe(401);
    reference = { body: withoutTraceId(res.body), wwwAuthenticate: res.headers['www-authenticate'] };
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toMatchObject({ title: 'Unauthorized', status: 401 });
  });

  const cases: Array<[string, () => Promise<Record<string, string>>]> = [
    ['no token', async () => ({})],
    ['a non-Bearer scheme', async () => ({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })],
    ['garbage', async () => bearer('not.a.jwt')],
    ['alg none', async () => bearer(`${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: 'alice', iss: idp.issuer, aud: `api://${idp.clientId}`, exp: nowSeconds() + 600 })}.`)],
    [
      'HS256 signed with the public key',
      async () => {
        const jwks = (await (await fetch(idp.jwksUri)).json()) as { keys: JWK[] };
        const secret = createHash('sha256').update(JSON.stringify(jwks.keys[0])).digest();
        const token = await new SignJWT({ sub: 'alice', aud: `api://${idp.clientId}`, iss: idp.issuer })
          .setProtectedHeader({ alg: 'HS256', kid: jwks.keys[0]!.kid! })
          .setExpirationTime('10m')
          .sign(new Uint8Array(Buffer.from(JSON.stringify(jwks.keys[0]))));
        void secret;
        return bearer(token);
      },
    ],
    [
      'a foreign key presenting a known kid',
      async () => {
        const jwks = (await (await fetch(idp.jwksUri)).json()) as { keys: JWK[] };
        return bearer(await foreignSigned({ sub: 'alice', iss: idp.issuer, aud: `api://${idp.clientId}`, exp: nowSeconds() + 600 }, { kid: jwks.keys[0]!.kid }));
      },
    ],
    ['an unknown kid', async () => bearer(await idp.mintToken({ sub: 'alice' }, { kid: 'nobody-knows-this-kid' }))],
    ['expired', async () => bearer(await idp.mintToken({ sub: 'alice', exp: nowSeconds() - 5, iat: nowSeconds() - 600, nbf: nowSeconds() - 600 }))],
    ['not yet valid', async () => bearer(await idp.mintToken({ sub: 'alice', nbf: nowSeconds() + 300 }))],
    ['the wrong audience', async () => bearer(await idp.mintToken({ sub: 'alice', aud: 'api://someone-else' }))],
    ['the wrong issuer', async () => bearer(await idp.mintToken({ sub: 'alice', iss: 'https://evil.example/v2.0' }))],
    ['no exp', async () => bearer(await idp.mintToken({ sub: 'alice', exp: undefined }))],
    ['no identity claims', async () => bearer(await idp.mintToken({ sub: undefined }))],
    [
      'an embedded jwk header key',
      async () => {
        const { publicKey, privateKey } = await generateKeyPair('RS256');
        const jwk = await exportJWK(publicKey);
        return bearer(
          await new SignJWT({ sub: 'alice', iss: idp.issuer, aud: `api://${idp.clientId}`, exp: nowSeconds() + 600 })
            .setProtectedHeader({ alg: 'RS256', jwk })
            .sign(privateKey),
        );
      },
    ],
    ['a jku URL', async () => bearer(await foreignSigned({ sub: 'alice', iss: idp.issuer, aud: `api://${idp.clientId}`, exp: nowSeconds() + 600 }, { jku: 'http://127.0.0.1:9/keys' }))],
    ['an x5u URL', async () => bearer(await foreignSigned({ sub: 'alice', iss: idp.issuer, aud: `api://${idp.clientId}`, exp: nowSeconds() + 600 }, { x5u: 'http://127.0.0.1:9/cert' }))],
    // Identity claims the storage cannot keep as an owner key (on PostgreSQL they were a 500).
    ['a NUL byte in sub', async () => bearer(await idp.mintToken({ sub: 'ali\u0000ce' }))],
    ['an unpaired surrogate in sub', async () => bearer(await idp.mintToken({ sub: 'alice\uD800' }))],
    ['a NUL byte in oid', async () => bearer(await idp.mintToken({ oid: '00000000-0000\u0000', sub: 'alice' }))],
    ['a NUL byte in sub beside a usable oid', async () => bearer(await idp.mintToken({ oid: '7d1b0c4e-2f3a-4b5c-8d9e-0f1a2b3c4d5e', sub: 'alice\u0000' }))],
    ['an owner claim over 512 bytes', async () => bearer(await idp.mintToken({ sub: 'a'.repeat(600) }))],
    // RFC 7519 §4: a claim set naming a claim twice is refused, not read as its last spelling.
    ['a claim named twice', async () => bearer(keyed.signRaw(`{"sub":"mallory","iss":${JSON.stringify(idp.issuer)},"aud":"api://${idp.clientId}","exp":${nowSeconds() + 600},"sub":"alice"}`))],
    ['a claim named twice, once escaped', async () => bearer(keyed.signRaw(`{"sub":"alice","iss":${JSON.stringify(idp.issuer)},"aud":"api://${idp.clientId}","exp":${nowSeconds() + 600},"\\u0065xp":${nowSeconds() + 60}}`))],
    [
      'a header member named twice',
      async () => {
        const { kid } = JSON.parse(Buffer.from((await idp.mintToken({ sub: 'x' })).split('.')[0]!, 'base64url').toString()) as { kid: string };
        const claims = JSON.stringify({ sub: 'alice', iss: idp.issuer, aud: `api://${idp.clientId}`, exp: nowSeconds() + 600 });
        return bearer(keyed.signRaw(claims, `{"alg":"RS256","typ":"JWT","typ":"JOSE","kid":${JSON.stringify(kid)}}`));
      },
    ],
    // Auth:MaxTokenLifetime (365 days by default): counted from iat, or from now without one.
    ['a lifetime of 366 days', async () => bearer(await idp.mintToken({ sub: 'alice' }, { ttlSeconds: 366 * DAY_SECONDS }))],
    ['an exp 10 years away and no iat', async () => bearer(await idp.mintToken({ sub: 'alice', iat: undefined, exp: nowSeconds() + 3650 * DAY_SECONDS }))],
    ['an iat 400 days ago with an exp still ahead', async () => bearer(await idp.mintToken({ sub: 'alice', iat: nowSeconds() - 400 * DAY_SECONDS, nbf: nowSeconds() - 400 * DAY_SECONDS }))],
  ];

  it.each(cases)('answers %s with the same 401', async (name, headers) => {
    const res = await capabilities(await headers());
    expect(res.statusCode).toBe(401);
    expect(withoutTraceId(res.body)).toBe(reference.body);
    // RFC 6750 §3: no error code without a bearer token; every refused token gets the same invalid_token.
    const presented = name !== 'no token' && name !== 'a non-Bearer scheme';
    expect(res.headers['www-authenticate']).toBe(presented ? 'Bearer error="invalid_token"' : reference.wwwAuthenticate);
    expect(res.headers['content-type']).toBe('application/problem+json');
  });
});

describe('before authentication', () => {
  it('authenticates a request for a path id of any length before answering it', async () => {
    for (const id of ['unknown', 'x'.repeat(600), 'x'.repeat(5_000)]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/workflows/${id}` });
      expect(res.statusCode, `${id.length} characters`).toBe(401);
    }
  });

  it('answers a path of a route of other methods with 405, as for any wrong method, without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/workflows/validate' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('rate limits', () => {
  it('refuses past the per-caller window with 429 and Retry-After, keyed by owner', async () => {
    const token = await idp.mintToken({ sub: 'dave' });
    const other = await idp.mintToken({ sub: 'erin' });
    const limit = t.config.rateLimits['tools-read'];
    for (let i = 0; i < limit; i += 1) expect((await capabilities(bearer(token))).statusCode).toBe(200);
    const refused = await capabilities(bearer(token));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toMatchObject({ title: 'Too many requests', status: 429 });
    expect(refused.json().detail).toMatch(
      /^Too many requests under the 'tools-read' rate limit \(AppConfig:AI:RateLimits:tools-read:PermitsPerMinute\)\. Retry after \d+ seconds\.$/,
    );
    expect((await capabilities(bearer(other))).statusCode).toBe(200);
  });
});
