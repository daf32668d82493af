// `portcullis serve`: load and validate the configuration (exit 1 listing every problem), build the
// app, listen, print the URL, and shut down cleanly on SIGINT/SIGTERM within 10 seconds.
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config/index.js';
import { createLogger, stderrLogDestination } from '../platform/log/index.js';
import { buildApp } from '../app.js';
import type { CommandIo } from './cli-io.js';

export const SHUTDOWN_DEADLINE_MS = 10_000;

interface ServeArgs {
  readonly configFiles: string[];
  readonly port: number;
  readonly host: string;
}

function parseServeArgs(args: string[], env: CommandIo['env']): ServeArgs | string {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { config: { type: 'string', multiple: true }, port: { type: 'string' }, host: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    return (error as Error).message;
  }
  const portText = parsed.values.port ?? env.PORT ?? '8080';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  if (!Number.isInteger(port) || port > 65_535) return `--port must be an integer from 0 to 65535, got '${portText}'`;
  const host = parsed.values.host ?? env.HOST ?? '127.0.0.1';
  if (host.trim() === '') return '--host must not be empty';
  return { configFiles: parsed.values.config ?? [], port, host };
}

function displayHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function runServe(args: string[], io: CommandIo): Promise<number> {
  const parsed = parseServeArgs(args, io.env);
  if (typeof parsed === 'string') {
    io.stderr(`portcullis serve: ${parsed}`);
    return 2;
  }
  const loaded = loadConfig({ cwd: io.cwd, env: io.env, configFiles: parsed.configFiles });
  if (!loaded.ok) {
    for (const problem of loaded.problems) io.stderr(problem);
    return 1;
  }
  const { config } = loaded;
  const logger = createLogger({ level: config.logging.level, destination: stderrLogDestination() });
  for (const warning of loaded.warnings) logger.warn(warning);

  const app = await buildApp({ config, logger });
  await app.listen({ port: parsed.port, host: parsed.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : parsed.port;
  const base = `http://${displayHost(parsed.host)}:${port}`;
  io.stdout(`listening on ${base}`);
  io.stdout(`API reference: ${base}/docs (OpenAPI document: ${base}/openapi.json)`);
  io.stdout(`environment: ${config.environment}`);
  io.stdout(
    config.bundleExecution.auth.allowAnonymous
      ? `try: curl -s ${base}/api/capabilities`
      : `try: curl -s -H "Authorization: Bearer $(portcullis token --sub alice)" ${base}/api/capabilities`,
  );

  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  logger.info('shutting down');
  const deadline = setTimeout(() => {
    logger.warn({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown deadline reached; closing remaining connections');
    app.server.closeAllConnections();
  }, SHUTDOWN_DEADLINE_MS);
  deadline.unref();
  await app.close();
  clearTimeout(deadline);
  logger.flush();
  return 0;
}
