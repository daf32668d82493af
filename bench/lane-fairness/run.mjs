// Issue 22: lane fairness under load. One service (bundle lane: MaxConcurrentDispatchedBundleRuns = 4
// host slots), a model that answers Alice's prompts after SLOW_MS and Bob's at once. Bob runs
// BOB_RUNS ordinary runs one after another; his start latency is the run's own startedAt − createdAt.
// Measured twice on the same server: Bob alone, then beside Alice keeping FLOOD slow runs queued (each
// one finished is replaced at once). Fair lanes (DESIGN §17) keep Bob's p95 within one slot's turn
// (a slot frees every SLOW_MS / 4 on average, so at most SLOW_MS); a first-in first-out lane makes Bob
// wait behind Alice's whole queue (about FLOOD / 4 × SLOW_MS).
//
//   node bench/lane-fairness/run.mjs            (BENCH_BEFORE=<tree>: the same, also against another build)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { register, smallBundle, startRun, waitForRun } from '../lib/bundles.mjs';
import { startFakeModel } from '../lib/fake-model.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';
import { percentile, round } from '../lib/stats.mjs';

const SLOTS = 4;
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 400);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 32);
const BOB_RUNS = Number(process.env.BENCH_BOB_RUNS ?? 40);

const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-lanes-'));
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const model = await startFakeModel();
model.pace(2, 1);
const lastUser = (request) => [...(request.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
model.waitBefore((request) => (String(lastUser(request)).startsWith('slow') ? SLOW_MS : 0));
const spec = {
  kind: 'portcullis',
  settings: {
    AppConfig: {
      AI: {
        RateLimits: UNLIMITED,
        ChatModel: { Provider: 'OpenAI', Endpoint: `${model.url}/v1`, Model: 'bench', ApiKey: 'bench-key' },
        BundleExecution: {
          Enabled: true,
          TempRoot: join(work, 'staging'),
          MaxConcurrentDispatchedBundleRuns: SLOTS,
          MaxActiveBundleRunsPerOwner: 100_000,
          Envelopes: { Default: { AllowedTools: [], AutonomyCeiling: 'Autonomous' } },
          Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false },
        },
      },
    },
  },
};

const figures = (latencies) => ({ p50: round(percentile(latencies, 50)), p95: round(percentile(latencies, 95)), max: round(Math.max(...latencies)) });

async function caller(url, sub) {
  const headers = { authorization: `Bearer ${await idp.mintToken({ sub }, { ttlSeconds: 3600 })}` };
  const handle = await register(url, await smallBundle(work), headers);
  return { headers, handle };
}

/** Bob's runs one after another; each one's startedAt − createdAt in ms. */
async function bobLatencies(url, bob) {
  const latencies = [];
  for (let i = 0; i < BOB_RUNS; i += 1) {
    const { statusUrl } = await startRun(url, bob.handle, { headers: bob.headers, userMessages: [`bob ${i}`] });
    const run = JSON.parse(await waitForRun(url, statusUrl, bob.headers));
    if (run.status !== 'Succeeded') throw new Error(`Bob's run ${i} ended ${run.status}`);
    latencies.push(Date.parse(run.startedAt) - Date.parse(run.createdAt));
  }
  return latencies;
}

/** Alice keeps FLOOD slow runs active until stop(): each one that finishes is replaced. */
function flood(url, alice) {
  let stopping = false;
  let started = 0;
  const loops = Array.from({ length: FLOOD }, async () => {
    while (!stopping) {
      const { statusUrl } = await startRun(url, alice.handle, { headers: alice.headers, userMessages: [`slow ${started++}`] });
      await waitForRun(url, statusUrl, alice.headers);
    }
  });
  return {
    started: () => started,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

async function measure(server) {
  const bob = await caller(server.url, 'bench-bob');
  const alice = await caller(server.url, 'bench-alice');
  const alone = await bobLatencies(server.url, bob);
  const neighbour = flood(server.url, alice);
  // Let Alice's queue fill before Bob starts: every slot busy, FLOOD − SLOTS of hers waiting.
  await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
  const flooded = await bobLatencies(server.url, bob);
  await neighbour.stop();
  return { alone: figures(alone), flooded: figures(flooded), aliceRuns: neighbour.started() };
}

const sides = { after: await startServer(spec) };
if (process.env.BENCH_BEFORE) sides.before = await startServer(spec, { tree: process.env.BENCH_BEFORE });
try {
  const results = {};
  for (const [side, server] of Object.entries(sides)) results[side] = await measure(server);
  console.log(`lane-fairness: ${SLOTS} bundle slots, Alice keeps ${FLOOD} runs of ${SLOW_MS} ms active, Bob runs ${BOB_RUNS} ordinary runs; Bob's start latency (startedAt − createdAt, ms)`);
  for (const [side, r] of Object.entries(results)) {
    console.log(`  ${side.padEnd(6)} alone p50 ${r.alone.p50} p95 ${r.alone.p95} max ${r.alone.max} | beside Alice p50 ${r.flooded.p50} p95 ${r.flooded.p95} max ${r.flooded.max} (Alice started ${r.aliceRuns} runs)`);
  }
  console.log(`  target: p95 beside Alice ≤ one slot's turn (${SLOW_MS} ms)`);
  console.log(JSON.stringify({ benchmark: 'lane-fairness', slots: SLOTS, slowMs: SLOW_MS, flood: FLOOD, bobRuns: BOB_RUNS, target: { p95Ms: SLOW_MS }, met: results.after.flooded.p95 <= SLOW_MS, ...results }));
} finally {
  for (const server of Object.values(sides)) await server.close();
  await model.close();
  await idp.close();
  await rm(work, { recursive: true, force: true });
}
