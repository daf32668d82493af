// Bundle plane benchmarks (imports the compiled service from dist/; `npm run build` first):
// (a) register a 10 MiB / 2000-entry archive over HTTP vs `unzip -q` of the same file: ratio of medians;
// (b) a streamed run against a paced fake model server: wall time from opening the stream to its end
//     vs the fake model's own stream duration: ratio of medians;
// (c) resident memory of a `portcullis serve` child process holding 1000 concurrent open run streams.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { startApp, UNLIMITED } from '../lib/harness.mjs';
import { startFakeModel } from './fake-model.mjs';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const MiB = 1024 * 1024;
const AGENT_MD = '---\nid: bench-agent\nname: Bench agent\n---\nYou answer briefly.\n';
const main = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round = (value, digits = 1) => Number(value.toFixed(digits));

function settings(tempRoot, modelUrl) {
  return {
    AppConfig: {
      AI: {
        RateLimits: UNLIMITED,
        BundleExecution: {
          Enabled: true,
          TempRoot: tempRoot,
          Auth: { AllowAnonymous: true },
          MaxConcurrentStreamsPerCaller: 100_000,
          MaxActiveBundleRunsPerOwner: 100_000,
          Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } },
        },
        ChatModel: { Provider: 'OpenAI', Endpoint: `${modelUrl}/v1`, Model: 'bench', ApiKey: 'bench-key' },
      },
    },
  };
}

/** 2000 entries (AGENT.md + 1999 incompressible files, stored) filling MaxArchiveBytes (10 MiB) to within 2 KiB. */
async function buildBigArchive(path) {
  const entries = 2000;
  const write = async (perFile) => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(AGENT_MD), 'AGENT.md', { compress: false });
    for (let i = 1; i < entries; i += 1) zip.addBuffer(randomBytes(perFile), `data/f${String(i).padStart(4, '0')}.bin`, { compress: false });
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(path));
    return (await stat(path)).size;
  };
  // First pass with a guess, second pass spreading what is left over every file.
  const guess = Math.floor((10 * MiB) / entries);
  const first = await write(guess);
  const bytes = await write(guess + Math.floor((10 * MiB - first) / (entries - 1)));
  return { entries, bytes };
}

async function register(url, bytes) {
  const boundary = '----portcullis-bench';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.zip"\r\nContent-Type: application/zip\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await fetch(`${url}/api/bundles`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
  return (await res.json()).handle;
}

async function startStreamRun(url, handle) {
  const res = await fetch(`${url}/api/bundles/${handle}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userMessages: ['go'], stream: true }),
  });
  if (res.status !== 202) throw new Error(`start-run answered ${res.status}: ${await res.text()}`);
  return (await res.json()).streamUrl;
}

async function benchRegister(work) {
  const archive = join(work, 'big.zip');
  const { entries, bytes } = await buildBigArchive(archive);
  if (bytes > 10 * MiB) throw new Error(`archive is ${bytes} bytes, over 10 MiB`);
  const data = await readFile(archive);
  const model = await startFakeModel();
  const service = await startApp(settings(join(work, 'staging-a'), model.url), 'Development');
  const registerMs = [];
  const unzipMs = [];
  try {
    await fetch(`${service.url}/api/bundles/${await register(service.url, data)}`, { method: 'DELETE' }); // warm-up
    for (let i = 0; i < REPEATS; i += 1) {
      const started = performance.now();
      const handle = await register(service.url, data);
      registerMs.push(performance.now() - started);
      await fetch(`${service.url}/api/bundles/${handle}`, { method: 'DELETE' });

      const target = await mkdtemp(join(work, 'unzip-'));
      const t0 = performance.now();
      const result = spawnSync('unzip', ['-q', archive, '-d', target]);
      unzipMs.push(performance.now() - t0);
      if (result.status !== 0) throw new Error(`unzip failed: ${result.stderr}`);
      await rm(target, { recursive: true, force: true });
    }
  } finally {
    await service.close();
    await model.close();
  }
  const register_ = median(registerMs);
  const unzip = median(unzipMs);
  return { archiveBytes: bytes, entries, registerMedianMs: round(register_), unzipMedianMs: round(unzip), ratio: round(register_ / unzip, 2) };
}

async function benchStreamedRun(work) {
  const model = await startFakeModel();
  model.pace(200, 5);
  const service = await startApp(settings(join(work, 'staging-b'), model.url), 'Development');
  const wallMs = [];
  try {
    const handle = await register(service.url, await bundleBytes(work));
    for (let i = 0; i <= REPEATS; i += 1) {
      const streamUrl = await startStreamRun(service.url, handle);
      const started = performance.now();
      const res = await fetch(`${service.url}${streamUrl}`);
      const text = await res.text();
      const elapsed = performance.now() - started;
      if (!text.includes('"RUN_FINISHED"')) throw new Error(`stream did not finish:\n${text.slice(-500)}`);
      if (i > 0) wallMs.push(elapsed); // the first run warms up
    }
  } finally {
    await service.close();
    await model.close();
  }
  const wall = median(wallMs);
  const modelStream = median(model.durations.slice(1));
  return { modelChunks: 200, modelIntervalMs: 5, wallMedianMs: round(wall), modelStreamMedianMs: round(modelStream), ratio: round(wall / modelStream, 3) };
}

async function bundleBytes(work) {
  const path = join(work, 'small.zip');
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(AGENT_MD), 'AGENT.md');
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return readFile(path);
}

/** Starts `portcullis serve` as a child process and resolves with its URL and pid. */
async function spawnService(work, modelUrl) {
  const config = join(work, 'serve.json');
  await writeFile(config, JSON.stringify(settings(join(work, 'staging-c'), modelUrl)));
  const child = spawn(process.execPath, [main, 'serve', '--config', config, '--port', '0'], {
    cwd: work,
    env: { ...process.env, PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__Logging__Level: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`portcullis serve exited with ${code}`)));
  });
  return { child, url };
}

async function rssKiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  if (status !== null) return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
  return Number(spawnSync('ps', ['-o', 'rss=', '-p', String(pid)]).stdout.toString().trim());
}

/** Opens one stream with plain node:http; resolves `opened` on RUN_STARTED and `ended` with the body. */
function openStream(url, agent) {
  let body = '';
  let opened;
  const openedPromise = new Promise((resolve) => (opened = resolve));
  const ended = new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
        if (body.includes('"RUN_STARTED"')) opened();
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
  return { opened: openedPromise, ended };
}

async function benchOpenStreams(work) {
  const model = await startFakeModel();
  const { child, url } = await spawnService(work, model.url);
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  try {
    const handle = await register(url, await bundleBytes(work));
    // Warm up: one full run so lazy initialisation is not counted as per-stream memory.
    model.pace(5, 1);
    await (await fetch(`${url}${await startStreamRun(url, handle)}`)).text();
    const streamUrls = [];
    for (let i = 0; i < STREAMS; i += 1) streamUrls.push(await startStreamRun(url, handle));
    const baseline = await rssKiB(child.pid);
    model.hold();
    const started = performance.now();
    const streams = streamUrls.map((streamUrl) => openStream(`${url}${streamUrl}`, agent));
    await Promise.all(streams.map((s) => s.opened));
    await model.whenHeld(STREAMS);
    const openMs = performance.now() - started;
    const open = await rssKiB(child.pid);
    model.releaseAll();
    const bodies = await Promise.all(streams.map((s) => s.ended));
    const finished = bodies.filter((body) => body.includes('"RUN_FINISHED"')).length;
    return {
      streams: STREAMS,
      openedInMs: round(openMs),
      rssBaselineMiB: round(baseline / 1024),
      rssWithOpenStreamsMiB: round(open / 1024),
      perStreamKiB: round((open - baseline) / STREAMS),
      finishedCleanly: finished,
    };
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await model.close();
  }
}

const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-bundles-'));
try {
  const register_ = await benchRegister(work);
  const streamedRun = await benchStreamedRun(work);
  const openStreams = await benchOpenStreams(work);
  console.log(JSON.stringify({ benchmark: 'bundles', repeats: REPEATS, register: register_, streamedRun, openStreams }, null, 2));
  if (openStreams.finishedCleanly !== STREAMS) {
    console.error('not every stream finished with RUN_FINISHED: the figures are not valid');
    process.exitCode = 1;
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
