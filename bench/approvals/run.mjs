// Issue 23: what a supervised tool call costs once a person approves it, and what a parked run costs
// while it waits — on PostgreSQL (embedded, or BENCH_POSTGRES_URL).
//
// 1. Approve to tool start: one `portcullis serve` (anonymous Development mode, approvals on, the
//    Default envelope Supervised, the Scripted model, its log at info read from its output). BENCH_RUNS
//    bundle runs (30) each ask for `clock now` and park; each approval is decided through
//    POST /api/approvals/{id}/decision. The figure is the time from the `approval.decided` audit line to
//    the call's `tool.call.decided` line (written just before the tool runs), both stamped by the service;
//    beside it, the client's time from sending the decision to the run's `completedAt`. Target: p95 under
//    250 ms.
// 2. Parking: BENCH_PARKED runs (500) parked one after another with ONE dispatch slot
//    (MaxConcurrentDispatchedBundleRuns 1: a parked run that kept its slot would stop the next one from
//    ever starting), then the service's V8 heap after a full GC, before and with all parked. Target:
//    under 64 KiB per parked run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register, smallBundle } from '../lib/bundles.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { serveLogged, startServer } from '../lib/processes.mjs';
import { percentile, round, show, spread } from '../lib/stats.mjs';
import { benchPostgres } from '../storage/embedded-postgres.mjs';
import { call, until } from '../lib/json-calls.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PARKED = Number(process.env.BENCH_PARKED ?? 500);
const TARGET_P95_MS = 250;
const TARGET_PARKED_KIB = 64;
const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-approvals-'));
const database = await benchPostgres();

const ai = (schema) => ({
  RateLimits: UNLIMITED,
  ChatModel: { Provider: 'Scripted' },
  Approvals: { Enabled: true },
  BundleExecution: {
    Enabled: true,
    TempRoot: join(work, `staging-${schema}`),
    Auth: { AllowAnonymous: true },
    MaxActiveBundleRunsPerOwner: 100_000,
    MaxConcurrentDispatchedBundleRuns: 1,
    Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Supervised' } },
  },
});
const storage = (schema) => ({ Provider: 'Postgres', Postgres: { ConnectionString: database.url, Schema: schema } });

/** `portcullis serve` with its log at info, the lines parsed as they come. */
function serve(schema) {
  const env = { PATH: process.env.PATH ?? '', PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__Logging__Level: 'info' };
  const flatten = (prefix, value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.entries(value).forEach(([key, inner]) => flatten(`${prefix}__${key}`, inner))
      : Array.isArray(value)
        ? value.forEach((inner, index) => flatten(`${prefix}__${index}`, inner))
        : (env[prefix] = String(value));
  flatten('AppConfig__AI', ai(schema));
  flatten('AppConfig__Storage', storage(schema));
  return serveLogged(CLI, work, env);
}

const results = { benchmark: 'approvals', storage: 'Postgres' };
try {
  // 1. Approve to tool start.
  const server = await serve('bench_approvals_latency');
  try {
    const handle = await register(server.url, await smallBundle(work));
    const serviceMs = [];
    const clientMs = [];
    for (let i = 0; i < RUNS + 3; i += 1) {
      const { statusUrl } = await call(server.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['call clock now'] });
      const parked = await until(() => call(server.url, 'GET', statusUrl), (run) => run.pendingApprovals !== undefined, 5);
      const approvalId = parked.pendingApprovals[0].approvalId;
      const sent = Date.now();
      await call(server.url, 'POST', `/api/approvals/${approvalId}/decision`, { decision: 'Approve' });
      const done = await until(() => call(server.url, 'GET', statusUrl), (run) => run.status === 'Succeeded' || run.status === 'Failed', 5);
      if (done.status !== 'Succeeded') throw new Error(`run ended ${done.status}`);
      const decided = await until(
        async () => server.lines.find((line) => line.event === 'approval.decided' && line.approvalId === approvalId),
        (line) => line !== undefined,
        5,
      );
      // The service writes its log in batches (every 4 KiB or 100 ms): wait for the tool's line too.
      const toolLine = await until(
        async () => server.lines.find((line) => line.event === 'tool.call.decided' && line.time >= decided.time && /approved by/.test(line.reason)),
        (line) => line !== undefined,
        5,
      );
      server.lines.length = 0;
      if (i < 3) continue; // warm-up
      serviceMs.push(toolLine.time - decided.time);
      clientMs.push(Date.parse(done.completedAt) - sent);
    }
    results.approveToToolStart = {
      runs: RUNS,
      serviceMs: { ...spread(serviceMs, 0), p95: percentile(serviceMs, 95) },
      decisionSentToRunCompletedMs: { ...spread(clientMs, 0), p95: percentile(clientMs, 95) },
      targetP95Ms: TARGET_P95_MS,
      met: percentile(serviceMs, 95) < TARGET_P95_MS,
    };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }

  // 2. What a parked run costs while it waits.
  const parkedServer = await startServer(
    { kind: 'portcullis', environment: 'Development', settings: { AppConfig: { AI: ai('bench_approvals_parked'), Storage: storage('bench_approvals_parked') } } },
    { exposeGc: true },
  );
  try {
    const handle = await register(parkedServer.url, await smallBundle(work));
    // One run parked and decided first, so lazy initialisation is not counted.
    const warm = await call(parkedServer.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['call clock now'] });
    const warmParked = await until(() => call(parkedServer.url, 'GET', warm.statusUrl), (run) => run.pendingApprovals !== undefined, 5);
    await call(parkedServer.url, 'POST', `/api/approvals/${warmParked.pendingApprovals[0].approvalId}/decision`, { decision: 'Reject' });
    await until(() => call(parkedServer.url, 'GET', warm.statusUrl), (run) => run.status === 'Succeeded', 5);
    const before = await parkedServer.memory();
    const started = Date.now();
    for (let i = 0; i < PARKED; i += 1) {
      const { statusUrl } = await call(parkedServer.url, 'POST', `/api/bundles/${handle}/runs`, { userMessages: ['call clock now'] });
      // With one slot, each run can only start once the one before it parked and gave the slot back.
      await until(() => call(parkedServer.url, 'GET', statusUrl), (run) => run.pendingApprovals !== undefined, 5);
    }
    const parkMs = Date.now() - started;
    const after = await parkedServer.memory();
    const pending = await call(parkedServer.url, 'GET', '/api/approvals?limit=200');
    const perRunKiB = (after.heapUsed - before.heapUsed) / PARKED / 1024;
    results.parking = {
      parked: PARKED,
      slots: 1,
      parkedAllMs: parkMs,
      pendingListed: pending.approvals.length,
      heapBeforeMB: round(before.heapUsed / 1e6),
      heapParkedMB: round(after.heapUsed / 1e6),
      heapPerParkedRunKiB: round(perRunKiB, 2),
      targetKiB: TARGET_PARKED_KIB,
      met: perRunKiB < TARGET_PARKED_KIB,
    };
  } finally {
    await parkedServer.close();
  }

  const a = results.approveToToolStart;
  const p = results.parking;
  console.log(`\napprovals (PostgreSQL): a supervised call once approved, ${a.runs} runs`);
  console.log(`  approval.decided → tool.call.decided (service)   ${show(a.serviceMs, ' ms')}  p95 ${a.serviceMs.p95} ms  target < ${TARGET_P95_MS} ms  ${a.met ? 'MET' : 'NOT MET'}`);
  console.log(`  decision sent → run completedAt (client)         ${show(a.decisionSentToRunCompletedMs, ' ms')}  p95 ${a.decisionSentToRunCompletedMs.p95} ms`);
  console.log(`parking: ${p.parked} runs parked with one dispatch slot in ${p.parkedAllMs} ms`);
  console.log(`  heap ${p.heapBeforeMB} → ${p.heapParkedMB} MB: ${p.heapPerParkedRunKiB} KiB per parked run  target < ${TARGET_PARKED_KIB} KiB  ${p.met ? 'MET' : 'NOT MET'}`);
  console.log(JSON.stringify(results));
  if (!a.met || !p.met) process.exitCode = 1;
} finally {
  await database.stop();
  await rm(work, { recursive: true, force: true });
}
