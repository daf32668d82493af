// Shared benchmark plumbing: build the real app from settings, listen on loopback, run autocannon.
// Benchmarks import the compiled service from dist/ (npm install builds it).
import autocannon from 'autocannon';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../dist/src/app.js';
import { loadConfig, rateLimitPolicies } from '../../dist/src/platform/config/index.js';
import { createLogger } from '../../dist/src/platform/log/index.js';

export async function startApp(settings, environment = 'Production') {
  const dir = await mkdtemp(join(tmpdir(), 'portcullis-bench-'));
  const file = join(dir, 'bench.json');
  await writeFile(file, JSON.stringify(settings));
  const loaded = loadConfig({ cwd: dir, env: { PORTCULLIS_ENVIRONMENT: environment }, configFiles: [file] });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const app = await buildApp({ config: loaded.config, logger: createLogger({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${app.server.address().port}`;
  return { app, url, close: async () => { await app.close(); await rm(dir, { recursive: true, force: true }); } };
}

export function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 20, duration: 8, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

export function summary(result) {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export const UNLIMITED = Object.fromEntries(rateLimitPolicies.map((policy) => [policy, { PermitsPerMinute: 1_000_000 }]));
