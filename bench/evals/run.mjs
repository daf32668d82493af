// Row 7 of issue #11: the eval runner, 32 cases × 15 repeats (480 executions) at parallelism 16 and
// 128 (BENCH_PARALLELISM=1,16,128 adds the 48-second serial pass) against a fake OpenAI-compatible
// model (its own process) answering after 100 ms (LATENCY_MS). The service runs in its own process,
// as `portcullis serve`, driven over HTTP (JWT with Harness.Evals.Execute, start, poll). Each case is
// one model call answered "ok" and one `equals` assertion. Ideal = executions × latency ÷ parallelism;
// ratio = the run's durationMs ÷ ideal. Target at 128: ≤ 1.2 (issue 36).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';
import { startSuiteFakeModel } from '../lib/suite-fake-model.mjs';
import { round, show, spread } from '../lib/stats.mjs';

const CASES = 32;
const REPEATS = 15;
const EXECUTIONS = CASES * REPEATS;
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 100);
const PARALLELISM = (process.env.BENCH_PARALLELISM ?? '16,128').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET = 1.2; // issue 36 (row 7 of issue #11 asked ≤ 1.5)

/** Every request is answered "ok" after `latency` ms, by the suite's fake server in its own process. */
const startFakeModelServer = (work, latencyMs) =>
  startSuiteFakeModel(work, "(body, { latency }) => ({ type: 'stream', steps: [{ delayMs: latency }, { text: 'ok' }] })", { latency: latencyMs });

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
  console.log(`\nevals: ${CASES} cases × ${REPEATS} repeats, model latency ${LATENCY_MS} ms, ${RUNS} runs each; median (min..max)`);
  for (const parallelism of PARALLELISM) {
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await runOnce(parallelism));
    const durations = runs.map((run) => run.durationMs);
    const serviceCpu = spread(runs.map((run) => run.serviceCpuMs), 1);
    const serviceSystemCpu = spread(runs.map((run) => run.serviceSystemCpuMs), 1);
    const idealMs = (EXECUTIONS * LATENCY_MS) / parallelism;
    const wavesMs = Math.ceil(EXECUTIONS / parallelism) * LATENCY_MS;
    const duration = spread(durations, 0);
    const ratio = round(duration.median / idealMs, 2);
    results.push({ parallelism, idealMs: round(idealMs, 0), wavesLowerBoundMs: wavesMs, durationMs: duration, ratio, serviceCpuMs: serviceCpu, serviceSystemCpuMs: serviceSystemCpu });
    const verdict = parallelism === 128 ? `  target ≤ ${TARGET}  ${ratio <= TARGET ? 'MET' : 'NOT MET'}` : '';
    console.log(`  parallelism ${String(parallelism).padStart(3)}: ${show(duration, ' ms')} vs ideal ${round(idealMs, 0)} ms (${Math.ceil(EXECUTIONS / parallelism)} waves: ${wavesMs} ms): ratio ${ratio}; service CPU ${show(serviceCpu, ' ms')} (system ${show(serviceSystemCpu, ' ms')})${verdict}`);
  }
  console.log(JSON.stringify({ benchmark: 'evals', loadAverage: loadavg().map((n) => round(n, 2)), cases: CASES, repeats: REPEATS, modelLatencyMs: LATENCY_MS, runs: results }));
} finally {
  await server.close();
  await fake.close();
  await idp.close();
  await rm(work, { recursive: true, force: true });
}
