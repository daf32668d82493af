// What grouping journal commits of many runs into one transaction would save (issue 28, the step
// after decision 2805): `apply_change` called the way a run's commits are — a begin-like patch, two
// checkpoints with a step item and a STEP event, a final patch — for RUNS runs, first each commit its
// own transaction, then K commits per transaction, on a PostgreSQL with its durable defaults.
// Reported: the database's CPU (postmaster and every backend, from /proc) per run of four commits.
//   npm run build && node bench/commit-grouping/run.mjs [--runs 2000] [--clients 8]
import pg from 'pg';
import { startPostgres } from '../storage/embedded-postgres.mjs';
import { postmasterPid, treeCpuMs } from '../lib/process-tree-cpu.mjs';
import { migratePostgres } from '../../dist/src/platform/storage/postgres/create-postgres-storage.js';
import { applyChangeStatement } from '../../dist/src/platform/storage/postgres/stores/apply-change.js';
import { schemaNames } from '../../dist/src/platform/storage/postgres/schema-names.js';

const option = (name, fallback) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const RUNS = option('--runs', 2_000);
const CLIENTS = option('--clients', 8);
const SCHEMA = 'grouping';

const db = await startPostgres();
const silent = { info() {}, warn() {} };
await migratePostgres({ clock: { now: () => Date.now() }, clockSource: 'injected', connectionString: db.url, schema: SCHEMA, log: silent });
const statement = applyChangeStatement(schemaNames(SCHEMA)).plain;
const postmaster = postmasterPid(db.dataDir);

/** apply_change's 23 parameters for commit `step` (0 begin, 1–2 checkpoints, 3 end) of run `id`. */
function params(id, step) {
  const now = Date.now();
  const checkpoint = step === 1 || step === 2;
  const patch = !checkpoint;
  return [
    'run', 'owner', id, now,
    patch, patch, step === 0 ? 'Running' : 'Succeeded', false, null, step === 3, step === 3 ? now + 60_000 : null, patch, JSON.stringify({ step }),
    false, null, null, null, null, null,
    checkpoint ? [`step-${step}`] : null,
    checkpoint ? JSON.stringify([{ status: 'Succeeded', output: { iso: new Date(now).toISOString() } }]) : null,
    checkpoint ? JSON.stringify([{ type: 'STEP', stepId: `step-${step}`, status: 'Succeeded' }]) : null,
    'bench:',
  ];
}

async function measure(label, perTransaction) {
  const seed = new pg.Client({ connectionString: db.url });
  await seed.connect();
  await seed.query(`INSERT INTO ${SCHEMA}.records (collection, owner_id, id, created_at, data) SELECT 'run', 'owner', $1 || g, 0, '{}'::json FROM generate_series(1, ${RUNS}) g`, [label]);
  await seed.end();
  const commits = [];
  for (let step = 0; step < 4; step += 1) for (let run = 1; run <= RUNS; run += 1) commits.push([`${label}${run}`, step]);
  const pool = new pg.Pool({ connectionString: db.url, max: CLIENTS });
  pool.on('error', () => undefined);
  const cpuBefore = treeCpuMs([postmaster]);
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = await pool.connect();
      while (next < commits.length) {
        const group = commits.slice(next, next + perTransaction);
        next += perTransaction;
        if (perTransaction > 1) await client.query('BEGIN');
        for (const [id, step] of group) await client.query({ text: statement, values: params(id, step), name: 'apply_change' });
        if (perTransaction > 1) await client.query('COMMIT');
      }
      client.release();
    }),
  );
  const cpuMs = treeCpuMs([postmaster]) - cpuBefore;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await pool.end();
  return { perTransaction, dbCpuMsPerRun: Number((cpuMs / RUNS).toFixed(3)), seconds: Number(seconds.toFixed(2)) };
}

try {
  const results = [];
  // Alternated, so drift on a shared machine falls on every side alike.
  for (const [round, sides] of [[1, [1, 4, 8]], [2, [8, 4, 1]]]) {
    for (const perTransaction of sides) results.push({ round, ...(await measure(`r${round}k${perTransaction}-`, perTransaction)) });
  }
  for (const r of results) console.log(`${r.perTransaction} commit(s) per transaction: ${r.dbCpuMsPerRun} ms database CPU per run of 4 commits (${r.seconds} s, round ${r.round})`);
  console.log(JSON.stringify({ bench: 'commit-grouping', runs: RUNS, clients: CLIENTS, results }));
} finally {
  await db.stop();
}
