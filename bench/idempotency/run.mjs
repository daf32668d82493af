// Issue 24: what an Idempotency-Key costs on start-run. One service (Memory storage, anonymous
// Development mode, the Scripted model); autocannon starts background bundle runs on one handle, rounds
// alternated: `keyed` sends a fresh Idempotency-Key with every request (each one a first use: the key's
// record inserted, the answer kept), `plain` sends none. Ratio = keyed ÷ plain throughput; target ≥ 0.8.
// BENCH_STORAGE=Postgres runs it on an embedded PostgreSQL instead.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register, smallBundle } from '../lib/bundles.mjs';
import { compareThroughput, printThroughput } from '../lib/compare.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';
import { startPostgres } from '../storage/embedded-postgres.mjs';

const TARGET = 0.8;
const postgres = process.env.BENCH_STORAGE === 'Postgres' ? await startPostgres() : null;
const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-idempotency-'));
const server = await startServer({
  kind: 'portcullis',
  environment: 'Development',
  settings: {
    AppConfig: {
      ...(postgres === null ? {} : { Storage: { Provider: 'Postgres', Postgres: { ConnectionString: postgres.url, Schema: 'bench_idempotency' } } }),
      AI: {
        RateLimits: UNLIMITED,
        ChatModel: { Provider: 'Scripted' },
        BundleExecution: {
          Enabled: true,
          TempRoot: join(work, 'staging'),
          Auth: { AllowAnonymous: true },
          MaxActiveBundleRunsPerOwner: 100_000,
          MaxConcurrentDispatchedBundleRuns: 16,
          Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } },
        },
      },
    },
  },
});
try {
  const handle = await register(server.url, await smallBundle(work));
  const request = { method: 'POST', path: `/api/bundles/${handle}/runs`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userMessages: ['go'] }) };
  let n = 0;
  const sides = {
    keyed: {
      url: server.url,
      connections: 8,
      requests: [{ ...request, setupRequest: (r) => ({ ...r, headers: { ...request.headers, 'idempotency-key': `bench-${process.pid}-${(n += 1)}` } }) }],
    },
    plain: { url: server.url, connections: 8, requests: [request] },
  };
  const summary = await compareThroughput({ sides, servers: { keyed: server, plain: server } });
  const met = printThroughput(`idempotency: POST /api/bundles/{handle}/runs with a fresh Idempotency-Key each vs none (${postgres === null ? 'Memory' : 'PostgreSQL'})`, summary, TARGET);
  console.log(JSON.stringify({ benchmark: 'idempotency', storage: postgres === null ? 'Memory' : 'Postgres', target: TARGET, met, ...summary }));
  if (!met) process.exitCode = 1;
} finally {
  await server.close();
  await postgres?.stop();
  await rm(work, { recursive: true, force: true });
}
