// Row 5 of issue #11: 1,000 bundle run streams open at once, every run waiting on the model (a fake
// OpenAI-compatible server that sends one chunk and holds the reply). Measures the service process
// (its own child, as `portcullis serve`): RSS (/proc) and V8 heap after a full GC, before opening, with
// all open, and after all were released and closed, over 3 open/close cycles. Per stream = (open -
// before) / streams. Targets: ≤ 64 KiB per stream, RSS < 200 MB with all open (issue 36), no growth over cycles.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { register, smallBundle, startRun } from '../lib/bundles.mjs';
import { startFakeModel } from '../lib/fake-model.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';
import { round } from '../lib/stats.mjs';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 3);
const TARGET_PER_STREAM_KIB = 64;
const TARGET_RSS_MB = 200; // issue 36 (issue #11 asked < 300)
const KiB = 1024;
const MB = 1000 * 1000;

async function rssBytes(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) * KiB;
}

/** RSS and heap of the service after a full GC. */
async function measure(server) {
  const memory = await server.memory();
  return { rss: await rssBytes(server.pid), heapUsed: memory.heapUsed, external: memory.external + memory.arrayBuffers };
}

/** Opens one stream with plain node:http; `opened` on RUN_STARTED, `ended` with the whole body. */
function openStream(url, agent) {
  let body = '';
  let opened;
  const openedPromise = new Promise((resolve) => (opened = resolve));
  const ended = new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
        if (body.includes('"RUN_STARTED"')) opened();
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
  return { opened: openedPromise, ended };
}

const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-streams-'));
const model = await startFakeModel();
const server = await startServer(
  {
    kind: 'portcullis',
    environment: 'Development',
    settings: {
      AppConfig: {
        // 1,000 streams from one loopback address: the connection caps (issue 9) lifted like the rate limits.
        Http: { MaxConnections: STREAMS + 100, MaxConnectionsPerAddress: STREAMS + 100 },
        AI: {
          RateLimits: UNLIMITED,
          ChatModel: { Provider: 'OpenAI', Endpoint: `${model.url}/v1`, Model: 'bench', ApiKey: 'bench-key' },
          BundleExecution: {
            Enabled: true,
            TempRoot: join(work, 'staging'),
            Auth: { AllowAnonymous: true },
            MaxConcurrentStreamsPerCaller: 100_000,
            MaxActiveBundleRunsPerOwner: 100_000,
            Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } },
          },
        },
      },
    },
  },
  { exposeGc: true },
);
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
let valid = true;
try {
  const handle = await register(server.url, await smallBundle(work));
  // One full run first, so lazy initialisation is not counted as per-stream memory.
  model.pace(5, 1);
  await (await fetch(`${server.url}${(await startRun(server.url, handle, { stream: true })).streamUrl}`)).text();
  const cycles = [];
  for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
    const streamUrls = [];
    for (let i = 0; i < STREAMS; i += 1) streamUrls.push((await startRun(server.url, handle, { stream: true })).streamUrl);
    const before = await measure(server);
    model.hold();
    const started = performance.now();
    const streams = streamUrls.map((streamUrl) => openStream(`${server.url}${streamUrl}`, agent));
    await Promise.all(streams.map((s) => s.opened));
    await model.whenHeld(STREAMS);
    const openMs = performance.now() - started;
    const open = await measure(server);
    // BENCH_HEAP_SNAPSHOT=<file> writes a snapshot of the service with every stream open (first cycle).
    if (cycle === 1 && process.env.BENCH_HEAP_SNAPSHOT) await server.heapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
    model.releaseAll();
    const bodies = await Promise.all(streams.map((s) => s.ended));
    const finished = bodies.filter((body) => body.includes('"RUN_FINISHED"')).length;
    if (finished !== STREAMS) valid = false;
    const closed = await measure(server);
    cycles.push({ cycle, openMs: round(openMs), before, open, closed, finished });
  }
  const mb = (bytes) => round(bytes / MB, 1);
  const kib = (bytes) => round(bytes / KiB, 1);
  console.log(`\nopen-streams: ${STREAMS} streams waiting on the model, ${CYCLES} open/close cycles (RSS and heap after a full GC)`);
  for (const c of cycles) {
    console.log(
      `  cycle ${c.cycle}: before RSS ${mb(c.before.rss)} MB heap ${mb(c.before.heapUsed)} MB | all open RSS ${mb(c.open.rss)} MB heap ${mb(c.open.heapUsed)} MB` +
        ` (per stream: RSS ${kib((c.open.rss - c.before.rss) / STREAMS)} KiB, heap ${kib((c.open.heapUsed - c.before.heapUsed) / STREAMS)} KiB)` +
        ` | closed RSS ${mb(c.closed.rss)} MB heap ${mb(c.closed.heapUsed)} MB | opened in ${c.openMs} ms, ${c.finished} finished`,
    );
  }
  const first = cycles[0];
  const last = cycles[cycles.length - 1];
  const perStreamRssKiB = Math.max(...cycles.map((c) => kib((c.open.rss - c.before.rss) / STREAMS)));
  const perStreamHeapKiB = Math.max(...cycles.map((c) => kib((c.open.heapUsed - c.before.heapUsed) / STREAMS)));
  const peakRssMB = Math.max(...cycles.map((c) => mb(c.open.rss)));
  const heapGrowthMB = mb(last.closed.heapUsed - first.closed.heapUsed);
  const rssGrowthMB = mb(last.closed.rss - first.closed.rss);
  console.log(`  worst per stream: RSS ${perStreamRssKiB} KiB, heap ${perStreamHeapKiB} KiB (target ≤ ${TARGET_PER_STREAM_KIB} KiB); peak RSS ${peakRssMB} MB (target < ${TARGET_RSS_MB} MB)`);
  console.log(`  growth after close, cycle 1 -> ${CYCLES}: heap ${heapGrowthMB} MB, RSS ${rssGrowthMB} MB`);
  const met = perStreamRssKiB <= TARGET_PER_STREAM_KIB && peakRssMB < TARGET_RSS_MB;
  console.log(`  ${met ? 'MET' : 'NOT MET'}`);
  console.log(JSON.stringify({ benchmark: 'open-streams', streams: STREAMS, cycles, perStreamRssKiB, perStreamHeapKiB, peakRssMB, heapGrowthMB, rssGrowthMB, met }));
} finally {
  agent.destroy();
  await server.close();
  await model.close();
  await rm(work, { recursive: true, force: true });
}
if (!valid) {
  console.error('not every stream finished with RUN_FINISHED: the figures are not valid');
  process.exitCode = 1;
}
