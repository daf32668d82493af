// Builds the real app for in-process HTTP tests (`app.inject`) from configuration overrides laid
// over the built-in defaults, exactly as `portcullis serve` would load them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type AppDependencies } from '../../src/app.js';
import { loadConfig, type AppConfig } from '../../src/platform/config/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import type { App } from '../../src/platform/http/index.js';
import { openTestStorage } from './test-storage.js';

export interface TestAppOptions {
  /** An `appsettings`-shaped object laid over the defaults (use `{ AppConfig: { AI: … } }`). */
  readonly settings?: Record<string, unknown>;
  readonly environment?: string;
  readonly env?: Record<string, string>;
  readonly deps?: Partial<Omit<AppDependencies, 'config'>>;
}

export interface TestApp {
  readonly app: App;
  readonly config: AppConfig;
  readonly dir: string;
  /** What SIGHUP does to `portcullis serve`: the policy files re-read. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

export const ANONYMOUS_DEV = { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: true } } } } };

export async function loadTestConfig(options: TestAppOptions): Promise<{ config: AppConfig; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'portcullis-test-'));
  const file = join(dir, 'test-settings.json');
  await writeFile(file, JSON.stringify(options.settings ?? ANONYMOUS_DEV));
  const loaded = loadConfig({
    cwd: dir,
    env: { PORTCULLIS_ENVIRONMENT: options.environment ?? 'Development', ...options.env },
    configFiles: [file],
  });
  if (!loaded.ok) throw new Error(`test configuration refused:\n${loaded.problems.join('\n')}`);
  return { config: loaded.config, dir };
}

/** The real app on the suite's storage provider (see test-storage.ts) unless `deps.storage` is given. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { config, dir } = await loadTestConfig(options);
  const own = options.deps?.storage === undefined ? await openTestStorage(options.deps?.clock) : undefined;
  const built = await buildApp({ config, logger: createLogger({ level: 'silent' }), ...options.deps, ...(own ? { storage: own.storage } : {}) }).catch(async (error: unknown) => {
    await own?.dispose();
    throw error;
  });
  const { app } = built;
  await app.ready();
  return {
    app,
    config,
    dir,
    reload: built.reload,
    close: async () => {
      await app.close();
      await own?.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Deep-merges plain objects (arrays and scalars replace). */
export function merge(...layers: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const prev = out[key];
      out[key] =
        prev && typeof prev === 'object' && !Array.isArray(prev) && value && typeof value === 'object' && !Array.isArray(value)
          ? merge(prev as Record<string, unknown>, value as Record<string, unknown>)
          : value;
    }
  }
  return out;
}
