// Row 6 of issue #11: a 1,000-step chain of ToolUse steps (`clock.now`) run by the real service (its
// own process, as `portcullis serve`, logging at the default level): submitted and started over HTTP,
// then polled once it must have finished; per step = the run's own completedAt - startedAt ÷ steps, and
// the service's CPU time over the run ÷ steps. The first run after start-up is reported on its own
// (cold: V8 has not optimised the step path yet and the young generation is still growing); then
// BENCH_WARMUP further runs (4) are not counted, and BENCH_RUNS runs (15) give the figure: median
// (min..max) of a service that has been running. Target: ≤ 10 µs per step (wall; issue 36).
import { chainDefinition, jsonCaller, startChainServer } from '../lib/chain.mjs';
import { round, show, spread } from '../lib/stats.mjs';

const STEPS = Number(process.env.BENCH_STEPS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 4);
const TARGET_US = 10; // issue 36

const server = await startChainServer(STEPS);
const call = jsonCaller(server.url);

try {
  const { id } = await call('POST', '/api/workflows', chainDefinition(STEPS));
  const cpuUs = async () => {
    const { user, system } = await server.cpu();
    return user + system;
  };
  const runOnce = async () => {
    const cpuBefore = await cpuUs();
    const { statusUrl } = await call('POST', `/api/workflows/${id}/runs`);
    // No poll while the run executes: each one projects 1,000 steps on the service's one event loop.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // The service's CPU time from the start request to here (the run, and an otherwise idle second):
    // what other load on the machine disturbs far less than the run's wall time.
    const cpuPerStep = ((await cpuUs()) - cpuBefore) / STEPS;
    for (;;) {
      const run = await call('GET', statusUrl);
      if (run.status === 'Succeeded') return { wall: ((Date.parse(run.completedAt) - Date.parse(run.startedAt)) * 1000) / STEPS, cpu: cpuPerStep };
      if (!['Queued', 'Running'].includes(run.status)) throw new Error(`run ended ${run.status}: ${JSON.stringify(run).slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const cold = await runOnce();
  for (let i = 0; i < WARMUP; i += 1) await runOnce();
  const samples = [];
  for (let i = 0; i < RUNS; i += 1) samples.push(await runOnce());
  const figure = spread(samples.map((s) => s.wall), 1);
  const cpu = spread(samples.map((s) => s.cpu), 1);
  const met = figure.median <= TARGET_US;
  console.log(`\nworkflow-chain: ${STEPS}-step ToolUse chain (clock.now) over HTTP, ${RUNS} runs; run wall ÷ steps, median (min..max)`);
  console.log(`  per step  ${show(figure, ' µs')}  target ≤ ${TARGET_US} µs  ${met ? 'MET' : 'NOT MET'}`);
  console.log(`  service CPU per step  ${show(cpu, ' µs')}`);
  console.log(`  runs in order  ${samples.map((s) => round(s.wall, 1)).join(' ')} µs per step`);
  console.log(`  first run after start-up (cold, not counted)  ${round(cold.wall, 1)} µs per step, service CPU ${round(cold.cpu, 1)} µs`);
  console.log(
    JSON.stringify({ benchmark: 'workflow-chain', steps: STEPS, runs: RUNS, warmup: WARMUP, coldPerStepUs: round(cold.wall, 1), perStepUs: figure, cpuPerStepUs: cpu, targetUs: TARGET_US, met, runMs: round((figure.median * STEPS) / 1000, 1) }),
  );
} finally {
  await server.close();
}
