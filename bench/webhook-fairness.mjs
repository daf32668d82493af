// Issue 35: webhook delivery for a well-behaved owner beside a hostile one. One `portcullis serve`
// (from --tree's dist/, so the same script measures an older checkout), Production settings, JWT auth
// through the dev identity provider (two owners: `bench-good`, `bench-hostile`), Memory storage (or
// --storage postgres: embedded, or BENCH_POSTGRES_URL), webhooks allowed to 127.0.0.1, PollInterval
// 50 ms, the webhook rate limits lifted. Two loopback receivers: one accepts every request and never
// answers (the hostile owner's), one answers 204 at once and notes each request's arrival (the good
// owner's).
//
//   control   the good owner sends --good `POST /api/webhooks/{id}/test` events at --rate per second
//             (0: as fast as --senders requests in flight allow), nobody else sending
//   hostile   the hostile owner first sends --hostile test events to the hanging receiver (waiting up
//             to 3 s for its attempts to start), then the good owner the same stream as in control
//
// Good owner's figures per phase: latency from the delivery's createdAt (the service accepted the test
// request) to its arrival at the receiver, p50/p95/max; throughput (deliveries ÷ first createdAt → last
// arrival); and the attempt's own time as the deliveries log gives it (durationMs, median). Each phase
// waits at most --wait seconds after its last request was accepted; what has not arrived by then is
// counted "not delivered within N s", never waited for. Also per run: the most hostile attempts the
// hanging receiver held at once, and how many it received. Each run is a fresh service.
// On PostgreSQL createdAt is the database's clock as the service estimates it (DatabaseClock: its offset
// measured against a round trip's midpoint at start), so latencies there carry that estimate's error,
// tens of ms (negative latencies seen) to more on a loaded machine, different in each run: compare
// delivered counts and throughput there, latencies on Memory.
//
//   node bench/webhook-fairness.mjs [--tree DIR] [--runs 1] [--hostile 100] [--good 200] [--rate 100]
//                                   [--senders 16] [--wait 15] [--storage memory|postgres] [--json]
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDevIdp } from '../dist/src/cli/dev-idp/index.js';
import { serveCli } from './lib/serve-cli.mjs';
import { settingsEnv } from './lib/settings-env.mjs';
import { percentile, round } from './lib/stats.mjs';

const { values: args } = parseArgs({
  options: {
    tree: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    runs: { type: 'string', default: '1' },
    hostile: { type: 'string', default: '100' },
    good: { type: 'string', default: '200' },
    rate: { type: 'string', default: '100' },
    senders: { type: 'string', default: '16' },
    wait: { type: 'string', default: '15' },
    storage: { type: 'string', default: 'memory' },
    json: { type: 'boolean', default: false },
  },
});
const TREE = resolve(args.tree);
const CLI = join(TREE, 'dist/src/cli/main.js');
const RUNS = Number(args.runs);
const HOSTILE = Number(args.hostile);
const GOOD = Number(args.good);
const RATE = Number(args.rate);
const SENDERS = Number(args.senders);
const WAIT_S = Number(args.wait);
const STORAGE = args.storage.toLowerCase();
if (!['memory', 'postgres'].includes(STORAGE)) throw new Error(`--storage: memory or postgres, not ${args.storage}`);
const HOSTILE_START_S = 3; // at most this long for the hostile attempts to start before the good stream
const OWNER_CAP = 16; // what the fair slots let one owner hold (of 32)
const SETTLE_MS = 50; // after the hostile attempts started, for any beyond the cap to start too
const STOP_MS = 5_000; // a service not stopped this long after SIGTERM gets SIGKILL

const now = () => performance.timeOrigin + performance.now();
const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-webhook-fairness-'));
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const database = STORAGE === 'postgres' ? await (await import('./storage/embedded-postgres.mjs')).benchPostgres() : undefined;

// The hostile owner's receiver: reads each request and never answers; counts the requests held open.
const hanging = { requests: 0, open: 0, peak: 0 };
const hangingServer = createServer((request, response) => {
  hanging.requests += 1;
  hanging.open += 1;
  hanging.peak = Math.max(hanging.peak, hanging.open);
  request.resume();
  response.once('close', () => (hanging.open -= 1));
});
// The good owner's receiver: 204 at once; each arrival's time per path (one path per phase) and webhook-id.
const arrivals = new Map();
// Date.now(), as the service stamps createdAt (performance.timeOrigin + now() drifts from it by tens of ms).
const goodServer = createServer((request, response) => {
  const at = Date.now();
  request.resume();
  request.on('end', () => {
    const seen = arrivals.get(request.url) ?? [];
    seen.push({ id: request.headers['webhook-id'], at });
    arrivals.set(request.url, seen);
    response.writeHead(204).end();
  });
});
const listen = (server) => new Promise((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${server.address().port}`)));
const hangingUrl = await listen(hangingServer);
const goodUrl = await listen(goodServer);

function serve(run) {
  const storage =
    database === undefined
      ? { Provider: 'Memory' }
      : { Provider: 'Postgres', Postgres: { ConnectionString: database.url, Schema: `bench_webhook_fairness_${process.pid}_${run}` } };
  const settings = {
    AppConfig: {
      Logging: { Level: 'warn' },
      Storage: storage,
      Http: { MaxConnectionsPerAddress: 10_000 },
      Webhooks: { AllowedHosts: ['127.0.0.1'], PollInterval: '00:00:00.05' },
      AI: {
        RateLimits: Object.fromEntries(['webhooks-write', 'webhooks-read'].map((policy) => [policy, { PermitsPerMinute: 1_000_000 }])),
        BundleExecution: { Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false } },
      },
    },
  };
  return serveCli({ cwd: work, cli: CLI, env: { PATH: process.env.PATH ?? '', PORTCULLIS_ENVIRONMENT: 'Production', ...settingsEnv(settings) } });
}

async function stop(server) {
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill('SIGTERM');
  const killed = setTimeout(() => server.child.kill('SIGKILL'), STOP_MS);
  await exited;
  clearTimeout(killed);
}

async function owner(sub) {
  return { authorization: `Bearer ${await idp.mintToken({ sub }, { ttlSeconds: 3600 })}` };
}

/** One call as `sub`; the parsed answer (null when empty); a non-2xx answer throws, naming it. */
async function call(base, headers, method, path, body) {
  const init = body === undefined ? { method, headers } : { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text === '' ? null : JSON.parse(text);
}

/** `count` test events to `webhookId`, one every 1000/rate ms (rate 0: back to back), at most SENDERS in flight. */
async function sendTests(base, headers, webhookId, count, rate) {
  const inFlight = new Set();
  const started = now();
  let last = started;
  for (let i = 0; i < count; i += 1) {
    if (rate > 0) await sleep(Math.max(0, started + (i * 1000) / rate - now()));
    while (inFlight.size >= SENDERS) await Promise.race(inFlight);
    const sent = call(base, headers, 'POST', `/api/webhooks/${webhookId}/test`).then(() => {
      last = now();
      inFlight.delete(sent);
    });
    inFlight.add(sent);
  }
  await Promise.all(inFlight);
  return { seconds: (last - started) / 1000 };
}

async function deliveriesOf(base, headers, webhookId) {
  const all = [];
  let cursor = null;
  do {
    const page = await call(base, headers, 'GET', `/api/webhooks/${webhookId}/deliveries?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    all.push(...page.deliveries);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}

/** The good owner's stream to a fresh webhook of its own (path /<phase>), waited for at most WAIT_S after the last acceptance. */
async function goodPhase(base, good, phase) {
  const path = `/${phase}`;
  const webhook = await call(base, good, 'POST', '/api/webhooks', { url: `${goodUrl}${path}`, events: ['approval.requested'] });
  const sending = await sendTests(base, good, webhook.id, GOOD, RATE);
  const deadline = now() + WAIT_S * 1000;
  const distinct = () => new Set((arrivals.get(path) ?? []).map((a) => a.id)).size;
  while (distinct() < GOOD && now() < deadline) await sleep(20);
  const seen = arrivals.get(path) ?? [];
  const firstArrival = new Map();
  for (const { id, at } of seen) if (!firstArrival.has(id)) firstArrival.set(id, at);
  const deliveries = await deliveriesOf(base, good, webhook.id);
  const latencies = [];
  let lastArrival = 0;
  for (const delivery of deliveries) {
    const at = firstArrival.get(delivery.eventId);
    if (at === undefined) continue;
    latencies.push(at - Date.parse(delivery.createdAt));
    lastArrival = Math.max(lastArrival, at);
  }
  const firstCreated = Math.min(...deliveries.map((d) => Date.parse(d.createdAt)));
  const delivered = latencies.length;
  return {
    sent: deliveries.length,
    offeredPerSecond: round(GOOD / Math.max(sending.seconds, 0.001), 0),
    delivered,
    notDelivered: deliveries.length - delivered,
    duplicates: seen.length - firstArrival.size,
    latencyMs: delivered === 0 ? null : { p50: round(percentile(latencies, 50)), p95: round(percentile(latencies, 95)), max: round(Math.max(...latencies)) },
    deliveriesPerSecond: delivered === 0 ? 0 : round(delivered / ((lastArrival - firstCreated) / 1000), 0),
    // The service's own attempt time (request to the receiver's answer), for the delivered ones.
    attemptMsP50: delivered === 0 ? null : round(percentile(deliveries.filter((d) => d.durationMs !== null).map((d) => d.durationMs), 50)),
  };
}

async function measure(run) {
  hanging.requests = 0;
  hanging.peak = hanging.open;
  const server = await serve(run);
  try {
    const good = await owner('bench-good');
    const hostile = await owner('bench-hostile');
    const control = await goodPhase(server.url, good, `control-${run}`);
    const stalled = await call(server.url, hostile, 'POST', '/api/webhooks', { url: `${hangingUrl}/hang`, events: ['approval.requested'] });
    await sendTests(server.url, hostile, stalled.id, HOSTILE, 0);
    const waitUntil = now() + HOSTILE_START_S * 1000;
    while (hanging.open < Math.min(HOSTILE, OWNER_CAP) && now() < waitUntil) await sleep(20);
    await sleep(SETTLE_MS);
    const heldBefore = hanging.open;
    const beside = await goodPhase(server.url, good, `hostile-${run}`);
    return { run: run + 1, control, hostile: { ...beside, hostileHeldAtStart: heldBefore, hostileHeldPeak: hanging.peak, hostileRequests: hanging.requests } };
  } finally {
    hangingServer.closeAllConnections();
    await stop(server);
  }
}

const results = [];
const loadBefore = loadavg()[0];
try {
  for (let run = 0; run < RUNS; run += 1) results.push(await measure(run));
} finally {
  hangingServer.closeAllConnections();
  hangingServer.close();
  goodServer.closeAllConnections();
  goodServer.close();
  await idp.close();
  await database?.stop();
  await rm(work, { recursive: true, force: true });
}

const summary = {
  benchmark: 'webhook-fairness',
  tree: TREE,
  storage: STORAGE,
  hostileEvents: HOSTILE,
  goodEvents: GOOD,
  ratePerSecond: RATE,
  waitSeconds: WAIT_S,
  loadAverage: [round(loadBefore, 1), round(loadavg()[0], 1)],
  runs: results,
};
if (args.json) {
  if (STORAGE === 'postgres') console.log('  (postgres: latencies are measured against the service\'s estimate of the database clock, off by its error in each run)');
  console.log(JSON.stringify(summary));
} else {
  const cell = (phase) =>
    phase.latencyMs === null
      ? `${'-'.padStart(7)} ${'-'.padStart(7)} ${'-'.padStart(7)} ${'0'.padStart(6)}`
      : `${String(phase.latencyMs.p50).padStart(7)} ${String(phase.latencyMs.p95).padStart(7)} ${String(phase.latencyMs.max).padStart(7)} ${String(phase.deliveriesPerSecond).padStart(6)}`;
  console.log(`webhook-fairness: ${TREE} (${STORAGE}); good owner ${GOOD} test events at ${RATE === 0 ? 'full speed' : `${RATE}/s`}, beside a hostile owner's ${HOSTILE} to a receiver that never answers; load average ${summary.loadAverage.join(' → ')}`);
  console.log('run phase    delivered  not within   p50 ms  p95 ms  max ms  del/s  offered/s  attempt p50 ms  hostile held (start/peak)');
  for (const r of results) {
    for (const [name, phase] of [['control', r.control], ['hostile', r.hostile]]) {
      const held = name === 'hostile' ? `${phase.hostileHeldAtStart}/${phase.hostileHeldPeak}` : '';
      const missing = `${phase.notDelivered} (${WAIT_S} s)`;
      console.log(`${String(r.run).padStart(3)} ${name.padEnd(8)} ${`${phase.delivered}/${phase.sent}`.padStart(9)}  ${missing.padStart(10)} ${cell(phase)}  ${String(phase.offeredPerSecond).padStart(9)}  ${String(phase.attemptMsP50 ?? '-').padStart(14)}  ${held}${phase.duplicates > 0 ? `  (${phase.duplicates} duplicate arrivals)` : ''}`);
    }
  }
  if (STORAGE === 'postgres') console.log('  (postgres: latencies are measured against the service\'s estimate of the database clock, off by its error in each run)');
  console.log(JSON.stringify(summary));
}
