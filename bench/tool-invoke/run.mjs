// Tool invocation: POST /api/tools/clock/invoke through the full gate path (JWT, role, rate limit,
// concurrency slot, catalog lookup, parameter schema, governor, redaction of the output) versus a
// bare Fastify route that calls the same clock tool directly. Ratio = gated req/s ÷ bare req/s.
import Fastify from 'fastify';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { createClockTool } from '../../dist/src/tools/builtin/clock/index.js';
import { run, startApp, summary, UNLIMITED } from '../lib/harness.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 8);
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const token = await idp.mintToken({ sub: 'bench-user', roles: ['Harness.Tools.Invoke'] }, { ttlSeconds: 3600 });
const gated = await startApp({
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
});

const clock = createClockTool();
const bare = Fastify();
bare.post('/bare', async (request) => {
  const started = Date.now();
  const result = await clock.invoke('now', request.body.parameters ?? {}, { ownerId: 'bench', signal: new AbortController().signal });
  return { tool: 'clock', operation: 'now', succeeded: result.ok, output: result.ok ? result.output : undefined, outputTruncated: false, durationMs: Date.now() - started };
});
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${bare.server.address().port}/bare`;

const body = JSON.stringify({ operation: 'now', parameters: { timeZone: 'UTC' } });
const post = { method: 'POST', body, headers: { 'content-type': 'application/json' } };
const gatedRequest = { ...post, url: `${gated.url}/api/tools/clock/invoke`, headers: { ...post.headers, authorization: `Bearer ${token}` } };

await run({ ...gatedRequest, duration: 2 });
await run({ ...post, url: bareUrl, duration: 2 });
const full = summary(await run({ ...gatedRequest, duration }));
const direct = summary(await run({ ...post, url: bareUrl, duration }));
console.log(JSON.stringify({ benchmark: 'tool-invoke', durationSeconds: duration, gated: full, bare: direct, ratio: Number((full.requestsPerSecond / direct.requestsPerSecond).toFixed(3)) }, null, 2));
await gated.close();
await bare.close();
await idp.close();
if (full.non2xx > 0 || direct.non2xx > 0) {
  console.error('non-2xx responses during the benchmark: the figures are not valid');
  process.exitCode = 1;
}
