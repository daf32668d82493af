import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type LoadConfigResult } from '../index.js';

const AUTH = 'AppConfig:AI:BundleExecution:Auth';
const scheme = { AppConfig__AI__BundleExecution__Auth__TenantId: 'tenant', AppConfig__AI__BundleExecution__Auth__ClientId: 'client' };

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-instance-rule-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function load(env: Record<string, string>): LoadConfigResult {
  return loadConfig({ cwd, env: { ...scheme, ...env }, configFiles: [] });
}

describe('identity Instance rule', () => {
  it('refuses an http:// Instance while RequireHttpsMetadata is true', () => {
    expect(load({ AppConfig__AI__BundleExecution__Auth__Instance: 'http://127.0.0.1:5556/' })).toEqual({
      ok: false,
      problems: [`${AUTH}:Instance: must be an https:// URL unless ${AUTH}:RequireHttpsMetadata is false`],
    });
  });

  it('accepts an http:// Instance once RequireHttpsMetadata is false', () => {
    const result = load({
      AppConfig__AI__BundleExecution__Auth__Instance: 'http://127.0.0.1:5556',
      AppConfig__AI__BundleExecution__Auth__RequireHttpsMetadata: 'false',
    });
    expect(result).toMatchObject({ ok: true, config: { bundleExecution: { auth: { instance: 'http://127.0.0.1:5556/' } } } });
  });

  it.each(['login.example.com', '/relative/path', 'ftp://idp.example/'])('refuses %j, which is not an absolute http(s) URL', (instance) => {
    const result = load({ AppConfig__AI__BundleExecution__Auth__Instance: instance });
    expect(result).toEqual({
      ok: false,
      problems: [
        `${AUTH}:Instance: must be an absolute http:// or https:// URL (got ${JSON.stringify(instance)} in environment variable AppConfig__AI__BundleExecution__Auth__Instance)`,
      ],
    });
  });
});
