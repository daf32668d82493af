// Auth overhead: GET /api/capabilities with a real JWT (verified against a loopback OpenID provider,
// then served from the verified-token cache) versus the same route in anonymous mode, in one run.
// Ratio = authenticated req/s ÷ anonymous req/s; target ≥ 0.8.
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { run, startApp, summary, UNLIMITED } from '../lib/harness.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 8);
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const token = await idp.mintToken({ sub: 'bench-user', roles: ['Harness.Tools.Invoke'] }, { ttlSeconds: 3600 });
const envelopes = { Default: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Autonomous' } };

const authed = await startApp({
  AppConfig: {
    AI: {
      RateLimits: UNLIMITED,
      BundleExecution: {
        Envelopes: envelopes,
        Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false },
      },
    },
  },
});
const anonymous = await startApp(
  { AppConfig: { AI: { RateLimits: UNLIMITED, BundleExecution: { Envelopes: envelopes, Auth: { AllowAnonymous: true } } } } },
  'Development',
);

// Warm both (JWKS fetch, first verification, JIT) before measuring.
await run({ url: `${authed.url}/api/capabilities`, headers: { authorization: `Bearer ${token}` }, duration: 2 });
await run({ url: `${anonymous.url}/api/capabilities`, duration: 2 });

const withToken = summary(await run({ url: `${authed.url}/api/capabilities`, headers: { authorization: `Bearer ${token}` }, duration }));
const withoutAuth = summary(await run({ url: `${anonymous.url}/api/capabilities`, duration }));
const ratio = withToken.requestsPerSecond / withoutAuth.requestsPerSecond;

console.log(JSON.stringify({ benchmark: 'auth-overhead', durationSeconds: duration, authenticated: withToken, anonymous: withoutAuth, ratio: Number(ratio.toFixed(3)) }, null, 2));
await authed.close();
await anonymous.close();
await idp.close();
if (withToken.non2xx > 0 || withoutAuth.non2xx > 0) {
  console.error('non-2xx responses during the benchmark: the figures are not valid');
  process.exitCode = 1;
}
