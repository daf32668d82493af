// Issue 12, item 6: what metrics cost on the fast path. The [Fast path] rows of issue #11 (GET a
// finished bundle run with a JWT, POST /api/tools/clock/invoke, GET /healthz), each on two Portcullis
// servers built alike except AppConfig:Observability:Metrics:Enabled (on: the default; off), tracing
// off on both (no OTEL_* variable), measured in alternated rounds against each other. Ratio = metrics
// on ÷ metrics off (throughput); target ≥ 0.9 (within 10 %). A /metrics scrape is made during the
// run so the on side pays for its families being read too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { register, smallBundle, startRun, waitForRun } from '../lib/bundles.mjs';
import { compareThroughput, printThroughput, rotating } from '../lib/compare.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';

const TARGET = 0.9;
const CALLERS = 16;
const only = process.argv[2];
const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-metrics-'));
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const auth = { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false };
const results = [];

/** Two servers from the same settings, metrics on and off; `prepare` readies each and returns its request list. */
async function pair(name, settings, prepare, connections, title) {
  if (only !== undefined && only !== name) return;
  const on = await startServer({ kind: 'portcullis', settings, metrics: true });
  const off = await startServer({ kind: 'portcullis', settings, metrics: false });
  try {
    const sides = { metricsOn: { url: on.url, connections, requests: await prepare(on.url) }, metricsOff: { url: off.url, connections, requests: await prepare(off.url) } };
    const scraping = setInterval(() => void fetch(`${on.url}/metrics`).then((res) => res.text()), 1_000);
    let summary;
    try {
      summary = await compareThroughput({ servers: { metricsOn: on, metricsOff: off }, sides });
    } finally {
      clearInterval(scraping);
    }
    if ((await fetch(`${off.url}/metrics`)).status !== 404) throw new Error('the metrics-off server serves /metrics');
    const met = printThroughput(`metrics-cost ${name}: ${title}`, summary, TARGET);
    results.push({ path: name, met, ...summary });
  } finally {
    await on.close();
    await off.close();
  }
}

const tokens = await Promise.all(Array.from({ length: CALLERS }, (_, i) => idp.mintToken({ sub: `bench-user-${i}`, roles: ['Harness.Tools.Invoke'] }, { ttlSeconds: 3600 })));
const callers = tokens.map((token) => ({ headers: { authorization: `Bearer ${token}` } }));
try {
  await pair(
    'bundle-poll',
    {
      AppConfig: {
        AI: {
          RateLimits: UNLIMITED,
          ChatModel: { Provider: 'Scripted' },
          BundleExecution: { Enabled: true, TempRoot: join(work, 'staging'), Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } }, Auth: auth },
        },
      },
    },
    async (url) => {
      const bundle = await smallBundle(work);
      return Promise.all(
        callers.map(async ({ headers }) => {
          const handle = await register(url, bundle, headers);
          const { statusUrl } = await startRun(url, handle, { headers });
          const body = await waitForRun(url, statusUrl, headers);
          if (JSON.parse(body).status !== 'Succeeded') throw new Error(`run did not succeed: ${body}`);
          return { path: statusUrl, headers };
        }),
      ).then((list) => rotating(list));
    },
    16,
    `GET a finished bundle run, ${CALLERS} callers with JWTs, 16 connections`,
  );
  const post = { method: 'POST', path: '/api/tools/clock/invoke', body: JSON.stringify({ operation: 'now', parameters: { timeZone: 'UTC' } }), headers: { 'content-type': 'application/json' } };
  await pair(
    'tool-invoke',
    {
      AppConfig: {
        AI: {
          RateLimits: UNLIMITED,
          DirectToolInvocation: { Enabled: true, MaxConcurrentPerCaller: 100_000 },
          BundleExecution: { Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } }, Auth: auth },
        },
      },
    },
    async () => rotating(callers, post),
    4,
    `POST /api/tools/clock/invoke, ${CALLERS} callers with JWTs, 4 connections`,
  );
  await pair('healthz', { AppConfig: { AI: { BundleExecution: { Auth: auth } } } }, async () => rotating([{ path: '/healthz' }]), 20, 'GET /healthz, 20 connections');
  console.log(JSON.stringify({ benchmark: 'metrics-cost', target: TARGET, met: results.every((r) => r.met), results }));
} finally {
  await idp.close();
  await rm(work, { recursive: true, force: true });
}
