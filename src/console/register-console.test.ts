import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app.js';

let root: string;
let anonymous: TestApp;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'portcullis-console-'));
  await mkdir(join(root, 'assets'));
  await writeFile(join(root, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/console/assets/app-1.js"></script>');
  await writeFile(join(root, 'assets', 'app-1.js'), 'console.log(1)');
  await writeFile(join(root, '.secret'), 'dotfile');
  anonymous = await buildTestApp({ deps: { consoleRoot: root } });
});

afterAll(async () => {
  await anonymous.close();
  await rm(root, { recursive: true, force: true });
});

describe('the web console routes', () => {
  it('redirects / and /console to /console/', async () => {
    expect(await anonymous.app.inject({ url: '/' })).toMatchObject({ statusCode: 302, headers: { location: '/console/' } });
    expect((await anonymous.app.inject({ url: '/console' })).headers.location).toBe('/console/');
  });

  it('serves the page under a strict CSP (no inline script, no eval, no framing), revalidated on every load', async () => {
    const page = await anonymous.app.inject({ url: '/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(page.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
  });

  it('serves hashed assets as immutable and answers 404 for missing files and dotfiles', async () => {
    const asset = await anonymous.app.inject({ url: '/console/assets/app-1.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toBeDefined();
    expect((await anonymous.app.inject({ url: '/console/assets/missing.js' })).statusCode).toBe(404);
    expect((await anonymous.app.inject({ url: '/console/.secret' })).statusCode).toBe(404);
    expect((await anonymous.app.inject({ url: '/console/../package.json' })).statusCode).toBe(404);
  });

  it('tells the console there is nothing to sign in to in anonymous mode', async () => {
    const response = await anonymous.app.inject({ url: '/console/config.json' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ auth: { mode: 'anonymous' } });
  });

  it('adds nothing to the OpenAPI document', async () => {
    const paths = Object.keys((await anonymous.app.inject({ url: '/openapi.json' })).json<{ paths: object }>().paths);
    expect(paths.filter((path) => path === '/' || path.startsWith('/console'))).toEqual([]);
  });
});

describe('the console with an identity provider', () => {
  it('publishes the authority, client id and scope — no secret — and allows only that origin beside its own', async () => {
    const app = await buildTestApp({
      environment: 'Production',
      settings: {
        AppConfig: {
          AI: { BundleExecution: { Auth: { Instance: 'https://login.example.com/', TenantId: 'tenant-1', ClientId: 'api-client', RequireHttpsMetadata: true } } },
          Console: { ClientId: 'spa-client', Scope: 'openid api://api-client/access' },
        },
      },
      deps: { consoleRoot: root },
    });
    try {
      const response = await app.app.inject({ url: '/console/config.json' });
      expect(response.json()).toEqual({
        auth: { mode: 'oidc', authority: 'https://login.example.com/tenant-1/v2.0', clientId: 'spa-client', scope: 'openid api://api-client/access' },
      });
      expect(response.headers['content-security-policy']).toContain("connect-src 'self' https://login.example.com;");
    } finally {
      await app.close();
    }
  });

  it('defaults the console client to the API client and asks for the API audience', async () => {
    const app = await buildTestApp({
      environment: 'Production',
      settings: { AppConfig: { AI: { BundleExecution: { Auth: { TenantId: 't', ClientId: 'c' } } } } },
      deps: { consoleRoot: root },
    });
    try {
      expect((await app.app.inject({ url: '/console/config.json' })).json()).toMatchObject({ auth: { clientId: 'c', scope: 'openid profile api://c/.default' } });
    } finally {
      await app.close();
    }
  });
});

describe('a service whose console was not built', () => {
  it('still starts, serves its API and answers 404 under /console/', async () => {
    const unbuilt = await buildTestApp({ deps: { consoleRoot: join(root, 'not-built') } });
    try {
      expect((await unbuilt.app.inject({ url: '/console/' })).statusCode).toBe(404);
      expect((await unbuilt.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await unbuilt.close();
    }
  });
});

describe('AppConfig:Console:Enabled', () => {
  it('false serves no console and no redirect', async () => {
    expect((await anonymous.app.inject({ url: '/console/x' })).statusCode).toBe(404);
    const off = await buildTestApp({ settings: { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: true } } }, Console: { Enabled: false } } }, deps: { consoleRoot: root } });
    try {
      expect((await off.app.inject({ url: '/' })).statusCode).toBe(404);
      expect((await off.app.inject({ url: '/console/' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
