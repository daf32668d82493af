// Row 7 of issue #11: the eval runner, 32 cases × 15 repeats (480 executions) at parallelism 16 and
// 128 (BENCH_PARALLELISM=1,16,128 adds the 48-second serial pass) against a fake OpenAI-compatible
// model (its own process) answering after 100 ms (LATENCY_MS). The service runs in its own process,
// as `portcullis serve`, driven over HTTP (JWT with Harness.Evals.Execute, start, poll). Each case is
// one model call answered "ok" and one `equals` assertion. Ideal = executions × latency ÷ parallelism;
// ratio = the run's durationMs ÷ ideal. Target at 128: ≤ 1.2 (issue 36).
//
// The fake model (BENCH_FAKE): `lean` (the default since 2026-12-02) is bench/lib/fake-model-process.mjs,
// which keeps nothing per request; `suite` is the test suite's fake (test/helpers/fake-openai-server.ts),
// which every figure before that date used. Before the counted runs: one run at 16, then BENCH_WARMUP
// runs (default 4) at each measured parallelism, printed apart — the service's first few thousand
// executions pay for the JIT's compiles (its CPU a run falls by half or more over them). After each
// counted run, the floor: the same number of model calls at the same parallelism from a bare node:http
// client (bench/lib/bare-client.mjs) to the same fake, no service; "over floor" = run ÷ floor.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';
import { bareClient } from '../lib/bare-client.mjs';
import { startFakeModelProcess } from '../lib/fake-model-process.mjs';
import { startSuiteFakeModel } from '../lib/suite-fake-model.mjs';
import { round, show, spread } from '../lib/stats.mjs';

const CASES = 32;
const REPEATS = 15;
const EXECUTIONS = CASES * REPEATS;
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 100);
const PARALLELISM = (process.env.BENCH_PARALLELISM ?? '16,128').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 4);
const FAKE = process.env.BENCH_FAKE ?? 'lean';
if (FAKE !== 'lean' && FAKE !== 'suite') throw new Error(`BENCH_FAKE is lean or suite, not ${FAKE}`);
const TARGET = 1.2; // issue 36 (row 7 of issue #11 asked ≤ 1.5)

/** Every request is answered "ok" after `latency` ms, by a fake server in its own process. */
const startFakeModelServer = (work, latencyMs) =>
  FAKE === 'lean'
    ? startFakeModelProcess({ chunks: 1, intervalMs: latencyMs, text: 'ok' })
    : startSuiteFakeModel(work, "(body, { latency }) => ({ type: 'stream', steps: [{ delayMs: latency }, { text: 'ok' }] })", { latency: latencyMs });

const jsonl = (prefix) =>
  Array.from({ length: CASES }, (_, i) => JSON.stringify({ id: `${prefix}-${i + 1}`, input: 'ping', assert: [{ type: 'equals', value: 'ok' }] })).join('\n');

const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-evals-'));
await writeFile(join(work, 'bench.jsonl'), jsonl('case'));
const fake = await startFakeModelServer(work, LATENCY_MS);
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const token = await idp.mintToken({ sub: 'bench-user', roles: ['Harness.Evals.Execute'] }, { ttlSeconds: 3600 });
const server = await startServer({
  kind: 'portcullis',
  settings: {
    AppConfig: {
      AI: {
        RateLimits: UNLIMITED,
        Evaluation: { Enabled: true, DatasetRoots: [work], MaxCaseExecutionsPerRun: EXECUTIONS },
        ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'bench' },
        BundleExecution: { Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false } },
      },
    },
  },
});
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const bare = bareClient(fake.url);

async function runOnce(parallelism) {
  const cpuBefore = await server.cpu();
  const res = await fetch(`${server.url}/api/evals/runs`, { method: 'POST', headers, body: JSON.stringify({ datasets: ['bench'], repeats: REPEATS, parallelism }) });
  if (res.status !== 202) throw new Error(`start answered ${res.status}: ${await res.text()}`);
  const { statusUrl } = await res.json();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100)); // rare polls: the service shares its loop with the run
    const body = await (await fetch(`${server.url}${statusUrl}`, { headers })).json();
    if (['Succeeded', 'Failed', 'Cancelled'].includes(body.status)) {
      if (body.status !== 'Succeeded' || body.counts.passed !== EXECUTIONS) throw new Error(`run ended ${body.status}, ${body.counts?.passed} passed: the figures are not valid`);
      const cpuAfter = await server.cpu();
      // The service process's CPU over the run (start and polls included): far less disturbed by other load than wall time.
      return {
        durationMs: body.durationMs,
        serviceCpuMs: (cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / 1000,
        serviceSystemCpuMs: (cpuAfter.system - cpuBefore.system) / 1000,
      };
    }
  }
}

try {
  await runOnce(16); // warm-up
  const results = [];
  console.log(`\nevals: ${CASES} cases × ${REPEATS} repeats, model latency ${LATENCY_MS} ms, ${FAKE} fake model, ${WARMUP} warm-up and ${RUNS} counted runs each; median (min..max)`);
  for (const parallelism of PARALLELISM) {
    const warmup = [];
    for (let i = 0; i < WARMUP; i += 1) warmup.push(await runOnce(parallelism));
    const runs = [];
    const floors = [];
    for (let i = 0; i < RUNS; i += 1) {
      runs.push(await runOnce(parallelism));
      floors.push(await bare.run(EXECUTIONS, parallelism));
    }
    const durations = runs.map((run) => run.durationMs);
    const serviceCpu = spread(runs.map((run) => run.serviceCpuMs), 1);
    const serviceSystemCpu = spread(runs.map((run) => run.serviceSystemCpuMs), 1);
    const idealMs = (EXECUTIONS * LATENCY_MS) / parallelism;
    const wavesMs = Math.ceil(EXECUTIONS / parallelism) * LATENCY_MS;
    const duration = spread(durations, 0);
    const ratio = round(duration.median / idealMs, 2);
    const floor = spread(floors, 0);
    const overFloor = spread(runs.map((run, i) => run.durationMs / floors[i]), 2);
    const warm = warmup.length === 0 ? null : { durationMs: spread(warmup.map((run) => run.durationMs), 0), serviceCpuMs: spread(warmup.map((run) => run.serviceCpuMs), 1) };
    results.push({ parallelism, idealMs: round(idealMs, 0), wavesLowerBoundMs: wavesMs, durationMs: duration, ratio, serviceCpuMs: serviceCpu, serviceSystemCpuMs: serviceSystemCpu, floorMs: floor, floorRatio: round(floor.median / idealMs, 2), overFloor, warmup: warm });
    const verdict = parallelism === 128 ? `  target ≤ ${TARGET}  ${ratio <= TARGET ? 'MET' : 'NOT MET'}` : '';
    if (warm !== null) {
      const inOrder = warmup.map((run) => `${run.durationMs}/${Math.round(run.serviceCpuMs)}`).join(', ');
      console.log(`  parallelism ${String(parallelism).padStart(3)}, warm-up: ${show(warm.durationMs, ' ms')}; service CPU ${show(warm.serviceCpuMs, ' ms')}; in order, wall/CPU ms: ${inOrder}`);
    }
    console.log(`  parallelism ${String(parallelism).padStart(3)}: ${show(duration, ' ms')} vs ideal ${round(idealMs, 0)} ms (${Math.ceil(EXECUTIONS / parallelism)} waves: ${wavesMs} ms): ratio ${ratio}; service CPU ${show(serviceCpu, ' ms')} (system ${show(serviceSystemCpu, ' ms')})${verdict}`);
    console.log(`  parallelism ${String(parallelism).padStart(3)}, floor (bare client, same fake): ${show(floor, ' ms')}, ratio ${round(floor.median / idealMs, 2)}; run over floor ${show(overFloor)}`);
  }
  console.log(JSON.stringify({ benchmark: 'evals', loadAverage: loadavg().map((n) => round(n, 2)), fake: FAKE, cases: CASES, repeats: REPEATS, modelLatencyMs: LATENCY_MS, runs: results }));
} finally {
  bare.close();
  await server.close();
  await fake.close();
  await idp.close();
  await rm(work, { recursive: true, force: true });
}
