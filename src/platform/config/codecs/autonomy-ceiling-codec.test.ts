import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type LoadConfigResult } from '../index.js';
import { autonomyCeilingCodec } from './autonomy-ceiling-codec.js';

const base = { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true' };
const CEILING = 'AppConfig:AI:BundleExecution:Envelopes:ByRole:ops:AutonomyCeiling';
const VARIABLE = 'AppConfig__AI__BundleExecution__Envelopes__ByRole__ops__AutonomyCeiling';

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-ceiling-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function loadCeiling(value: string): LoadConfigResult {
  return loadConfig({ cwd, env: { ...base, [VARIABLE]: value }, configFiles: [] });
}

describe('AutonomyCeiling', () => {
  it('reads the three tiers in any case', () => {
    expect(autonomyCeilingCodec.decode('autonomous', { cwd })).toEqual({ ok: true, value: 'Autonomous' });
    expect(autonomyCeilingCodec.decode(' Supervised ', { cwd })).toEqual({ ok: true, value: 'Supervised' });
  });

  it('degrades an unknown name to Restricted with a warning naming the key', () => {
    expect(loadCeiling('FullAuto')).toMatchObject({
      ok: true,
      config: { bundleExecution: { envelopes: { byRole: { ops: { autonomyCeiling: 'Restricted' } } } } },
      warnings: [`${CEILING}: is not a known autonomy tier; treated as Restricted (got "FullAuto" in environment variable ${VARIABLE})`],
    });
  });

  it('refuses a numeric ceiling, as text or as a JSON number', async () => {
    expect(loadCeiling('2')).toEqual({
      ok: false,
      problems: [
        `${CEILING}: a numeric AutonomyCeiling is not allowed; use Restricted, Supervised or Autonomous (got "2" in environment variable ${VARIABLE})`,
      ],
    });
    await writeFile(join(cwd, 'numeric.json'), JSON.stringify({ AppConfig: { AI: { BundleExecution: { Envelopes: { Default: { AutonomyCeiling: 2 } } } } } }));
    expect(loadConfig({ cwd, env: base, configFiles: ['numeric.json'] })).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^AppConfig:AI:BundleExecution:Envelopes:Default:AutonomyCeiling: a numeric AutonomyCeiling is not allowed/)],
    });
  });

  it('refuses a comma-composite ceiling', () => {
    expect(loadCeiling('Supervised, Autonomous')).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^AppConfig:AI:BundleExecution:Envelopes:ByRole:ops:AutonomyCeiling: a comma-composite AutonomyCeiling is not allowed/)],
    });
  });

  it('is Restricted when an envelope leaves it out', () => {
    const result = loadConfig({ cwd, env: { ...base, AppConfig__AI__BundleExecution__Envelopes__BySubject__alice__AllowedTools__0: 'clock' }, configFiles: [] });
    expect(result).toMatchObject({
      ok: true,
      config: { bundleExecution: { envelopes: { bySubject: { alice: { allowedTools: ['clock'], autonomyCeiling: 'Restricted' } } } } },
      warnings: [],
    });
  });
});
