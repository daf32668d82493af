// Row 3 of issue #11: GET /healthz on Portcullis (Development, anonymous, request logging at the
// default level, as `portcullis serve` runs it) against a bare Fastify route answering the same bytes.
// Target: ratio ≥ 0.7.
import { compareThroughput, printThroughput } from '../lib/compare.mjs';
import { startServer } from '../lib/processes.mjs';

const TARGET = 0.7;
const portcullis = await startServer({
  kind: 'portcullis',
  environment: 'Development',
  settings: { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: true } } } } },
});
const body = await (await fetch(`${portcullis.url}/healthz`)).text();
const bare = await startServer({ kind: 'bare', routes: [{ url: '/healthz', body }] });
try {
  const summary = await compareThroughput({
    servers: { portcullis, bare },
    sides: { portcullis: { url: `${portcullis.url}/healthz`, connections: 20 }, bare: { url: `${bare.url}/healthz`, connections: 20 } },
  });
  const met = printThroughput(`healthz: GET /healthz (${Buffer.byteLength(body)}-byte body), 20 connections`, summary, TARGET);
  console.log(JSON.stringify({ benchmark: 'healthz', bodyBytes: Buffer.byteLength(body), target: TARGET, met, ...summary }));
} finally {
  await portcullis.close();
  await bare.close();
}
