// `portcullis dev-idp [--port N] [--host H] [--state DIR]`: runs the local provider until stopped; config
// lines as env vars on stdout (sourceable), status on stderr. The host it listens on is also the host in
// its issuer URL, so `--host NAME` serves a provider that other machines (containers) reach by NAME.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliIo } from './cli-io.js';
import { DEFAULT_STATE_DIR, stateFilePath } from './dev-idp-state.js';
import { startDevIdp, type DevIdp } from './start-dev-idp.js';
import { runnable } from '../runnable.js';

export const DEV_IDP_USAGE = [
  'usage: portcullis dev-idp [--port N] [--host H] [--state DIR]',
  '',
  'A local OpenID provider for development and tests. Prints the service configuration as',
  'environment-variable lines on stdout (redirect them to a file and source it), status on stderr,',
  'and runs until stopped (Ctrl-C).',
  '',
  'options:',
  '  --port N      port to listen on (default: the port of the last run, else a free one)',
  '  --host H      address or host name to listen on, also the host of the issuer URL, so callers',
  '                must reach it by that name (default: the host of the last run, else 127.0.0.1)',
  '  --state DIR   folder for the signing key and fixed tenant and client ids (default: .portcullis)',
  '  -h, --help    show this help',
].join('\n');
const AUTH_PREFIX = 'AppConfig__AI__BundleExecution__Auth__';

/** The environment-variable lines that point the service at this provider. */
export function devIdpConfigLines(idp: Pick<DevIdp, 'instance' | 'tenantId' | 'clientId'>): string[] {
  return [
    `${AUTH_PREFIX}Instance=${idp.instance}`,
    `${AUTH_PREFIX}TenantId=${idp.tenantId}`,
    `${AUTH_PREFIX}ClientId=${idp.clientId}`,
    `${AUTH_PREFIX}RequireHttpsMetadata=false`,
    `${AUTH_PREFIX}AllowAnonymous=false`,
  ];
}

export async function runDevIdp(args: string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: { port: { type: 'string' }, host: { type: 'string' }, state: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr(`portcullis dev-idp: ${(error as Error).message}\n${DEV_IDP_USAGE}`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(DEV_IDP_USAGE);
    return 0;
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
    if (!(port <= 65_535)) {
      io.stderr(`portcullis dev-idp: --port must be an integer from 0 to 65535, got '${values.port}'\n${DEV_IDP_USAGE}`);
      return 2;
    }
  }
  if (values.host !== undefined && values.host.trim() === '') {
    io.stderr(`portcullis dev-idp: --host must not be empty\n${DEV_IDP_USAGE}`);
    return 2;
  }
  const stateDir = resolve(io.cwd, values.state ?? DEFAULT_STATE_DIR);

  let idp: DevIdp;
  try {
    idp = await startDevIdp({ stateDir, persist: true, ...(port === undefined ? {} : { port }), ...(values.host === undefined ? {} : { host: values.host }) });
  } catch (error) {
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    io.stderr(`portcullis dev-idp: could not start: ${(error as Error).message}${inUse ? '; pick another port with --port N' : ''}`);
    return 1;
  }
  // The settings lines first: whoever waits for "listening on" may read them at once (`> idp.env`).
  for (const line of devIdpConfigLines(idp)) io.stdout(line);
  io.stderr(`dev identity provider listening on ${idp.url} (issuer ${idp.issuer})`);
  io.stderr(`state and signing key: ${stateFilePath(stateDir)}; mint a token with: ${runnable('token --sub alice')}`);

  await untilStopped(io.signal);
  await idp.close();
  return 0;
}

function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  if (signal !== undefined) {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
