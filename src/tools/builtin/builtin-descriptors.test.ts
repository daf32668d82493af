import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config/index.js';
import { systemClock } from '../../platform/clock/index.js';
import { createMemoryStorage } from '../../platform/storage/index.js';
import { builtinToolDescriptors } from './builtin-descriptors.js';
import { createBuiltinTools } from './index.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('builtinToolDescriptors', () => {
  it('lists exactly the descriptors of the tools createBuiltinTools builds, in the same order', async () => {
    dir = await mkdtemp(join(tmpdir(), 'portcullis-builtins-'));
    const settings = join(dir, 'settings.json');
    await writeFile(settings, JSON.stringify({ AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: true } } } } }));
    const loaded = loadConfig({ cwd: dir, env: { PORTCULLIS_ENVIRONMENT: 'Development' }, configFiles: [settings] });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const log = { info: () => undefined, warn: () => undefined };
    const builtins = await createBuiltinTools(loaded.config, { clock: systemClock, log, storage: createMemoryStorage({ clock: systemClock }) });
    try {
      expect(builtins.tools.map((tool) => tool.descriptor)).toEqual(builtinToolDescriptors);
      builtins.tools.forEach((tool, i) => expect(tool.descriptor).toBe(builtinToolDescriptors[i]));
    } finally {
      await Promise.all(builtins.tools.map(async (tool) => tool.close?.()));
    }
  });
});
