// Per-operation latency of the storage port on embedded PostgreSQL versus the Memory provider:
// records.get, records.update, journal.commit (1 item + 1 event + a guarded record patch: one
// workflow step's checkpoint), rates.take, and a poll (rates.take then records.get, what a run poll
// asks of storage) both one at a time and with 16 in flight. Sequential calls, medians and p99 over
// BENCH_OPS calls after a warm-up. Postgres is measured twice on the same server: as configured
// (durable: every commit waits for its WAL flush) and with synchronous_commit=off set through the
// connection string, the operator's choice when a lost last instant of checkpoints after a database
// crash is acceptable. BENCH_POSTGRES_URL points it at an existing server instead of an embedded one.
import { performance } from 'node:perf_hooks';
import { systemClock } from '../../dist/src/platform/clock/index.js';
import { createMemoryStorage } from '../../dist/src/platform/storage/index.js';
import { createPostgresStorage } from '../../dist/src/platform/storage/postgres/create-postgres-storage.js';
import { startPostgres } from './embedded-postgres.mjs';

const OPS = Number(process.env.BENCH_OPS ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = 16;
const silent = { info: () => undefined, warn: () => undefined };
const payload = {
  status: 'Running',
  input: { question: 'What changed in the quarterly report?', options: { depth: 2, cite: true } },
  steps: Array.from({ length: 8 }, (_, i) => ({ name: `step-${i}`, status: 'Succeeded', startedAt: 1_767_225_600_000 + i, output: 'x'.repeat(60) })),
};

async function latency(op) {
  for (let i = 0; i < Math.min(200, OPS); i += 1) await op(i);
  const samples = new Float64Array(OPS);
  for (let i = 0; i < OPS; i += 1) {
    const started = performance.now();
    await op(i);
    samples[i] = performance.now() - started;
  }
  samples.sort();
  const at = (q) => samples[Math.min(OPS - 1, Math.floor(q * OPS))];
  return { medianUs: Math.round(at(0.5) * 1000), p99Us: Math.round(at(0.99) * 1000) };
}

async function throughput(op) {
  let done = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let i = worker; performance.now() < until; i += CONCURRENCY) {
        await op(i);
        done += 1;
      }
    }),
  );
  return { opsPerSecond: Math.round(done / SECONDS) };
}

async function measure(storage) {
  const owner = 'oid:bench-owner';
  const record = { collection: 'bench', ownerId: owner, id: 'r1' };
  const run = { collection: 'bench-run', ownerId: owner, id: 'run1' };
  await storage.records.put({ ...record, state: 'Running', createdAt: systemClock.now(), data: payload });
  await storage.records.put({ ...run, state: 'Running', createdAt: systemClock.now(), data: payload });
  const poll = async (i) => {
    await storage.rates.take('bundles-poll', `${owner}-${i % 1_000}`, 1_000_000);
    await storage.records.get(record);
  };
  return {
    'records.get': await latency(() => storage.records.get(record)),
    'records.update': await latency((i) => storage.records.update(record, { data: { ...payload, n: i } })),
    'journal.commit': await latency((i) =>
      storage.journal.commit(run, {
        items: [{ key: `step-${i % 500}`, data: { status: 'Succeeded', output: 'x'.repeat(60) } }],
        events: [{ type: 'STEP_FINISHED', step: `step-${i % 500}` }],
        record: { patch: { data: { ...payload, n: i } }, guard: { states: ['Running'] } },
      }),
    ),
    'rates.take': await latency((i) => storage.rates.take('bundles-poll', `${owner}-${i % 1_000}`, 1_000_000)),
    poll: await latency(poll),
    [`poll, ${CONCURRENCY} in flight`]: await throughput(poll),
  };
}

const external = process.env.BENCH_POSTGRES_URL;
const server = external === undefined ? await startPostgres() : undefined;
const url = external ?? server.url;
const open = (connectionString) =>
  createPostgresStorage({ clock: systemClock, connectionString, schema: `bench_${process.pid}`, maxConnections: 10, log: silent });
const sides = {
  Memory: createMemoryStorage({ clock: systemClock }),
  Postgres: await open(url),
  'Postgres, synchronous_commit=off': await open(`${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c synchronous_commit=off')}`),
};
try {
  const results = {};
  for (const [side, storage] of Object.entries(sides)) results[side] = await measure(storage);
  const show = (r) => (r.opsPerSecond !== undefined ? `${r.opsPerSecond} ops/s` : `${r.medianUs} µs (p99 ${r.p99Us})`);
  const table = [`| operation | ${Object.keys(sides).join(' | ')} |`, `|---|${Object.keys(sides).map(() => '---|').join('')}`];
  for (const op of Object.keys(results.Memory)) table.push(`| ${op} | ${Object.keys(sides).map((side) => show(results[side][op])).join(' | ')} |`);
  console.log(JSON.stringify({ benchmark: 'storage', ops: OPS, results }, null, 2));
  console.log(table.join('\n'));
} finally {
  for (const storage of Object.values(sides)) await storage.close();
  await server?.stop();
}
