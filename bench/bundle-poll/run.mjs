// Row 1 of issue #11: GET a finished bundle run (the poll route) with a JWT, 20 callers (each its own
// token, bundle and finished run) over 20 connections, against a bare Fastify route with the same
// route pattern answering the same body bytes. Target: ratio ≥ 0.8 (issue 36).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { finishedRunCallers, smallBundle } from '../lib/bundles.mjs';
import { compareThroughput, printThroughput, rotating } from '../lib/compare.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';

const TARGET = 0.8; // issue 36 (issue #11 asked ≥ 0.5)
const CALLERS = 20;
const ROUTE = '/api/bundles/:handle/runs/:jobId';
const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-poll-'));
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const spec = {
  kind: 'portcullis',
  settings: {
    AppConfig: {
      AI: {
        RateLimits: UNLIMITED,
        ChatModel: { Provider: 'Scripted' },
        BundleExecution: {
          Enabled: true,
          TempRoot: join(work, 'staging'),
          Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } },
          Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false },
        },
      },
    },
  },
};
const portcullis = await startServer(spec);
// BENCH_BEFORE=<tree>: the same service built from another checkout, a third side of every round.
const before = process.env.BENCH_BEFORE ? await startServer(spec, { tree: process.env.BENCH_BEFORE }) : undefined;
let bare;
try {
  const bundle = await smallBundle(work);
  // Each Portcullis side gets its own 20 callers: a token, a bundle and a finished run each.
  const prepare = (server) => finishedRunCallers(server.url, idp, bundle, CALLERS);
  const callers = await prepare(portcullis);
  const body = callers[0].body;
  bare = await startServer({ kind: 'bare', routes: [{ url: ROUTE, body }] });
  const sides = {
    portcullis: { url: portcullis.url, connections: 20, requests: rotating(callers) },
    bare: { url: bare.url, connections: 20, requests: rotating(callers) },
  };
  if (before) sides.before = { url: before.url, connections: 20, requests: rotating(await prepare(before)) };
  const summary = await compareThroughput({ servers: { portcullis, bare, before }, sides });
  const met = printThroughput(`bundle-poll: GET ${ROUTE} (finished run, ${Buffer.byteLength(body)}-byte body), ${CALLERS} callers with JWTs, 20 connections`, summary, TARGET);
  console.log(JSON.stringify({ benchmark: 'bundle-poll', callers: CALLERS, bodyBytes: Buffer.byteLength(body), target: TARGET, met, ...summary }));
} finally {
  await portcullis.close();
  await bare?.close();
  await before?.close();
  await idp.close();
  await rm(work, { recursive: true, force: true });
}
