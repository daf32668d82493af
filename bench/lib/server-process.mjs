// A benchmark server in its own process, so the load generator (autocannon, in the parent) and the
// server under test never share an event loop. Started by processes.mjs with a JSON spec in argv[2]:
//   { kind: 'portcullis', settings, environment }  — built exactly as `portcullis serve` builds it
//       (config from a settings file, its storage opened from AppConfig:Storage, its log to fd 2 at
//       AppConfig:Logging:Level, request lines on);
//       the parent points fd 2 at /dev/null, so a log line costs its formatting and its write;
//       `metrics: true|false` (else BENCH_METRICS=on|off, else the settings) sets
//       AppConfig:Observability:Metrics:Enabled; tracing stays off (no OTEL_* variable is passed);
//   { kind: 'bare', routes: [{ method, url, body, contentType, status, clock? }] } — a bare Fastify 5
//       app (no logger, no hooks) answering fixed bytes, or, with `clock`, the clock tool's answer.
// IPC: it sends { url } once listening; answers 'memory' with process.memoryUsage() after a full GC
// (when started with --expose-gc), 'cpu' with process.cpuUsage(), { heapSnapshot: path } by writing
// one, and 'close' by closing and exiting.
// The program is imported after the spec is read: Portcullis first holds the tick shape, as
// `portcullis serve` does before it loads (dist/src/cli/main.js, decision 3610); a tree without it
// (BENCH_BEFORE) starts as it did. The bare server does not (plain Fastify, as its users run it).
const spec = JSON.parse(process.argv[2]);
if (spec.kind === 'portcullis') {
  await import('../../dist/src/platform/runtime/index.js').then((runtime) => runtime.keepTickShape(), () => undefined);
}
const { default: Fastify } = await import('fastify');
const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
const { tmpdir } = await import('node:os');
const { writeHeapSnapshot } = await import('node:v8');
const { join } = await import('node:path');
const { buildApp } = await import('../../dist/src/app.js');
const { loadConfig } = await import('../../dist/src/platform/config/index.js');
const { pino } = await import('pino');
const log = await import('../../dist/src/platform/log/index.js');
const { createClockTool } = await import('../../dist/src/tools/builtin/clock/index.js');
const { systemClock } = await import('../../dist/src/platform/clock/index.js');
const { createStorage } = await import('../../dist/src/platform/storage/index.js');

let app;
let cleanup = async () => undefined;

if (spec.kind === 'portcullis') {
  const dir = await mkdtemp(join(tmpdir(), 'portcullis-bench-server-'));
  const file = join(dir, 'bench.json');
  const metrics = spec.metrics ?? { on: true, off: false }[process.env.BENCH_METRICS ?? ''];
  const settings = metrics === undefined ? spec.settings : { ...spec.settings, AppConfig: { ...spec.settings.AppConfig, Observability: { Metrics: { Enabled: metrics } } } };
  await writeFile(file, JSON.stringify(settings));
  const loaded = loadConfig({ cwd: dir, env: { PORTCULLIS_ENVIRONMENT: spec.environment ?? 'Production' }, configFiles: [file] });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  // As `portcullis serve` writes its log (builds before stderrLogDestination wrote synchronously to fd 2).
  const destination = log.stderrLogDestination?.() ?? pino.destination(2);
  const logger = log.createLogger({ level: loaded.config.logging.level, destination });
  // As `portcullis serve` opens it: Memory, or PostgreSQL (migrated) when the settings say so.
  const storage = await createStorage(loaded.config.storage, { clock: systemClock, log: { info: () => undefined, warn: () => undefined } });
  // buildApp answers { app, probe } since issue 21, the app itself before it (bench/ab.mjs runs older trees too).
  const built = await buildApp({ config: loaded.config, logger, storage });
  app = built.app ?? built;
  cleanup = async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  };
} else if (spec.kind === 'bare') {
  app = Fastify();
  const clock = createClockTool();
  for (const route of spec.routes) {
    app.route({
      method: route.method ?? 'GET',
      url: route.url,
      handler: route.clock
        ? async (request, reply) => {
            const started = Date.now();
            const result = await clock.invoke('now', request.body?.parameters ?? {}, { ownerId: 'bench', signal: new AbortController().signal });
            return reply.send({ tool: 'clock', operation: 'now', succeeded: result.ok, output: result.ok ? result.output : undefined, outputTruncated: false, durationMs: Date.now() - started });
          }
        : (_request, reply) => reply.code(route.status ?? 200).header('content-type', route.contentType ?? 'application/json; charset=utf-8').send(route.body),
    });
  }
} else {
  throw new Error(`unknown server kind ${spec.kind}`);
}

await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ url: `http://127.0.0.1:${app.server.address().port}` });
// A parent that dies (a benchmark that threw) takes its servers with it.
process.on('disconnect', () => process.exit(0));
process.on('message', async (message) => {
  if (message === 'memory') {
    globalThis.gc?.();
    globalThis.gc?.();
    process.send({ memory: process.memoryUsage() });
  } else if (typeof message === 'object' && message.heapSnapshot !== undefined) {
    process.send({ heapSnapshot: writeHeapSnapshot(message.heapSnapshot) });
  } else if (message === 'cpu') {
    process.send({ cpu: process.cpuUsage() });
  } else if (message === 'close') {
    await app.close();
    await cleanup();
    process.exit(0);
  }
});
