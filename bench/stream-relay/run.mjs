// The bundle stream relay: wall time from opening a run's stream to its end, against the fake model's
// own stream duration (200 chunks, 5 ms apart), after a warm-up run; medians of BENCH_REPEATS (5).
// The ratio is what the relay (agent loop, event log, SSE writer) adds to what the model takes anyway.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { register, smallBundle, startRun } from '../lib/bundles.mjs';
import { startFakeModel } from '../lib/fake-model.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';
import { round, show, spread } from '../lib/stats.mjs';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-relay-'));
const model = await startFakeModel();
model.pace(200, 5);
const server = await startServer({
  kind: 'portcullis',
  environment: 'Development',
  settings: {
    AppConfig: {
      AI: {
        RateLimits: UNLIMITED,
        ChatModel: { Provider: 'OpenAI', Endpoint: `${model.url}/v1`, Model: 'bench', ApiKey: 'bench-key' },
        BundleExecution: { Enabled: true, TempRoot: join(work, 'staging'), Auth: { AllowAnonymous: true } },
      },
    },
  },
});
try {
  const handle = await register(server.url, await smallBundle(work));
  const wallMs = [];
  for (let i = 0; i <= REPEATS; i += 1) {
    const { streamUrl } = await startRun(server.url, handle, { stream: true });
    const started = performance.now();
    const text = await (await fetch(`${server.url}${streamUrl}`)).text();
    const elapsed = performance.now() - started;
    if (!text.includes('"RUN_FINISHED"')) throw new Error(`stream did not finish:\n${text.slice(-500)}`);
    if (i > 0) wallMs.push(elapsed); // the first run warms up
  }
  const wall = spread(wallMs);
  const modelStream = spread(model.durations.slice(1));
  const ratio = round(wall.median / modelStream.median, 3);
  console.log(`\nstream-relay: a streamed run against a paced model (200 chunks, 5 ms apart), ${REPEATS} runs; median (min..max)`);
  console.log(`  stream wall   ${show(wall, ' ms')}\n  model stream  ${show(modelStream, ' ms')}\n  ratio         ${ratio}`);
  console.log(JSON.stringify({ benchmark: 'stream-relay', repeats: REPEATS, wallMs: wall, modelStreamMs: modelStream, ratio }));
} finally {
  await server.close();
  await model.close();
  await rm(work, { recursive: true, force: true });
}
