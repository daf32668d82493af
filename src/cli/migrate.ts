// `portcullis migrate [--config FILE]...`: applies the storage schema migrations of this build to the
// configured PostgreSQL schema and exits (0 done or nothing to do, 1 configuration refused, database
// unreachable or schema newer than this build, 2 bad usage). With the Memory provider there is
// nothing to migrate. The configuration is read as `serve` reads it, but only the storage rules
// run: migrating needs no authentication, envelopes or dataset roots, so their absence refuses nothing.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { systemClock } from '../platform/clock/index.js';
import { loadConfig } from '../platform/config/index.js';
import { createLogger } from '../platform/log/index.js';
import { StorageStartError, migrateStorage } from '../platform/storage/index.js';
import type { CommandIo } from './cli-io.js';

export const MIGRATE_USAGE = [
  'usage: portcullis migrate [--config FILE]...',
  '',
  'Applies the storage schema migrations to the PostgreSQL database of AppConfig:Storage and exits.',
  '',
  'options:',
  '  --config FILE   an extra settings file, as for serve (repeatable; later wins)',
  '  -h, --help      show this help',
].join('\n');

export async function runMigrate(args: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { config: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    io.stderr(`portcullis migrate: ${(error as Error).message}\n${MIGRATE_USAGE}`);
    return 2;
  }
  if (parsed.values.help === true) {
    io.stdout(MIGRATE_USAGE);
    return 0;
  }
  const loaded = loadConfig({ cwd: io.cwd, env: io.env, configFiles: parsed.values.config ?? [], rules: 'storage' });
  if (!loaded.ok) {
    for (const problem of loaded.problems) io.stderr(problem);
    return 1;
  }
  const { storage } = loaded.config;
  if (storage.provider === 'Memory') {
    io.stdout('AppConfig:Storage:Provider is Memory: nothing to migrate.');
    return 0;
  }
  const logger = createLogger({ level: loaded.config.logging.level, destination: pino.destination(2) });
  const log = { info: (o: object, m: string) => logger.info(o, m), warn: (o: object, m: string) => logger.warn(o, m) };
  try {
    const outcome = await migrateStorage(storage, { clock: systemClock, log });
    const schema = storage.postgres.schema;
    io.stdout(
      outcome === null || outcome.applied.length === 0
        ? `schema "${schema}" is up to date (version ${outcome?.version ?? 0})`
        : `applied migration${outcome.applied.length === 1 ? '' : 's'} ${outcome.applied.join(', ')} to schema "${schema}" (now version ${outcome.version})`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof StorageStartError)) throw error;
    io.stderr(error.message);
    return 1;
  } finally {
    logger.flush();
  }
}
