// Issue 10: a 1,000-step ToolUse chain (`clock.now`) on the PostgreSQL storage, run by the real
// service in its own process: every step is checkpointed (its item and STEP events, one round trip
// each state change) on a real, durable PostgreSQL (embedded; BENCH_POSTGRES_URL for another).
// Per step = the run's completedAt - startedAt ÷ steps; BENCH_RUNS runs (5) after a warm-up, median
// (min..max). Target: ≤ 2 ms per step including its checkpoint.
import { chainDefinition, jsonCaller, startChainServer } from '../lib/chain.mjs';
import { round, show, spread } from '../lib/stats.mjs';
import { benchPostgres } from '../storage/embedded-postgres.mjs';

const STEPS = Number(process.env.BENCH_STEPS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_MS = 2;
const database = await benchPostgres();
const server = await startChainServer(STEPS, { Provider: 'Postgres', Postgres: { ConnectionString: database.url, Schema: 'bench_chain' } });
const call = jsonCaller(server.url);

try {
  const { id } = await call('POST', '/api/workflows', chainDefinition(STEPS));
  const runOnce = async () => {
    const { statusUrl } = await call('POST', `/api/workflows/${id}/runs`);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const run = await call('GET', statusUrl);
      if (run.status === 'Succeeded') return (Date.parse(run.completedAt) - Date.parse(run.startedAt)) / STEPS;
      if (!['Queued', 'Running'].includes(run.status)) throw new Error(`run ended ${run.status}`);
    }
  };
  await runOnce();
  const perStep = [];
  for (let i = 0; i < RUNS; i += 1) perStep.push(await runOnce());
  const figure = spread(perStep, 2);
  const met = figure.median <= TARGET_MS;
  console.log(`\ndurable-chain: ${STEPS}-step ToolUse chain on PostgreSQL, every step checkpointed, ${RUNS} runs; run wall ÷ steps, median (min..max)`);
  console.log(`  per step  ${show(figure, ' ms')}  target ≤ ${TARGET_MS} ms  ${met ? 'MET' : 'NOT MET'}`);
  console.log(JSON.stringify({ benchmark: 'durable-chain', steps: STEPS, runs: RUNS, perStepMs: figure, targetMs: TARGET_MS, met, runMs: round(figure.median * STEPS, 0) }));
} finally {
  await server.close();
  await database.stop();
}
