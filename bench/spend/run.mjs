// Issue 25: what the spend-limit check (DESIGN §16) costs per model call, on PostgreSQL (embedded, its
// durable defaults; BENCH_POSTGRES_URL for another server).
//
// 1. Served. Four services built as `portcullis serve` builds them from dist/, each in its own process
//    and its own schema of the one PostgreSQL, the Scripted model, anonymous Development mode. Each runs
//    a workflow of BENCH_CALLS (100) LlmCall steps, one model call each, started over HTTP. Rounds
//    alternate over the sides (A B C D, D C B A, …): BENCH_ROUNDS (30) rounds of BENCH_RUNS_PER_ROUND
//    runs (2) per side, after BENCH_WARMUP runs (2) per side that are not counted.
//      budget   (A) the Default envelope's Budget set (MaxUsdPerRun, PerDay, PerMonth at $1,000,000:
//               never reached) and ChatModel:Pricing $1 per million tokens each way: before each call
//               the owner's run, day and month totals are read (`SpendLedger.allows`), after it one
//               upsert adds the call's cost (`record`)
//      counted  (B) the same pricing, no Budget: every call still counted (the upsert), nothing read
//      free     (C) no pricing, no Budget: nothing read or written
//      checked  (D) the Budget, no pricing: the read before each call, nothing written (the check
//               alone, without the count's WAL flush beside it)
//    Per call = a run's completedAt − startedAt ÷ calls; median, min..max and p95 over the counted
//    runs, and the service's CPU time per call. A − B is the check per call (the figure), A − C
//    the check and the count, D − C the check where nothing is written; each also as the median of the
//    rounds' own differences (same moment of the machine). After the services close, PostgreSQL's
//    table statistics give the run-record writes per call: the workflow's checkpoints are group
//    commits, so how many a run writes depends on how long its steps wait on the database.
// 2. In process. `SpendLedger` from dist/ on the same PostgreSQL (its own schema), called as the
//    metered model calls it: BENCH_LEDGER_CALLS (5,000) times `allows` then `record`, each timed, after
//    200 not counted; p50, p95 and p99 of the check, the count and both. Target: the check's p95 < 1 ms.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { chainDefinition, startChainServer } from '../lib/chain.mjs';
import { call, until } from '../lib/json-calls.mjs';
import { alternate, median, percentile, round, spread } from '../lib/stats.mjs';
import { benchPostgres } from '../storage/embedded-postgres.mjs';
import { systemClock } from '../../dist/src/platform/clock/index.js';
import { createPostgresStorage } from '../../dist/src/platform/storage/postgres/create-postgres-storage.js';
import { SpendLedger } from '../../dist/src/platform/spend/index.js';
import { NO_BUDGET } from '../../dist/src/platform/envelope/index.js';
import { ServiceMetrics } from '../../dist/src/platform/metrics/index.js';
import { NO_AUDIT } from '../../dist/src/platform/audit/index.js';
import { NO_EVENT_OUTBOX } from '../../dist/src/platform/outbox/index.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const RUNS_PER_ROUND = Number(process.env.BENCH_RUNS_PER_ROUND ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const LEDGER_CALLS = Number(process.env.BENCH_LEDGER_CALLS ?? 5_000);
const LEDGER_WARMUP = 200;
const TARGET_P95_US = 1_000;
const NEVER_REACHED = 1_000_000;
const PRICING = { InputPerMillionTokens: 1, OutputPerMillionTokens: 1 };
const BUDGET = { MaxUsdPerRun: NEVER_REACHED, MaxUsdPerDay: NEVER_REACHED, MaxUsdPerMonth: NEVER_REACHED };
const priced = { ChatModel: { Provider: 'Scripted', Pricing: PRICING } };
const unpriced = { ChatModel: { Provider: 'Scripted' } };
const sides = {
  budget: { ai: priced, envelope: { Budget: BUDGET } },
  counted: { ai: priced },
  free: { ai: unpriced },
  checked: { ai: unpriced, envelope: { Budget: BUDGET } },
};
const schemaOf = (side) => `bench_spend_${side}`;

const database = await benchPostgres();
const servers = {};
const results = { benchmark: 'spend', storage: 'Postgres', calls: CALLS, rounds: ROUNDS, runsPerRound: RUNS_PER_ROUND, loadAverageAtStart: loadavg().map((l) => round(l, 2)) };

/** One workflow run on `server`; its wall time and the service's CPU time, per call. */
async function runOnce(server, workflowId, expectedMs) {
  const cpuBefore = await server.cpu();
  const { statusUrl } = await call(server.url, 'POST', `/api/workflows/${workflowId}/runs`);
  // Polled only about when it should be done, so polls add little to the service's work.
  await sleep(expectedMs * 0.9);
  const run = await until(() => call(server.url, 'GET', statusUrl), (body) => body.status !== 'Queued' && body.status !== 'Running', 10);
  const cpuAfter = await server.cpu();
  if (run.status !== 'Succeeded') throw new Error(`run ended ${run.status}: ${JSON.stringify(run).slice(0, 500)}`);
  const ms = Date.parse(run.completedAt) - Date.parse(run.startedAt);
  return { ms, perCallUs: (ms * 1000) / CALLS, cpuPerCallUs: (cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / CALLS };
}

/** Run-record writes per call on each side's schema (statistics are flushed as the services' connections close). */
async function recordWritesPerCall(runsPerSide) {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT schemaname, n_tup_upd FROM pg_stat_user_tables WHERE relname = 'records' AND schemaname = ANY($1::text[])", [Object.keys(sides).map(schemaOf)]);
    return Object.fromEntries(Object.keys(sides).map((side) => [side, round(Number(rows.find((row) => row.schemaname === schemaOf(side))?.n_tup_upd ?? Number.NaN) / (runsPerSide * CALLS), 2)]));
  } finally {
    await client.end();
  }
}

/** SpendLedger in process: each call's `allows` then `record` timed, and `allows` on an account with no limit. */
async function measureLedger() {
  const storage = await createPostgresStorage({ clock: systemClock, connectionString: database.url, schema: schemaOf('ledger'), maxConnections: 10, log: { info: () => undefined, warn: () => undefined } });
  try {
    const ledger = new SpendLedger({
      counters: storage.spend,
      records: storage.records,
      clock: storage.clock,
      pricing: { inputPerMillionTokens: PRICING.InputPerMillionTokens, outputPerMillionTokens: PRICING.OutputPerMillionTokens },
      spendUsd: new ServiceMetrics({ enabled: true }).spendUsd,
      audit: NO_AUDIT,
      events: NO_EVENT_OUTBOX,
    });
    const budget = { maxUsdPerRun: NEVER_REACHED, maxUsdPerDay: NEVER_REACHED, maxUsdPerMonth: NEVER_REACHED };
    // A run's CALLS model calls share its run total, as in the served workflow.
    const account = (i, limits) => ({ ownerId: 'oid:bench-spend', family: 'workflow', runId: `bench-run-${Math.floor(i / CALLS)}`, budget: limits });
    // About what the Scripted model reports for one of the served workflow's steps.
    const usage = { inputTokens: 1, outputTokens: 4 };
    const check = [];
    const count = [];
    const unlimited = [];
    for (let i = 0; i < LEDGER_WARMUP + LEDGER_CALLS; i += 1) {
      const limited = account(i, budget);
      const t0 = performance.now();
      if (!(await ledger.allows(limited))) throw new Error('the ledger refused a call under a limit that is never reached');
      const t1 = performance.now();
      await ledger.record(limited, usage, 'scripted');
      const t2 = performance.now();
      await ledger.allows(account(i, NO_BUDGET));
      const t3 = performance.now();
      if (i < LEDGER_WARMUP) continue;
      check.push(t1 - t0);
      count.push(t2 - t1);
      unlimited.push(t3 - t2);
    }
    const figures = (values) => ({
      p50Us: round(percentile(values, 50) * 1000, 0),
      p95Us: round(percentile(values, 95) * 1000, 0),
      p99Us: round(percentile(values, 99) * 1000, 0),
      maxUs: round(Math.max(...values) * 1000, 0),
    });
    return {
      calls: LEDGER_CALLS,
      check: figures(check),
      count: figures(count),
      checkAndCount: figures(check.map((value, i) => value + count[i])),
      checkWithoutLimits: figures(unlimited),
      targetP95Us: TARGET_P95_US,
    };
  } finally {
    await storage.close();
  }
}

try {
  // 1. Served.
  const workflows = {};
  const expectedMs = {};
  for (const [side, settings] of Object.entries(sides)) {
    servers[side] = await startChainServer(CALLS, { Provider: 'Postgres', Postgres: { ConnectionString: database.url, Schema: schemaOf(side) } }, settings);
    workflows[side] = (await call(servers[side].url, 'POST', '/api/workflows', chainDefinition(CALLS, { type: 'LlmCall', prompt: 'go' }))).id;
    for (let i = 0; i < WARMUP; i += 1) expectedMs[side] = (await runOnce(servers[side], workflows[side], expectedMs[side] ?? 0)).ms;
  }
  const samples = await alternate(Object.keys(sides), ROUNDS, async (side) => {
    const runs = [];
    for (let i = 0; i < RUNS_PER_ROUND; i += 1) {
      const run = await runOnce(servers[side], workflows[side], expectedMs[side]);
      expectedMs[side] = run.ms;
      runs.push(run);
    }
    return runs;
  });
  const served = {};
  for (const [side, rounds] of Object.entries(samples)) {
    const perCall = rounds.flat().map((run) => run.perCallUs);
    served[side] = {
      perCallUs: { ...spread(perCall, 0), p95: round(percentile(perCall, 95), 0) },
      roundMediansUs: rounds.map((runs) => median(runs.map((run) => run.perCallUs))),
      cpuPerCallUs: spread(rounds.flat().map((run) => run.cpuPerCallUs), 0),
    };
  }
  const difference = (a, b) => ({
    medianUs: served[a].perCallUs.median - served[b].perCallUs.median,
    p95Us: served[a].perCallUs.p95 - served[b].perCallUs.p95,
    // The rounds' own differences: each pair measured at the same moment of the machine.
    perRoundUs: spread(
      served[a].roundMediansUs.map((m, i) => m - served[b].roundMediansUs[i]),
      0,
    ),
    cpuUs: served[a].cpuPerCallUs.median - served[b].cpuPerCallUs.median,
  });
  results.served = { ...served, check: difference('budget', 'counted'), checkAndCount: difference('budget', 'free'), checkAlone: difference('checked', 'free') };
  for (const side of Object.keys(sides)) {
    await servers[side].close();
    delete servers[side];
  }
  results.served.recordWritesPerCall = await recordWritesPerCall(WARMUP + ROUNDS * RUNS_PER_ROUND);

  // 2. In process: the ledger itself against the same PostgreSQL.
  results.ledger = await measureLedger();
  results.met = results.ledger.check.p95Us < TARGET_P95_US;
  results.loadAverageAtEnd = loadavg().map((l) => round(l, 2));

  const s = results.served;
  const l = results.ledger;
  console.log(`\nspend (PostgreSQL): a workflow of ${CALLS} LlmCall steps (Scripted model), ${ROUNDS} alternated rounds × ${RUNS_PER_ROUND} runs per side; run wall ÷ calls, median (min..max)`);
  for (const side of Object.keys(sides)) {
    const f = s[side].perCallUs;
    const figures = `${f.median} µs (${f.min}..${f.max}), p95 ${f.p95}`.padEnd(34);
    console.log(`  ${side.padEnd(9)} ${figures} service CPU ${String(s[side].cpuPerCallUs.median).padStart(5)} µs/call, run-record writes ${s.recordWritesPerCall[side]}/call`);
  }
  const diff = (d) => `median ${d.medianUs} µs, p95 ${d.p95Us} µs; rounds' own ${d.perRoundUs.median} µs (${d.perRoundUs.min}..${d.perRoundUs.max}); service CPU ${d.cpuUs} µs`;
  console.log(`  budget − counted: the check per call            ${diff(s.check)}`);
  console.log(`  budget − free: check + count per call           ${diff(s.checkAndCount)}`);
  console.log(`  checked − free: the check, nothing written      ${diff(s.checkAlone)}`);
  const row = (f) => `p50 ${f.p50Us}  p95 ${f.p95Us}  p99 ${f.p99Us}  max ${f.maxUs} µs`;
  console.log(`SpendLedger in process on the same PostgreSQL, ${l.calls} calls`);
  console.log(`  allows, run/day/month limits set (one read)     ${row(l.check)}  target p95 < ${TARGET_P95_US} µs  ${results.met ? 'MET' : 'NOT MET'}`);
  console.log(`  record (one upsert of three totals)             ${row(l.count)}`);
  console.log(`  allows + record                                 ${row(l.checkAndCount)}`);
  console.log(`  allows, no limit set (no query)                 ${row(l.checkWithoutLimits)}`);
  console.log(`  load average at start ${results.loadAverageAtStart.join(' ')}, at end ${results.loadAverageAtEnd.join(' ')}`);
  console.log(JSON.stringify(results));
  if (!results.met) process.exitCode = 1;
} finally {
  for (const server of Object.values(servers)) await server.close();
  await database.stop();
}
