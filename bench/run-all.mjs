// Runs every benchmark in sequence (each prints its table and a JSON line). `npm run bench`; they are
// not part of `npm test`. `npm run build` first: they run the compiled service in dist/.
// `--metrics=off` (or `on`) runs every Portcullis server with AppConfig:Observability:Metrics:Enabled
// set so (BENCH_METRICS); `metrics-cost` compares the two directly.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const benches = [
  'bundle-poll', // row 1 of issue #11
  'tool-invoke', // row 2
  'healthz', // row 3
  'register', // row 4
  'open-streams', // row 5
  'workflow-chain', // row 6
  'evals', // row 7
  'auth-overhead',
  'stream-relay',
  'workflows',
  'redaction',
  'storage', // issue 10
  'storage-poll',
  'durable-chain',
  'takeover',
  'metrics-cost', // issue 12
  'lane-fairness', // issue 22
  'approvals', // issue 23
  'webhooks', // DESIGN §14
  'idempotency', // issue 24
  'spend', // issue 25
  'first-command', // issue 27
  'scale', // issue 28
  'commit-grouping', // issue 28, the next step
  'workflow-park', // issue 37, workflow runs parked out of memory
  'eval-replay', // issue 40, recorded eval cases: replay costs no model time; runner efficiency with recordings
  'staging-writes', // issue 36, the register row: what writing 2,000 staged files costs, four ways
];
const metricsFlag = process.argv.slice(2).find((arg) => arg.startsWith('--metrics='));
if (metricsFlag !== undefined) {
  const value = metricsFlag.slice('--metrics='.length);
  if (value !== 'on' && value !== 'off') throw new Error(`--metrics must be on or off, got ${value}`);
  process.env.BENCH_METRICS = value;
}
let failed = false;
for (const name of benches) {
  const script = fileURLToPath(new URL(`./${name}/run.mjs`, import.meta.url));
  const result = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
