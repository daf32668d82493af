// `portcullis serve`: load and validate the configuration (exit 1 listing every problem), open the
// configured storage (exit 1 with one line naming the key when the database is unreachable), build
// the app, listen (exit 1 with a hint when the port is taken), print the URL and the start-up banner
// (startup-banner.ts; one JSON line when stdout is the log, decision 2701), and shut down on SIGINT/SIGTERM within 10 seconds: connections still open at
// the deadline are closed, and close hooks still hanging then are left behind (exit 1, said in a warn
// line), so a stuck dependency never keeps the process alive.
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/config/index.js';
import { createLogger, stderrLogDestination } from '../platform/log/index.js';
import { systemClock } from '../platform/clock/index.js';
import { StorageStartError, createStorage, type Storage } from '../platform/storage/index.js';
import { buildApp, type BuiltApp } from '../app.js';
import { PolicyLoadError } from '../policies/index.js';
import type { CommandIo } from './cli-io.js';
import { serviceStartedLine, startupBanner } from './startup-banner.js';
import { runnable } from './runnable.js';

export const SHUTDOWN_DEADLINE_MS = 10_000;
/** How long the banner waits for MCP servers to connect before calling them not connected. */
export const MCP_PROBE_MS = 5_000;

/** What tests replace: the app factory (to add a hanging close hook) and the shutdown deadline. */
export interface ServeOptions {
  readonly buildApp?: typeof buildApp;
  readonly shutdownDeadlineMs?: number;
}

export const SERVE_USAGE = [
  'usage: portcullis serve [--config FILE]... [--port N] [--host H]',
  '',
  'Serves the API. Configuration layers, later wins: built-in defaults, appsettings.json,',
  'appsettings.{PORTCULLIS_ENVIRONMENT}.json (default environment: Production), each --config FILE,',
  'then AppConfig__… environment variables.',
  '',
  'options:',
  '  --config FILE   a settings file laid over appsettings*.json; repeatable (default: none)',
  '  --port N        port to listen on; 0 picks a free one (default: $PORT, else 8080)',
  '  --host H        address to listen on (default: $HOST, else 127.0.0.1)',
  '  -h, --help      show this help',
].join('\n');

interface ServeArgs {
  readonly help?: true;
  readonly configFiles: string[];
  readonly port: number;
  readonly host: string;
}

function parseServeArgs(args: string[], env: CommandIo['env']): ServeArgs | string {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        config: { type: 'string', multiple: true },
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    return (error as Error).message;
  }
  if (parsed.values.help === true) return { help: true, configFiles: [], port: 0, host: '' };
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

export async function runServe(args: string[], io: CommandIo, options: ServeOptions = {}): Promise<number> {
  const parsed = parseServeArgs(args, io.env);
  if (typeof parsed === 'string') {
    io.stderr(`portcullis serve: ${parsed}\n${SERVE_USAGE}`);
    return 2;
  }
  if (parsed.help === true) {
    io.stdout(SERVE_USAGE);
    return 0;
  }
  const loaded = loadConfig({ cwd: io.cwd, env: io.env, configFiles: parsed.configFiles });
  if (!loaded.ok) {
    for (const problem of loaded.problems) io.stderr(problem);
    return 1;
  }
  const { config } = loaded;
  const logger = createLogger({ level: config.logging.level, maxStringLength: config.logging.maxStringLength, destination: stderrLogDestination() });
  for (const warning of loaded.warnings) logger.warn(warning);

  let storage: Storage;
  try {
    const log = { info: (o: object, m: string) => logger.info(o, m), warn: (o: object, m: string) => logger.warn(o, m) };
    storage = await createStorage(config.storage, { clock: systemClock, log });
  } catch (error) {
    if (!(error instanceof StorageStartError)) throw error;
    io.stderr(error.message);
    logger.flush();
    return 1;
  }

  let built: BuiltApp;
  try {
    built = await (options.buildApp ?? buildApp)({ config, logger, storage });
  } catch (error) {
    await storage.close();
    if (!(error instanceof PolicyLoadError)) throw error;
    // An invalid policy set (DESIGN §18): each file, line and Cedar's message, and no service.
    io.stderr(`portcullis serve: ${error.message}`);
    logger.flush();
    return 1;
  }
  const { app, probe } = built;
  try {
    await app.listen({ port: parsed.port, host: parsed.host });
  } catch (error) {
    await app.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
    io.stderr(
      code === 'EADDRINUSE'
        ? `portcullis serve: ${displayHost(parsed.host)}:${parsed.port} is already in use (is \`npm start\` or another portcullis running?); pick another port with --port N or PORT=N (--port 0 picks a free one)`
        : `portcullis serve: not allowed to listen on ${displayHost(parsed.host)}:${parsed.port}; pick a port above 1023 with --port N or PORT=N`,
    );
    return 1;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : parsed.port;
  const base = `http://${displayHost(parsed.host)}:${port}`;
  // Into a JSON log (`2>&1 | jq`) the banner goes as one JSON line once complete; otherwise the URL
  // line comes first, before the MCP probe, for the scripts that wait on it (decision 2701).
  const head = [`listening on ${base}`, `environment: ${config.environment}`];
  if (io.stdoutIsTheLog !== true) for (const line of head) io.stdout(line);
  const mcpServers = await probe.mcpServers(AbortSignal.timeout(MCP_PROBE_MS)).catch(() => ({}));
  const banner = [
    ...startupBanner(config, base, mcpServers),
    config.bundleExecution.auth.allowAnonymous
      ? `try: curl -s ${base}/api/capabilities`
      : `try: curl -s -H "Authorization: Bearer $(${runnable('token --sub alice')})" ${base}/api/capabilities`,
  ];
  if (io.stdoutIsTheLog === true) io.stdout(JSON.stringify(serviceStartedLine(config, base, [...head, ...banner])));
  else for (const line of banner) io.stdout(line);
  if (config.bundleExecution.auth.allowAnonymous) logger.warn({ event: 'auth.anonymous' }, 'anonymous mode is on: no bearer token is checked');

  // SIGHUP re-reads the policy files; an invalid set is refused (logged) and the one in force stays.
  const reload = (): void => {
    logger.info('SIGHUP: reloading the policy files');
    built.reload().catch((err: unknown) => logger.error({ err }, 'reloading the policy files failed'));
  };
  process.on('SIGHUP', reload);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  process.off('SIGHUP', reload);
  logger.info('shutting down');
  const deadlineMs = options.shutdownDeadlineMs ?? SHUTDOWN_DEADLINE_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  const closed = (async () => {
    await app.close();
    await storage.close();
    return 'closed' as const;
  })();
  const outcome = await Promise.race([closed, deadline]);
  clearTimeout(timer);
  if (outcome === 'deadline') {
    // Whatever still hangs is abandoned: the caller exits the process once this returns.
    logger.warn({ deadlineMs }, 'shutdown deadline reached; closing remaining connections and exiting without waiting for the rest');
    app.server.closeAllConnections();
    closed.catch(() => undefined);
    logger.flush();
    return 1;
  }
  logger.flush();
  return 0;
}
