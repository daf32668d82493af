// Issue 40 point 6: what recorded eval cases (DESIGN §19 "A run becomes a case", "Replay") cost. The
// service runs in its own process, as `portcullis serve`, driven over HTTP (JWT with
// Harness.Evals.Execute, start, poll, report.xml); the fake OpenAI-compatible model (the test suite's,
// its own process) answers after LATENCY_MS (100 ms) and reports how many requests it received.
//
// 1. "Replaying a 20-step recorded case costs no model time." One case (`replay20.json`, subject: an
//    inline prompt requesting `calculator`, granted by the Default envelope) whose recording has exactly
//    20 steps — 10 model steps and 10 tool steps, 10 `calculator.evaluate` calls:
//      step 1        model: text "I will square 1 to 10.", calls 1*1 and 2*2 (two calls in one answer)
//      steps 2, 3    tool: 1*1 → {"result":1}, 2*2 → {"result":4}
//      steps 4..19   8 × (model: text "", call n*n; tool: n*n → {"result":n²}) for n = 3..10
//      step 20       model: the final text "The squares of 1 to 10 add up to 385." (no call)
//    Rounds alternate (A B, B A, …) a run with `replay: "all"` and the same case live (`replay`
//    omitted: the fake model plays the same conversation — 10 model calls of LATENCY_MS — and the real
//    calculator answers). Each run is 1 execution; its figures: the fake model's requests during the
//    run (replay must be 0), the poll's durationMs and costUsd (replay must be 0; pricing is set to
//    $3 / $15 per million input / output tokens so a live call costs something), and the case's latency
//    (its <testcase time> in report.xml, ms resolution). Every run must pass matches-recording.
// 2. "Eval runner efficiency at parallelism 128 stays within 1.2× ideal with recordings." bench/evals'
//    shape, 32 cases × 15 repeats (480 executions), one model call of LATENCY_MS answered "ok" per case:
//    `plain` (assert equals "ok", no recording) and `recorded` (every case carrying the recording
//    { steps: [{ model: { text: "ok", toolCalls: [] } }] } and no `assert`, so the default
//    matches-recording), both started with `replay: "tools"` (the live model; a case without a recording
//    runs as "none"), alternated per parallelism (16 and 128, RUNS each). Ideal = executions × latency ÷
//    parallelism; ratio = durationMs ÷ ideal. Target at 128: ≤ 1.2. Before the counted runs, BENCH_WARMUP
//    (2) alternated rounds at each parallelism; after each pair, the floor: the same 480 calls from a
//    bare client to the same fake (bench/lib/bare-client.mjs), no service.
// Every run also reports the service process's CPU time over it (start to the report's fetch: polls
// and report.xml included), a figure other load on the machine disturbs far less than wall time.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';
import { bareClient } from '../lib/bare-client.mjs';
import { startSuiteFakeModel } from '../lib/suite-fake-model.mjs';
import { alternate, median, round, show, spread } from '../lib/stats.mjs';

const CASES = 32;
const REPEATS = 15;
const EXECUTIONS = CASES * REPEATS;
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 100);
const PARALLELISM = (process.env.BENCH_PARALLELISM ?? '16,128').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2); // alternated rounds of both datasets per parallelism
const REPLAY_ROUNDS = Number(process.env.BENCH_REPLAY_ROUNDS ?? 20);
const TARGET = 1.2;
const PRICING = { InputPerMillionTokens: 3, OutputPerMillionTokens: 15 };

// The 20-step conversation, shared by the recording and the fake model's live script.
const SQUARES = 10;
const FIRST_TEXT = 'I will square 1 to 10.';
const FINAL_TEXT = 'The squares of 1 to 10 add up to 385.';
const call = (n) => ({ tool: 'calculator', operation: 'evaluate', arguments: { expression: `${n}*${n}` } });
const answered = (n) => ({ ...call(n), result: JSON.stringify({ result: n * n }), isError: false });
const RECORDING_20 = {
  steps: [
    { model: { text: FIRST_TEXT, toolCalls: [call(1), call(2)] } },
    answered(1),
    answered(2),
    ...Array.from({ length: SQUARES - 2 }, (_, i) => [{ model: { text: '', toolCalls: [call(i + 3)] } }, answered(i + 3)]).flat(),
    { model: { text: FINAL_TEXT, toolCalls: [] } },
  ],
};
if (RECORDING_20.steps.length !== 20) throw new Error(`the recording has ${RECORDING_20.steps.length} steps, not 20`);
const MODEL_STEPS = RECORDING_20.steps.filter((step) => 'model' in step).length; // 10

const loadAverage = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).map(Number);

/**
 * The test suite's fake model server (TypeScript), transpiled once and run in a child process. A request
 * that offers tools plays the 20-step conversation (by the count of tool results it already carries);
 * any other is answered "ok". Every answer waits `latencyMs` first. `count()`: requests received so far.
 */
function startFakeModelServer(work, latencyMs) {
  const handler = `(body, { latency, squares, first, final }) => {
    const call = (n) => ({ toolCall: { name: 'calculator', argumentChunks: [JSON.stringify({ operation: 'evaluate', parameters: { expression: \`\${n}*\${n}\` } })] } });
    const reply = (...steps) => ({ type: 'stream', steps: [{ delayMs: latency }, ...steps] });
    if (!Array.isArray(body?.tools) || body.tools.length === 0) return reply({ text: 'ok' });
    const done = (body.messages ?? []).filter((m) => m.role === 'tool').length;
    if (done === 0) return reply({ text: first }, call(1), call(2));
    if (done < squares) return reply(call(done + 1));
    return reply({ text: final });
  }`;
  return startSuiteFakeModel(work, handler, { latency: latencyMs, squares: SQUARES, first: FIRST_TEXT, final: FINAL_TEXT });
}

const lines = (prefix, extra) => Array.from({ length: CASES }, (_, i) => JSON.stringify({ id: `${prefix}-${i + 1}`, input: 'ping', ...extra })).join('\n');

const loadBefore = await loadAverage();
const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-eval-replay-'));
await writeFile(join(work, 'plain.jsonl'), lines('case', { assert: [{ type: 'equals', value: 'ok' }] }));
await writeFile(join(work, 'recorded.jsonl'), lines('case', { recording: { steps: [{ model: { text: 'ok', toolCalls: [] } }] } }));
await writeFile(
  join(work, 'replay20.json'),
  JSON.stringify({
    description: 'A 20-step recorded case: 10 model answers, 10 calculator calls.',
    subject: { system: 'You square numbers with the calculator.', tools: ['calculator'] },
    cases: [{ id: 'squares', input: 'Square 1 to 10 and add them up.', recording: RECORDING_20 }],
  }),
);
const fake = await startFakeModelServer(work, LATENCY_MS);
const bare = bareClient(fake.url);
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const token = await idp.mintToken({ sub: 'bench-user', roles: ['Harness.Evals.Execute'] }, { ttlSeconds: 3600 });
const server = await startServer({
  kind: 'portcullis',
  settings: {
    AppConfig: {
      AI: {
        RateLimits: UNLIMITED,
        Evaluation: { Enabled: true, DatasetRoots: [work], MaxCaseExecutionsPerRun: EXECUTIONS },
        ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'bench', Pricing: PRICING },
        BundleExecution: {
          Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false },
          Envelopes: { Default: { AllowedTools: ['calculator'], AutonomyCeiling: 'Autonomous' } },
        },
      },
    },
  },
});
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

/** Starts a run and polls it to its end; throws unless every execution passed. Resolves with the poll body, the report's case latencies and the model requests made meanwhile. */
async function runOnce(body, executions) {
  const requestsBefore = await fake.count();
  const cpuBefore = await server.cpu();
  const res = await fetch(`${server.url}/api/evals/runs`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (res.status !== 202) throw new Error(`start answered ${res.status}: ${await res.text()}`);
  const { statusUrl } = await res.json();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100)); // rare polls: the service shares its loop with the run
    const polled = await (await fetch(`${server.url}${statusUrl}`, { headers })).json();
    if (!['Succeeded', 'Failed', 'Cancelled'].includes(polled.status)) continue;
    const modelRequests = (await fake.count()) - requestsBefore;
    const cpuAfter = await server.cpu();
    const serviceCpuMs = (cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / 1000;
    const xml = await (await fetch(`${server.url}${statusUrl}/report.xml`, { headers })).text();
    if (polled.status !== 'Succeeded' || polled.counts.passed !== executions) {
      throw new Error(`run ${JSON.stringify(body)} ended ${polled.status}, ${polled.counts?.passed} of ${executions} passed: the figures are not valid\n${xml}`);
    }
    const latenciesMs = [...xml.matchAll(/<testcase [^>]*time="([\d.]+)"/g)].map((match) => Number(match[1]) * 1000);
    return { durationMs: polled.durationMs, costUsd: polled.costUsd, latenciesMs, modelRequests, serviceCpuMs };
  }
}

try {
  await runOnce({ datasets: ['plain'], repeats: REPEATS, parallelism: 16 }, EXECUTIONS); // warm-up
  await runOnce({ datasets: ['replay20'], replay: 'all' }, 1);
  await runOnce({ datasets: ['replay20'] }, 1);

  // 1. The 20-step recorded case: replay "all" against the same case live.
  const sides = { replay: { datasets: ['replay20'], replay: 'all' }, live: { datasets: ['replay20'] } };
  const samples = await alternate(Object.keys(sides), REPLAY_ROUNDS, (side) => runOnce(sides[side], 1));
  const summary = {};
  console.log(`\neval-replay: one case of ${RECORDING_20.steps.length} recorded steps (${MODEL_STEPS} model, ${RECORDING_20.steps.length - MODEL_STEPS} calculator), ${REPLAY_ROUNDS} alternated rounds, model latency ${LATENCY_MS} ms; median (min..max)`);
  for (const [side, runs] of Object.entries(samples)) {
    const requests = runs.map((r) => r.modelRequests);
    summary[side] = {
      runs: runs.length,
      modelRequestsPerRun: spread(requests, 0),
      modelRequestsTotal: requests.reduce((a, b) => a + b, 0),
      durationMs: spread(runs.map((r) => r.durationMs), 0),
      caseLatencyMs: spread(runs.map((r) => r.latenciesMs[0]), 0),
      costUsd: spread(runs.map((r) => r.costUsd), 6),
      serviceCpuMs: spread(runs.map((r) => r.serviceCpuMs), 1),
    };
    const s = summary[side];
    const label = side === 'replay' ? 'replay "all"' : 'live        ';
    console.log(`  ${label}: model requests ${s.modelRequestsTotal} in ${s.runs} runs; run ${show(s.durationMs, ' ms')}; case latency ${show(s.caseLatencyMs, ' ms')}; cost $${s.costUsd.median} ($${s.costUsd.min}..$${s.costUsd.max}); service CPU ${show(s.serviceCpuMs, ' ms')}`);
  }
  const replayOk = summary.replay.modelRequestsTotal === 0 && summary.replay.costUsd.max === 0;
  console.log(`  live model time the replay skips: ${MODEL_STEPS} × ${LATENCY_MS} ms = ${MODEL_STEPS * LATENCY_MS} ms per execution; replay made no model call and cost $0: ${replayOk ? 'YES' : 'NO'}`);

  // 2. Runner efficiency with recordings (replay "tools") against the same dataset without them.
  const results = [];
  console.log(`\neval-replay: ${CASES} cases × ${REPEATS} repeats, replay "tools", ${RUNS} alternated runs per dataset and parallelism; median (min..max)`);
  for (const parallelism of PARALLELISM) {
    const idealMs = (EXECUTIONS * LATENCY_MS) / parallelism;
    const wavesMs = Math.ceil(EXECUTIONS / parallelism) * LATENCY_MS;
    // Warm-up at this parallelism first (the JIT's compiles; see bench/evals), then the counted runs,
    // each pair followed by the floor: the same calls from a bare client to the same fake, no service.
    await alternate(['recorded', 'plain'], WARMUP, (name) => runOnce({ datasets: [name], repeats: REPEATS, parallelism, replay: 'tools' }, EXECUTIONS));
    const floors = [];
    const runs = await alternate(['recorded', 'plain'], RUNS, async (name) => {
      const run = await runOnce({ datasets: [name], repeats: REPEATS, parallelism, replay: 'tools' }, EXECUTIONS);
      if (name === 'plain') floors.push(await bare.run(EXECUTIONS, parallelism));
      return run;
    });
    const floor = spread(floors, 0);
    const row = { parallelism, idealMs: round(idealMs, 0), wavesLowerBoundMs: wavesMs, floorMs: floor, floorRatio: round(floor.median / idealMs, 2) };
    for (const name of ['recorded', 'plain']) {
      const duration = spread(runs[name].map((r) => r.durationMs), 0);
      const requests = runs[name].map((r) => r.modelRequests);
      if (requests.some((n) => n !== EXECUTIONS)) console.log(`  NOTE: ${name} at ${parallelism} made ${requests.join(', ')} model requests (expected ${EXECUTIONS} a run)`);
      row[name] = { durationMs: duration, ratio: round(duration.median / idealMs, 2), modelRequestsPerRun: spread(requests, 0), serviceCpuMs: spread(runs[name].map((r) => r.serviceCpuMs), 0) };
    }
    const paired = runs.recorded.map((r, i) => r.durationMs / runs.plain[i].durationMs);
    row.recordedOverPlain = { median: round(median(paired), 2), min: round(Math.min(...paired), 2), max: round(Math.max(...paired), 2) };
    results.push(row);
    for (const name of ['recorded', 'plain']) {
      const verdict = parallelism === 128 ? `  target ≤ ${TARGET}  ${row[name].ratio <= TARGET ? 'MET' : 'NOT MET'}` : '';
      console.log(
        `  parallelism ${String(parallelism).padStart(3)} ${name.padEnd(8)}: ${show(row[name].durationMs, ' ms')} vs ideal ${round(idealMs, 0)} ms (${Math.ceil(EXECUTIONS / parallelism)} waves: ${wavesMs} ms): ratio ${row[name].ratio}; service CPU ${show(row[name].serviceCpuMs, ' ms')}${verdict}`,
      );
    }
    console.log(`  parallelism ${String(parallelism).padStart(3)} recorded ÷ plain (paired runs): ${show(row.recordedOverPlain)}`);
    console.log(`  parallelism ${String(parallelism).padStart(3)} floor (bare client, same fake): ${show(floor, ' ms')}, ratio ${row.floorRatio}`);
  }
  const loadAfter = await loadAverage();
  console.log(`\nload average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`);
  console.log(
    JSON.stringify({
      benchmark: 'eval-replay',
      modelLatencyMs: LATENCY_MS,
      recordedCase: { steps: RECORDING_20.steps.length, modelSteps: MODEL_STEPS, rounds: REPLAY_ROUNDS, liveModelTimeMs: MODEL_STEPS * LATENCY_MS, ...summary },
      efficiency: { cases: CASES, repeats: REPEATS, replay: 'tools', targetAt128: TARGET, runs: results },
      loadAverage: { before: loadBefore, after: loadAfter },
    }),
  );
} finally {
  await server.close();
  bare.close();
  await fake.close();
  await idp.close();
  await rm(work, { recursive: true, force: true });
}
