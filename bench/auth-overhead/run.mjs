// Auth overhead: GET /api/capabilities with a real JWT (verified against a loopback OpenID provider,
// then served from the verified-token cache) against the same route on an anonymous-mode service, both
// as `portcullis serve` runs them. It sees only what authentication adds: costs both sides pay are in
// the bare-baseline benchmarks (healthz, tool-invoke, bundle-poll). Target: ratio ≥ 0.8.
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { compareThroughput, printThroughput } from '../lib/compare.mjs';
import { UNLIMITED } from '../lib/harness.mjs';
import { startServer } from '../lib/processes.mjs';

const TARGET = 0.8;
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const token = await idp.mintToken({ sub: 'bench-user', roles: ['Harness.Tools.Invoke'] }, { ttlSeconds: 3600 });
const Envelopes = { Default: { AllowedTools: ['clock', 'calculator'], AutonomyCeiling: 'Autonomous' } };
const authenticated = await startServer({
  kind: 'portcullis',
  settings: {
    AppConfig: {
      AI: {
        RateLimits: UNLIMITED,
        BundleExecution: { Envelopes, Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false } },
      },
    },
  },
});
const anonymous = await startServer({
  kind: 'portcullis',
  environment: 'Development',
  settings: { AppConfig: { AI: { RateLimits: UNLIMITED, BundleExecution: { Envelopes, Auth: { AllowAnonymous: true } } } } },
});
try {
  const summary = await compareThroughput({
    servers: { authenticated, anonymous },
    sides: {
      authenticated: { url: `${authenticated.url}/api/capabilities`, headers: { authorization: `Bearer ${token}` } },
      anonymous: { url: `${anonymous.url}/api/capabilities` },
    },
  });
  const met = printThroughput('auth-overhead: GET /api/capabilities, JWT vs anonymous mode, 20 connections', summary, TARGET);
  console.log(JSON.stringify({ benchmark: 'auth-overhead', target: TARGET, met, ...summary }));
} finally {
  await authenticated.close();
  await anonymous.close();
  await idp.close();
}
