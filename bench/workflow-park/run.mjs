// Issue 37 (decision 3701, "Workflow runs park too"): what parking a workflow run that waits for a
// person costs at the wake and saves while it waits — on PostgreSQL (embedded, or BENCH_POSTGRES_URL).
// Run it in this tree and in a checkout of the build before (its own dist/, this bench/ copied in, as
// bench/ab.mjs does): there a Blocked run stays in memory on its instance and a decision reaches it as
// a message; here it leaves memory (Blocked, no lease, no slot) and a decision wakes it, after which it
// executes again from its checkpoints.
//
// 1. Approve → next step start: one `portcullis serve` (anonymous Development mode, the Default
//    envelope granting the clock Autonomous, its log at info read from its output). BENCH_RUNS (30,
//    after 3 warm-up runs) runs of the chain `gate` (HumanGate) → `after` (ToolUse clock now), one after
//    another. Each: start, poll until Blocked, wait BENCH_SETTLE_MS (100) and — on a build that parks,
//    found on the first warm-up run — until its storage record holds no lease (really parked), then
//    POST …/approvals/{approvalId} { decision: Approve }. Figures: the service's time from the
//    `approval.decided` audit line to the clock call's `tool.call.decided` line (both stamped by the
//    service), and the client's time from sending the decision to the run's `completedAt` (stamped with
//    the service's estimate of the database clock: a constant offset within one run) and to the poll
//    that first saw it Succeeded.
// 2. Parked run heap: BENCH_PARKED (500) runs, each of its own workflow (one live run per workflow),
//    parked on a gate one after another with Workflows:MaxConcurrentRuns 1 (a Blocked run that kept
//    its slot would stop the next from starting), then the service's V8 heap after a full GC, before
//    (definitions submitted, one run parked and rejected) and with all parked: KiB per parked run; and
//    the wall time from the first start to the last Blocked poll.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { UNLIMITED } from '../lib/harness.mjs';
import { call, until } from '../lib/json-calls.mjs';
import { serveLogged, startServer } from '../lib/processes.mjs';
import { settingsEnv } from '../lib/settings-env.mjs';
import { percentile, round, show, spread } from '../lib/stats.mjs';
import { benchPostgres } from '../storage/embedded-postgres.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 3;
const PARKED = Number(process.env.BENCH_PARKED ?? 500);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 100);
const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-workflow-park-'));
const database = await benchPostgres();
const db = new pg.Client({ connectionString: database.url });
await db.connect();

const ai = (maxConcurrentRuns) => ({
  RateLimits: UNLIMITED,
  BundleExecution: { Auth: { AllowAnonymous: true }, Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } } },
  Workflows: { MaxConcurrentRuns: maxConcurrentRuns, MaxActiveRunsPerOwner: 100_000, MaxDefinitionsPerOwner: PARKED + 100 },
});
const storage = (schema) => ({ Provider: 'Postgres', Postgres: { ConnectionString: database.url, Schema: schema } });

/** The chain `gate` (HumanGate) → `after` (ToolUse clock now), as test/integration/workflows-harness.ts builds it. */
const definition = (name) => ({
  name,
  steps: [
    { name: 'gate', type: 'HumanGate', configuration: { type: 'HumanGate', message: 'Proceed?' } },
    { name: 'after', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} } },
  ],
  edges: [{ from: 'gate', to: 'after' }],
});

/** The run's storage record: its state and lease holder (null: parked out of memory, when Blocked). */
async function record(schema, jobId) {
  const { rows } = await db.query(`SELECT state, lease_holder FROM ${schema}.records WHERE collection = 'workflow-run' AND id = $1`, [jobId]);
  return rows[0];
}
const leaseless = (row) => row?.state === 'Blocked' && row.lease_holder === null;
const blocked = (run) => run.status === 'Blocked' && run.pendingApprovals.length > 0;
const final = (run) => run.status === 'Succeeded' || run.status === 'Failed' || run.status === 'Cancelled';

/** `portcullis serve` with its log at info, the lines parsed as they come. */
function serve(schema) {
  const env = {
    PATH: process.env.PATH ?? '',
    PORTCULLIS_ENVIRONMENT: 'Development',
    AppConfig__Logging__Level: 'info',
    ...settingsEnv({ AppConfig: { AI: ai(32), Storage: storage(schema) } }),
  };
  return serveLogged(CLI, work, env);
}

const results = { benchmark: 'workflow-park', storage: 'Postgres' };
try {
  // 1. Approve → next step start.
  const schema = 'bench_workflow_park_latency';
  const server = await serve(schema);
  try {
    const { id: workflowId } = await call(server.url, 'POST', '/api/workflows', definition('park-latency'));
    let parks = false;
    let parkedAtDecision = 0;
    const serviceMs = [];
    const completedMs = [];
    const seenMs = [];
    for (let i = 0; i < RUNS + WARMUP; i += 1) {
      const { jobId, statusUrl } = await call(server.url, 'POST', `/api/workflows/${workflowId}/runs`);
      const run = await until(() => call(server.url, 'GET', statusUrl), blocked, 5);
      await sleep(SETTLE_MS);
      // The first run tells whether this build parks (its record loses its lease within 3 s).
      if (i === 0) {
        const started = Date.now();
        parks = leaseless(await until(() => record(schema, jobId), (row) => leaseless(row) || Date.now() - started > 3_000, 10));
      } else if (parks) {
        await until(() => record(schema, jobId), leaseless, 5);
      }
      const wasParked = leaseless(await record(schema, jobId));
      const approvalId = run.pendingApprovals[0].approvalId;
      const sent = Date.now();
      await call(server.url, 'POST', `${statusUrl}/approvals/${approvalId}`, { decision: 'Approve' });
      const done = await until(() => call(server.url, 'GET', statusUrl), final, 2);
      const seen = Date.now();
      if (done.status !== 'Succeeded') throw new Error(`run ended ${done.status}: ${done.error}`);
      const decided = await until(
        async () => server.lines.find((line) => line.event === 'approval.decided' && line.approvalId === approvalId),
        (line) => line !== undefined,
        5,
      );
      // The service writes its log in batches (every 4 KiB or 100 ms): wait for the clock call's line too.
      const toolLine = await until(
        async () => server.lines.find((line) => line.event === 'tool.call.decided' && line.surface === 'workflow' && line.tool === 'clock' && line.time >= decided.time),
        (line) => line !== undefined,
        5,
      );
      server.lines.length = 0;
      if (i < WARMUP) continue;
      if (wasParked) parkedAtDecision += 1;
      serviceMs.push(toolLine.time - decided.time);
      completedMs.push(Date.parse(done.completedAt) - sent);
      seenMs.push(seen - sent);
    }
    results.approveToNextStep = {
      runs: RUNS,
      settleMs: SETTLE_MS,
      parks,
      parkedAtDecision,
      serviceMs: { ...spread(serviceMs, 0), p95: percentile(serviceMs, 95) },
      decisionSentToCompletedAtMs: { ...spread(completedMs, 0), p95: percentile(completedMs, 95) },
      decisionSentToSucceededSeenMs: { ...spread(seenMs, 0), p95: percentile(seenMs, 95) },
    };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }

  // 2. What the parked runs keep in the heap.
  const parkedSchema = 'bench_workflow_park_heap';
  const parkedServer = await startServer(
    { kind: 'portcullis', environment: 'Development', settings: { AppConfig: { AI: ai(1), Storage: storage(parkedSchema) } } },
    { exposeGc: true },
  );
  try {
    const url = parkedServer.url;
    const workflows = [];
    for (let i = 0; i <= PARKED; i += 1) workflows.push((await call(url, 'POST', '/api/workflows', definition(`park-heap-${i}`))).id);
    // One run parked and rejected first, so lazy initialisation is not counted.
    const warm = await call(url, 'POST', `/api/workflows/${workflows[PARKED]}/runs`);
    const warmBlocked = await until(() => call(url, 'GET', warm.statusUrl), blocked, 5);
    await call(url, 'POST', `${warm.statusUrl}/approvals/${warmBlocked.pendingApprovals[0].approvalId}`, { decision: 'Reject' });
    await until(() => call(url, 'GET', warm.statusUrl), final, 5);
    await sleep(200);
    const before = await parkedServer.memory();
    const started = Date.now();
    for (let i = 0; i < PARKED; i += 1) {
      const { statusUrl } = await call(url, 'POST', `/api/workflows/${workflows[i]}/runs`);
      // With one slot, each run can only start once the one before it gave the slot back.
      await until(() => call(url, 'GET', statusUrl), blocked, 5);
    }
    const parkMs = Date.now() - started;
    // Until the count of records parked without a lease stops changing (all of them, on a build that parks).
    const countLeaseless = async () =>
      Number((await db.query(`SELECT count(*) AS n FROM ${parkedSchema}.records WHERE collection = 'workflow-run' AND state = 'Blocked' AND lease_holder IS NULL`)).rows[0].n);
    let leaselessCount = await countLeaseless();
    for (let steady = 0; leaselessCount < PARKED && steady < 10; ) {
      await sleep(100);
      const next = await countLeaseless();
      steady = next === leaselessCount ? steady + 1 : 0;
      leaselessCount = next;
    }
    const after = await parkedServer.memory();
    const perRunKiB = (after.heapUsed - before.heapUsed) / PARKED / 1024;
    results.parking = {
      parked: PARKED,
      slots: 1,
      parkedAllMs: parkMs,
      withoutLease: leaselessCount,
      heapBeforeMB: round(before.heapUsed / 1e6),
      heapParkedMB: round(after.heapUsed / 1e6),
      heapPerParkedRunKiB: round(perRunKiB, 2),
      rssBeforeMB: round(before.rss / 1e6),
      rssParkedMB: round(after.rss / 1e6),
    };
  } finally {
    await parkedServer.close();
  }

  const a = results.approveToNextStep;
  const p = results.parking;
  console.log(`\nworkflow-park (PostgreSQL): gate → after (clock now), ${a.runs} runs approved ${a.settleMs} ms after Blocked; parked out of memory at the decision: ${a.parkedAtDecision} of ${a.runs}`);
  console.log(`  approval.decided → tool.call.decided (service)   ${show(a.serviceMs, ' ms')}  p95 ${a.serviceMs.p95} ms`);
  console.log(`  decision sent → run completedAt (client)         ${show(a.decisionSentToCompletedAtMs, ' ms')}  p95 ${a.decisionSentToCompletedAtMs.p95} ms`);
  console.log(`  decision sent → poll sees Succeeded (client)     ${show(a.decisionSentToSucceededSeenMs, ' ms')}  p95 ${a.decisionSentToSucceededSeenMs.p95} ms`);
  console.log(`parking: ${p.parked} runs Blocked with one run slot in ${p.parkedAllMs} ms; ${p.withoutLease} of them without a lease (out of memory)`);
  console.log(`  heap ${p.heapBeforeMB} → ${p.heapParkedMB} MB: ${p.heapPerParkedRunKiB} KiB per parked run  (RSS ${p.rssBeforeMB} → ${p.rssParkedMB} MB)`);
  console.log(JSON.stringify(results));
} finally {
  await db.end();
  await database.stop();
  await rm(work, { recursive: true, force: true });
}
