// Row 2 of issue #11: POST /api/tools/clock/invoke (`now`) through the full gate path (JWT, role,
// rate limit, concurrency slot, catalog lookup, parameter schema, governor, redaction of the output),
// 16 callers (16 distinct tokens) over 4 connections, against a bare Fastify route that calls the
// same clock tool and answers the same response shape. Target: ratio ≥ 0.6 (issue 36).
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { compareThroughput, printThroughput, rotating } from '../lib/compare.mjs';
import { startServer } from '../lib/processes.mjs';
import { UNLIMITED } from '../lib/harness.mjs';

const TARGET = 0.6; // issue 36 (issue #11 asked ≥ 0.4)
const CALLERS = 16;
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const tokens = await Promise.all(
  Array.from({ length: CALLERS }, (_, i) => idp.mintToken({ sub: `bench-user-${i}`, roles: ['Harness.Tools.Invoke'] }, { ttlSeconds: 3600 })),
);
const spec = {
  kind: 'portcullis',
  settings: {
    AppConfig: {
      AI: {
        RateLimits: UNLIMITED,
        DirectToolInvocation: { Enabled: true, MaxConcurrentPerCaller: 100_000 },
        BundleExecution: {
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
const bare = await startServer({ kind: 'bare', routes: [{ method: 'POST', url: '/api/tools/clock/invoke', clock: true }] });

const body = JSON.stringify({ operation: 'now', parameters: { timeZone: 'UTC' } });
const post = { method: 'POST', body, headers: { 'content-type': 'application/json' } };
const sample = await fetch(`${portcullis.url}/api/tools/clock/invoke`, { ...post, headers: { ...post.headers, authorization: `Bearer ${tokens[0]}` } });
const sampleBody = await sample.text();
const bareBody = await (await fetch(`${bare.url}/api/tools/clock/invoke`, post)).text();
if (sample.status !== 200) throw new Error(`invoke answered ${sample.status}: ${sampleBody}`);
try {
  const callers = tokens.map((token) => ({ headers: { authorization: `Bearer ${token}` } }));
  const sides = {
    portcullis: { url: portcullis.url, connections: 4, requests: rotating(callers, { ...post, path: '/api/tools/clock/invoke' }) },
    // The bare side gets the same rotation (same header bytes) and ignores the token.
    bare: { url: bare.url, connections: 4, requests: rotating(callers, { ...post, path: '/api/tools/clock/invoke' }) },
  };
  if (before) sides.before = { url: before.url, connections: 4, requests: rotating(callers, { ...post, path: '/api/tools/clock/invoke' }) };
  const summary = await compareThroughput({ servers: { portcullis, bare, before }, sides });
  const met = printThroughput(
    `tool-invoke: POST /api/tools/clock/invoke, ${CALLERS} callers, 4 connections (bodies ${Buffer.byteLength(sampleBody)} / ${Buffer.byteLength(bareBody)} bytes)`,
    summary,
    TARGET,
  );
  console.log(JSON.stringify({ benchmark: 'tool-invoke', callers: CALLERS, target: TARGET, met, ...summary }));
} finally {
  await portcullis.close();
  await bare.close();
  await before?.close();
  await idp.close();
}
