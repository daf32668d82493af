// Issue 28: what one operation costs the database as instances are added. One embedded PostgreSQL
// (durable defaults, pg_stat_statements preloaded); for each N, N `portcullis serve` processes from
// dist/ on it (their own fresh schema per N, migrated first with `portcullis migrate`), Production
// settings, JWT auth through the dev identity provider, the fake OpenAI-compatible model, every rate
// limit and concurrency cap raised out of the way. Each workload gets a warm-up, then a measured
// window; requests go round-robin over the N instances.
//
//   idle                 no load, 20 live bundle handles: what the instances execute on their own (per second)
//   bundle run poll      GET a finished bundle run, 20 callers (each its own token, handle and run)
//   workflow poll        GET a finished workflow run, then GET a live one (Blocked on a human gate; cancelled
//                        after): what a poll costs, to tell a run's polls from the run
//   3-step workflow      ToolUse (clock) → LlmCall → ToolUse (clock): one worker per caller starts a run
//                        and polls it until it ends (workflow-load.mjs); a run that ends otherwise than
//                        Succeeded is a failure, not an operation
//
// Per operation: statements (pg_stat_statements, the measured database only, utility statements such as
// BEGIN/COMMIT included; the service sends none today, so each statement is its own transaction) and WAL
// bytes, PostgreSQL CPU (postmaster and every backend and worker, /proc) and the instances' CPU; and the
// busiest statements. Statements and WAL per operation do not depend on the machine, CPU per operation
// little (it moves with contention); throughput on this 2-core machine does.
// BENCH_LOG_LEVEL=warn BENCH_SERVER_LOG=inherit shows the instances' warnings.
//
// Before and after in one run, on one database: `--trees DIR,DIR` (checkouts built with `npm run
// build`; `.` is this one) runs every N for each tree in turn, `--rounds R` times over, each tree on
// its own fresh schema migrated by its own CLI; `--points workflow` measures the 3-step run alone
// (its "statements without the polls" then needs the poll points).
//
// node bench/scale/run.mjs [--n 1,2] [--seconds 10] [--warmup 3] [--idle-seconds 10] [--concurrency 16]
//                          [--trees .,../before] [--rounds 1] [--points idle,bundle-poll,workflow-poll,workflow]
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { finishedRunCallers, smallBundle } from '../lib/bundles.mjs';
import { autocannonRun, rotating } from '../lib/compare.mjs';
import { startFakeModel } from '../lib/fake-model.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { statementCounter } from '../lib/pg-statements.mjs';
import { postmasterPid, treeCpuMs } from '../lib/process-tree-cpu.mjs';
import { serveCli } from '../lib/serve-cli.mjs';
import { settingsEnv } from '../lib/settings-env.mjs';
import { round } from '../lib/stats.mjs';
import { startPostgres } from '../storage/embedded-postgres.mjs';
import { figures, printPoint, topStatements, workflowExtra } from './report.mjs';
import { startWorkflowLoad } from './workflow-load.mjs';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '1,2' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    'idle-seconds': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    trees: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '1' },
    points: { type: 'string', default: 'idle,bundle-poll,workflow-poll,workflow' },
  },
});
const HERE = fileURLToPath(new URL('../..', import.meta.url));
const TREES = args.trees.split(',').map((tree) => ({ label: tree, cli: resolve(tree === '.' ? HERE : tree, 'dist/src/cli/main.js') }));
const ROUNDS = Number(args.rounds);
const POINTS = new Set(args.points.split(','));
for (const point of POINTS) if (!['idle', 'bundle-poll', 'workflow-poll', 'workflow'].includes(point)) throw new Error(`--points: no point ${point}`);
const COUNTS = args.n.split(',').map(Number);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const IDLE_SECONDS = Number(args['idle-seconds']);
const CONCURRENCY = Number(args.concurrency);
const POLL_CALLERS = 20;
const CAP = 100_000; // the largest a concurrency cap may be (DESIGN §2)
const DATABASE = 'portcullis_scale';

const STEP_CLOCK = { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} };
const DEFINITION = {
  name: 'scale-three-steps',
  steps: [
    { name: 'before', type: 'ToolUse', configuration: STEP_CLOCK },
    { name: 'ask', type: 'LlmCall', configuration: { type: 'LlmCall', prompt: 'Answer in one word.' } },
    { name: 'after', type: 'ToolUse', configuration: STEP_CLOCK },
  ],
  edges: [
    { from: 'before', to: 'ask' },
    { from: 'ask', to: 'after' },
  ],
};

const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-scale-'));
const database = await startPostgres({ flags: ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track_utility=on'] });
const monitor = new pg.Client({ connectionString: database.url });
await monitor.connect();
await monitor.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
await monitor.query(`CREATE DATABASE ${DATABASE}`);
const counter = await statementCounter(monitor, DATABASE);
const postmaster = postmasterPid(database.dataDir);
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const model = await startFakeModel();
model.pace(1, 1);
const bundle = await smallBundle(work);
const token = (sub) => idp.mintToken({ sub }, { ttlSeconds: 3600 }).then((jwt) => ({ authorization: `Bearer ${jwt}` }));

/** Production settings with every limit out of the way; `schema` keeps each N's state apart. */
const settings = (schema) => ({
  AppConfig: {
    Storage: { Provider: 'Postgres', Postgres: { ConnectionString: database.url.replace(/\/postgres$/, `/${DATABASE}`), Schema: schema } },
    Http: { MaxConnections: CAP, MaxConnectionsPerAddress: CAP },
    AI: {
      RateLimits: UNLIMITED,
      ChatModel: { Provider: 'OpenAI', Endpoint: `${model.url}/v1`, Model: 'bench', ApiKey: 'bench-key' },
      BundleExecution: {
        Enabled: true,
        MaxActiveBundleRunsPerOwner: CAP,
        MaxConcurrentDispatchedBundleRuns: CAP,
        MaxConcurrentStreamsPerCaller: CAP,
        Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } },
        Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false },
      },
      DirectToolInvocation: { MaxConcurrentPerCaller: CAP },
      Workflows: { MaxActiveRunsPerOwner: CAP, MaxConcurrentRuns: CAP, MaxConcurrentProgressStreams: CAP, MaxProgressStreamsPerOwner: CAP },
    },
  },
});

/** Runs `drive` (resolving with its operation count, or { ops, … }) inside one measured window. */
async function measure(drive) {
  const loadBefore = loadavg()[0];
  await counter.begin();
  const db0 = treeCpuMs(postmaster);
  const service0 = treeCpuMs(instancePids);
  const started = performance.now();
  const outcome = await drive();
  const seconds = (performance.now() - started) / 1000;
  const dbCpuMs = treeCpuMs(postmaster) - db0;
  const serviceCpuMs = treeCpuMs(instancePids) - service0;
  const db = await counter.end();
  const ops = typeof outcome === 'number' ? outcome : outcome.ops;
  return { ops, seconds, db, dbCpuMs, serviceCpuMs, outcome, loadAverage: [round(loadBefore, 2), round(loadavg()[0], 2)] };
}

/** An autocannon window over every instance; every answer must be a 200. */
async function pollWindow(urls, callers, seconds) {
  const result = await autocannonRun({ url: urls, connections: CONCURRENCY, duration: seconds, requests: rotating(callers) });
  const codes = Object.keys(result.statusCodeStats);
  if (result.errors > 0 || result.timeouts > 0 || codes.some((code) => code !== '200')) {
    throw new Error(`polls answered ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors, ${result.timeouts} timeouts: the figures are not valid`);
  }
  return result.statusCodeStats['200']?.count ?? 0;
}

async function jsonRequest(url, method, path, headers, body) {
  const res = await fetch(`${url}${path}`, { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const GATED = {
  name: 'scale-gate',
  steps: [{ name: 'gate', type: 'HumanGate', configuration: { type: 'HumanGate', message: 'Go?' } }],
  edges: [],
};

/** A run of the caller's gated workflow, Blocked on its gate: `{ path, headers }` of its status URL. */
async function blockedRun(url, { headers }) {
  const { id } = await jsonRequest(url, 'POST', '/api/workflows', headers, GATED);
  const { statusUrl } = await jsonRequest(url, 'POST', `/api/workflows/${id}/runs`, headers);
  for (;;) {
    const run = await jsonRequest(url, 'GET', statusUrl, headers);
    if (run.status === 'Blocked') return { headers, path: statusUrl };
    if (!['Queued', 'Running'].includes(run.status)) throw new Error(`the gated run ended ${run.status}: ${run.error}`);
    await sleep(20);
  }
}

/** A caller with its own definition and one finished (Succeeded) run of it. */
async function workflowCaller(url, i) {
  const headers = await token(`scale-workflow-${i}`);
  const { id } = await jsonRequest(url, 'POST', '/api/workflows', headers, DEFINITION);
  const { statusUrl } = await jsonRequest(url, 'POST', `/api/workflows/${id}/runs`, headers);
  for (;;) {
    const run = await jsonRequest(url, 'GET', statusUrl, headers);
    if (run.status === 'Succeeded') return { headers, workflowId: id, path: statusUrl };
    if (!['Queued', 'Running'].includes(run.status)) throw new Error(`the set-up run ended ${run.status}: ${run.error}`);
    await sleep(20);
  }
}

let instancePids = [];
const results = [];
try {
  const passes = Array.from({ length: ROUNDS }, (_, round) => COUNTS.flatMap((n) => TREES.map((tree) => ({ n, tree, round })))).flat();
  for (const { n, tree, round: pass } of passes) {
    const CLI = tree.cli;
    const schema = `scale_n${n}_${TREES.indexOf(tree)}_${pass}`;
    const env = { PATH: process.env.PATH ?? '', PORTCULLIS_ENVIRONMENT: 'Production', ...settingsEnv(settings(schema)) };
    // BENCH_LOG_LEVEL=warn with BENCH_SERVER_LOG=inherit: the instances' warnings, for diagnosis (Production's level otherwise).
    if (process.env.BENCH_LOG_LEVEL) env.AppConfig__Logging__Level = process.env.BENCH_LOG_LEVEL;
    const migrated = spawnSync(process.execPath, [CLI, 'migrate'], { cwd: work, env, encoding: 'utf8' });
    if (migrated.status !== 0) throw new Error(`migrate exited ${migrated.status}: ${migrated.stderr}`);
    const instances = [];
    try {
      for (let i = 0; i < n; i += 1) {
        instances.push(await serveCli({ cwd: work, cli: CLI, env: { ...env, AppConfig__AI__BundleExecution__TempRoot: join(work, `staging-${n}-${i}`) } }));
      }
      instancePids = instances.map((instance) => instance.child.pid);
      const urls = instances.map((instance) => instance.url);
      // Set-up through the first instance: 20 handles with a finished run each, CONCURRENCY workflow callers.
      const pollCallers = await finishedRunCallers(urls[0], idp, bundle, POLL_CALLERS);
      const workflowCallers = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => workflowCaller(urls[i % n], i)));
      await sleep(2000); // what set-up started has settled

      const point = { n, tree: tree.label, round: pass + 1, loadAverageAtStart: round(loadavg()[0], 2) };
      const which = TREES.length === 1 && ROUNDS === 1 ? '' : ` [tree ${tree.label}, round ${pass + 1}]`;
      console.log(`\nscale${which}: N = ${n} instance${n === 1 ? '' : 's'} on one PostgreSQL (${counter.perStatement ? 'pg_stat_statements' : 'pg_stat_database only'}), ${SECONDS} s per point after ${WARMUP} s of warm-up, concurrency ${CONCURRENCY}`);

      let idle, poll, workflowPoll, livePoll;
      if (POINTS.has('idle')) {
        idle = await measure(() => sleep(IDLE_SECONDS * 1000).then(() => IDLE_SECONDS));
        idle.ops = idle.seconds; // per second
        printPoint(`idle (${POLL_CALLERS} live handles)`, idle, schema, 's');
      }

      if (POINTS.has('bundle-poll')) {
        await pollWindow(urls, pollCallers, WARMUP);
        poll = await measure(() => pollWindow(urls, pollCallers, SECONDS));
        printPoint('bundle run poll', poll, schema);
      }

      if (POINTS.has('workflow-poll')) {
        await pollWindow(urls, workflowCallers, WARMUP);
        workflowPoll = await measure(() => pollWindow(urls, workflowCallers, SECONDS));
        printPoint('workflow poll (finished)', workflowPoll, schema);

        const blocked = await Promise.all(workflowCallers.map((caller, i) => blockedRun(urls[i % n], caller)));
        await pollWindow(urls, blocked, WARMUP);
        livePoll = await measure(() => pollWindow(urls, blocked, SECONDS));
        printPoint('workflow poll (live)', livePoll, schema);
        await Promise.all(blocked.map(({ path, headers }, i) => jsonRequest(urls[i % n], 'DELETE', path, headers)));
        await sleep(1000); // the cancelled runs have settled
      }

      if (!POINTS.has('workflow')) {
        const entry = (p) => (p === undefined ? null : { ...figures(p), topStatements: topStatements(p, schema) });
        results.push({ ...point, idle: entry(idle), bundlePoll: entry(poll), workflowPoll: entry(workflowPoll), workflowLivePoll: entry(livePoll), workflowRun: null });
        continue;
      }
      const load = startWorkflowLoad({ urls, callers: workflowCallers });
      await sleep(WARMUP * 1000);
      const workflow = await measure(async () => {
        const close = load.open();
        await sleep(SECONDS * 1000);
        return close();
      });
      const stopped = await load.stop();
      const pollCost = { finishedPoll: workflowPoll === undefined ? null : figures(workflowPoll).statementsPerOp, livePoll: livePoll === undefined ? null : figures(livePoll).statementsPerOp };
      const extra = workflowExtra(workflow.outcome, pollCost, figures(workflow).statementsPerOp, stopped);
      workflow.extra = extra.line;
      printPoint('3-step workflow run', workflow, schema, 'run');

      const entry = (p) => (p === undefined ? null : { ...figures(p), topStatements: topStatements(p, schema) });
      results.push({
        ...point,
        idle: entry(idle),
        bundlePoll: entry(poll),
        workflowPoll: entry(workflowPoll),
        workflowLivePoll: entry(livePoll),
        workflowRun: { ...entry(workflow), ...extra.json },
      });
    } finally {
      for (const { child } of instances) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  }
  if (TREES.length > 1 || ROUNDS > 1) {
    console.log('\nsummary: 3-step workflow run, per run (tree, N, round: statements, DB CPU ms, service CPU ms, runs/s)');
    for (const r of results) {
      const w = r.workflowRun;
      if (w !== null) console.log(`  ${r.tree.padEnd(24)} N=${r.n} round ${r.round}: ${w.statementsPerOp} statements, ${w.dbCpuMsPerOp} ms DB CPU, ${w.serviceCpuMsPerOp} ms service CPU, ${w.opsPerSecond} runs/s`);
    }
  }
  console.log(JSON.stringify({ benchmark: 'scale', seconds: SECONDS, warmupSeconds: WARMUP, idleSeconds: IDLE_SECONDS, concurrency: CONCURRENCY, pollCallers: POLL_CALLERS, perStatement: counter.perStatement, points: results }));
} finally {
  await monitor.end();
  await model.close();
  await idp.close();
  await database.stop();
  await rm(work, { recursive: true, force: true });
}
