import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type LoadConfigResult } from '../index.js';

const base = { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' };

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-evaluation-rule-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function load(env: Record<string, string>): LoadConfigResult {
  return loadConfig({ cwd, env: { ...base, ...env }, configFiles: [] });
}

describe('evaluation dataset roots rule', () => {
  it('refuses evaluation enabled with no DatasetRoots', () => {
    expect(load({ AppConfig__AI__Evaluation__Enabled: 'true' })).toEqual({
      ok: false,
      problems: [
        'AppConfig:AI:Evaluation:DatasetRoots: must list at least one directory when AppConfig:AI:Evaluation:Enabled is true',
      ],
    });
  });

  it('starts with evaluation enabled and one dataset root', () => {
    const result = load({ AppConfig__AI__Evaluation__Enabled: 'true', AppConfig__AI__Evaluation__DatasetRoots__0: 'datasets' });
    expect(result).toMatchObject({ ok: true, config: { evaluation: { enabled: true, datasetRoots: [join(cwd, 'datasets')] } } });
  });

  it('does not require DatasetRoots while evaluation is off', () => {
    expect(load({})).toMatchObject({ ok: true, config: { evaluation: { enabled: false, datasetRoots: [] } } });
  });
});
