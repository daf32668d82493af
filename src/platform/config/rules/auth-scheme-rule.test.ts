import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type LoadConfigResult } from '../index.js';

const AUTH = 'AppConfig:AI:BundleExecution:Auth';
const tenant = { AppConfig__AI__BundleExecution__Auth__TenantId: 'tenant' };
const client = { AppConfig__AI__BundleExecution__Auth__ClientId: 'client' };
const anonymous = { AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' };
const development = { PORTCULLIS_ENVIRONMENT: 'Development' };

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-auth-rule-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function load(env: Record<string, string>): LoadConfigResult {
  return loadConfig({ cwd, env, configFiles: [] });
}

describe('authentication scheme rule', () => {
  it('refuses a TenantId without a ClientId', () => {
    expect(load(tenant)).toEqual({
      ok: false,
      problems: [`${AUTH}:ClientId: must be set together with ${AUTH}:TenantId (set both or neither)`],
    });
  });

  it('refuses a ClientId without a TenantId', () => {
    expect(load(client)).toEqual({
      ok: false,
      problems: [`${AUTH}:TenantId: must be set together with ${AUTH}:ClientId (set both or neither)`],
    });
  });

  it('refuses to start with neither a scheme nor AllowAnonymous, even in Development', () => {
    expect(load(development)).toEqual({
      ok: false,
      problems: [
        `${AUTH}: no authentication configured; set ${AUTH}:TenantId and ${AUTH}:ClientId, or ${AUTH}:AllowAnonymous to true (Development only)`,
      ],
    });
  });

  it('refuses a scheme together with AllowAnonymous', () => {
    expect(load({ ...development, ...tenant, ...client, ...anonymous })).toEqual({
      ok: false,
      problems: [`${AUTH}:AllowAnonymous: must not be true while a scheme is configured (TenantId and ClientId are set)`],
    });
  });

  it('refuses AllowAnonymous outside the Development environment', () => {
    expect(load({ ...anonymous, PORTCULLIS_ENVIRONMENT: 'Staging' })).toEqual({
      ok: false,
      problems: [`${AUTH}:AllowAnonymous: is allowed only in the Development environment (the environment is Staging)`],
    });
    expect(load(anonymous)).toMatchObject({ ok: false, problems: [expect.stringContaining('(the environment is Production)')] });
  });

  it('starts with both ids in any environment', () => {
    expect(load({ ...tenant, ...client })).toMatchObject({ ok: true });
    expect(load({ ...development, ...tenant, ...client })).toMatchObject({ ok: true });
  });

  it('starts anonymously in Development, whatever the case of the environment name', () => {
    expect(load({ ...anonymous, ...development })).toMatchObject({ ok: true });
    expect(load({ ...anonymous, PORTCULLIS_ENVIRONMENT: 'development' })).toMatchObject({ ok: true });
  });

  it('does not guess about AllowAnonymous when its own value was refused', () => {
    const result = load({ AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'maybe' });
    expect(result).toEqual({
      ok: false,
      problems: [
        `${AUTH}:AllowAnonymous: must be true or false (got "maybe" in environment variable AppConfig__AI__BundleExecution__Auth__AllowAnonymous)`,
      ],
    });
  });
});
