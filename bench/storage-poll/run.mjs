// Issue 10: a bundle-run poll with a JWT on the PostgreSQL storage against the same poll on Memory —
// two `portcullis serve`-built servers in their own processes, 20 callers (each its own token, bundle
// and finished run) over 20 connections, rounds alternated. On PostgreSQL a poll is a rate-limit
// window, a handle touch and a run read: three round trips to a real (embedded, durable) server.
// Target: ratio ≥ 0.5.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { finishedRunCallers, smallBundle } from '../lib/bundles.mjs';
import { compareThroughput, printThroughput, rotating } from '../lib/compare.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';
import { benchPostgres } from '../storage/embedded-postgres.mjs';

const TARGET = 0.5;
const CALLERS = 20;
const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-storage-poll-'));
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const database = await benchPostgres();

const settings = (name, storage) => ({
  AppConfig: {
    Storage: storage,
    AI: {
      RateLimits: UNLIMITED,
      ChatModel: { Provider: 'Scripted' },
      BundleExecution: {
        Enabled: true,
        TempRoot: join(work, name),
        Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } },
        Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false },
      },
    },
  },
});

const memory = await startServer({ kind: 'portcullis', settings: settings('memory', { Provider: 'Memory' }) });
const postgres = await startServer({
  kind: 'portcullis',
  settings: settings('postgres', { Provider: 'Postgres', Postgres: { ConnectionString: database.url, Schema: 'bench_poll', MaxConnections: 10 } }),
});

async function callers(server) {
  return finishedRunCallers(server.url, idp, await smallBundle(work), CALLERS);
}

try {
  const [onPostgres, onMemory] = [await callers(postgres), await callers(memory)];
  const summary = await compareThroughput({
    servers: { postgres, memory },
    sides: {
      postgres: { url: postgres.url, connections: 20, requests: rotating(onPostgres) },
      memory: { url: memory.url, connections: 20, requests: rotating(onMemory) },
    },
  });
  const met = printThroughput(`storage-poll: GET a finished bundle run with a JWT, ${CALLERS} callers, 20 connections, PostgreSQL vs Memory`, summary, TARGET);
  console.log(JSON.stringify({ benchmark: 'storage-poll', callers: CALLERS, target: TARGET, met, ...summary }));
} finally {
  await postgres.close();
  await memory.close();
  await idp.close();
  await database.stop();
  await rm(work, { recursive: true, force: true });
}
