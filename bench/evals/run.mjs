// Eval runner overhead: 500 case executions against the fake OpenAI-compatible model server (the test
// suite's, in its own process, with a fixed latency on every model call) at parallelism 1, 16 and 128,
// through the real
// HTTP surface (JWT with Harness.Evals.Execute, start, poll). Each case is one model call answered "ok"
// and one `equals` assertion. Ideal wall time = cases × latency ÷ parallelism; the overhead ratio is
// the run's measured durationMs ÷ that ideal (1.00 is a runner that costs nothing).
// LATENCY_MS (default 100) keeps the whole benchmark around a minute: the parallelism-1 pass alone is
// 500 × latency. Needs `npm run build` (dist/) and the dev dependencies (typescript, for the fake).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fork } from 'node:child_process';
import ts from 'typescript';
import { startDevIdp } from '../../dist/src/cli/dev-idp/index.js';
import { startApp, UNLIMITED } from '../lib/harness.mjs';

const CASES = 500;
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 100);
const PARALLELISM = [1, 16, 128];

/**
 * Starts the fake model server in a child process, so its own work does not share the service's event
 * loop. It is TypeScript in test/helpers; it is transpiled once so this plain-JS bench can run it.
 */
async function startFakeModelServer(work, latencyMs) {
  const source = await readFile(fileURLToPath(new URL('../../test/helpers/fake-openai-server.ts', import.meta.url)), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  await writeFile(join(work, 'fake-openai-server.mjs'), outputText);
  const launcher = join(work, 'fake-model-launcher.mjs');
  await writeFile(
    launcher,
    [
      "import { startFakeOpenAIServer } from './fake-openai-server.mjs';",
      'const latency = Number(process.argv[2]);',
      "const fake = await startFakeOpenAIServer(() => ({ type: 'stream', steps: [{ delayMs: latency }, { text: 'ok' }] }));",
      'process.send({ url: fake.url });',
      "process.on('message', async () => { await fake.close(); process.exit(0); });",
    ].join('\n'),
  );
  const child = fork(launcher, [String(latencyMs)], { stdio: 'inherit' });
  const { url } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the fake model server exited (${code})`)));
  });
  return {
    url,
    close: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.send('close');
    }),
  };
}

function jsonl(count, prefix) {
  return Array.from({ length: count }, (_, i) => JSON.stringify({ id: `${prefix}-${i + 1}`, input: 'ping', assert: [{ type: 'equals', value: 'ok' }] })).join('\n');
}

const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-evals-'));
await writeFile(join(work, 'bench.jsonl'), jsonl(CASES, 'case'));
await writeFile(join(work, 'warmup.jsonl'), jsonl(64, 'warm'));

const fake = await startFakeModelServer(work, LATENCY_MS);
const idp = await startDevIdp({ port: 0, host: '127.0.0.1', persist: false });
const token = await idp.mintToken({ sub: 'bench-user', roles: ['Harness.Evals.Execute'] }, { ttlSeconds: 3600 });
const service = await startApp({
  AppConfig: {
    AI: {
      RateLimits: UNLIMITED,
      Evaluation: { Enabled: true, DatasetRoots: [work], MaxCaseExecutionsPerRun: CASES },
      ChatModel: { Provider: 'OpenAI', Endpoint: `${fake.url}/v1`, Model: 'bench' },
      BundleExecution: {
        Auth: { Instance: idp.instance, TenantId: idp.tenantId, ClientId: idp.clientId, RequireHttpsMetadata: false },
      },
    },
  },
});
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

async function runOnce(dataset, parallelism) {
  const started = Date.now();
  const res = await fetch(`${service.url}/api/evals/runs`, { method: 'POST', headers, body: JSON.stringify({ datasets: [dataset], parallelism }) });
  if (res.status !== 202) throw new Error(`start answered ${res.status}: ${await res.text()}`);
  const { statusUrl } = await res.json();
  for (;;) {
    const body = await (await fetch(`${service.url}${statusUrl}`, { headers })).json();
    if (['Succeeded', 'Failed', 'Cancelled'].includes(body.status)) return { ...body, clientMs: Date.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let valid = true;
try {
  await runOnce('warmup', 16);
  const results = [];
  for (const parallelism of PARALLELISM) {
    const run = await runOnce('bench', parallelism);
    const idealMs = (CASES * LATENCY_MS) / parallelism;
    if (run.status !== 'Succeeded' || run.counts.passed !== CASES) valid = false;
    results.push({
      parallelism,
      status: run.status,
      passed: run.counts?.passed ?? 0,
      idealMs: Math.round(idealMs),
      durationMs: run.durationMs,
      clientObservedMs: run.clientMs,
      overheadRatio: Number((run.durationMs / idealMs).toFixed(3)),
      overheadPerCaseMs: Number(((run.durationMs - idealMs) / (CASES / parallelism)).toFixed(2)),
    });
  }
  console.log(JSON.stringify({ benchmark: 'evals', cases: CASES, modelLatencyMs: LATENCY_MS, runs: results }, null, 2));
} finally {
  await service.close();
  await fake.close();
  await idp.close();
  await rm(work, { recursive: true, force: true });
}
if (!valid) {
  console.error('not every case passed: the figures are not valid');
  process.exitCode = 1;
}
