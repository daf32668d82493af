// Plumbing for the multi-process fault tests (test/integration/lifecycle-sigterm, rolling-deploy,
// database-faults): real `portcullis serve` children on a real PostgreSQL, a fake OpenAI-compatible
// model in the test process that holds any prompt containing HOLD:<key> until the test releases that
// key (a prompt containing SLOW:<ms> is answered after that many ms, every other at once, always with
// `echo <prompt>`), JSON requests with a deadline,
// event-driven waits, workflow definitions, and the checks every fault test makes of its processes
// (exit code of a SIGTERM, no crash or unhandled rejection on stderr). Every process a cluster started
// is SIGKILLed by killAll() (call it in afterAll), whatever the test did.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startServe, type ServeProcess } from './cli-process.js';
import { freshPostgres, type FreshPostgres } from './postgres.js';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIServer, type FakeRequest, type FakeRequestBody } from './fake-openai-server.js';
import { buildZip } from '../fixtures/zip-builder.js';

const AGENT_MD = '---\nid: helper\nname: Helper\ndescription: A helpful test agent.\n---\nYou are a helpful test agent.\n';

/** What the instances connect to: a server's URL and a schema of their own. */
export interface ClusterDatabase {
  readonly connectionString: string;
  readonly schema: string;
}

/** The last user message of a model request. */
export const lastUser = (body: FakeRequestBody): string =>
  String((body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').at(-1)?.content ?? '');

/** The fake model: holds prompts containing HOLD:<key> until release(key); answers the rest at once. */
export class HoldingModel {
  readonly #gates = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  #server: FakeOpenAIServer | undefined;

  async start(): Promise<this> {
    this.#server = await startFakeOpenAIServer((body) => {
      const text = lastUser(body);
      const key = /HOLD:([\w-]+)/.exec(text)?.[1];
      const slowMs = Number(/SLOW:(\d+)/.exec(text)?.[1] ?? 0);
      if (key !== undefined) return { type: 'stream', steps: [{ until: this.#gate(key) }, { text: `echo ${text}` }] };
      return slowMs > 0 ? { type: 'stream', steps: [{ delayMs: slowMs }, { text: `echo ${text}` }] } : openAIText(`echo ${text}`);
    });
    return this;
  }

  get url(): string {
    return this.#server!.url;
  }

  get requests(): readonly FakeRequest[] {
    return this.#server!.requests;
  }

  /** Model requests whose last user message contains `text`. */
  requestsWith(text: string): FakeRequest[] {
    return this.requests.filter((request) => lastUser(request.body).includes(text));
  }

  asked(text: string): number {
    return this.requestsWith(text).length;
  }

  release(key: string): void {
    void this.#gate(key);
    this.#gates.get(key)!.resolve();
  }

  async close(): Promise<void> {
    for (const gate of this.#gates.values()) gate.resolve();
    await this.#server?.close();
  }

  #gate(key: string): Promise<void> {
    let gate = this.#gates.get(key);
    if (gate === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      gate = { promise, resolve };
      this.#gates.set(key, gate);
    }
    return gate.promise;
  }
}

/** One `portcullis serve` child. */
export interface Instance {
  readonly name: string;
  readonly url: string;
  readonly process: ServeProcess;
  /** Resolves with the exit code once the process has exited (null: killed by a signal). */
  readonly exited: Promise<number | null>;
  alive(): boolean;
  stderr(): string;
}

export interface ClusterOptions {
  readonly database: ClusterDatabase;
  readonly model: HoldingModel;
  /** RunLeaseTtl in whole seconds (1-59). */
  readonly leaseSeconds: number;
}

/** Instances of one test on one database schema, all killed by killAll(). */
export class Cluster {
  readonly #o: ClusterOptions;
  readonly instances: Instance[] = [];
  #dir: string | undefined;

  constructor(options: ClusterOptions) {
    this.#o = options;
  }

  /** The working directory: temp roots and the eval datasets (`datasets/`). */
  async dir(): Promise<string> {
    if (this.#dir === undefined) {
      this.#dir = await mkdtemp(join(tmpdir(), 'portcullis-faults-'));
      await mkdir(join(this.#dir, 'datasets'));
    }
    return this.#dir;
  }

  /** Writes dataset `<name>.jsonl`: one case per input, asserting the model's echo. */
  async dataset(name: string, inputs: readonly string[]): Promise<void> {
    const lines = inputs.map((input, i) => JSON.stringify({ id: `case-${i + 1}`, input, assert: [{ type: 'contains', value: 'echo' }] }));
    await writeFile(join(await this.dir(), 'datasets', `${name}.jsonl`), lines.join('\n'));
  }

  env(name: string, dir: string, extra: Record<string, string> = {}): Record<string, string> {
    const ai = 'AppConfig__AI__';
    const { database, model, leaseSeconds } = this.#o;
    return serveEnv({
      database,
      modelUrl: model.url,
      dir,
      tempRoot: join(dir, `temp-${name}`),
      leaseSeconds,
      // Each instance its own key: the fake model's request log tells which instance asked.
      apiKey: apiKeyOf(name),
      extra: {
        [`${ai}Evaluation__MaxActiveRunsPerOwner`]: '20',
        [`${ai}Workflows__MaxActiveRunsPerOwner`]: '50',
        [`${ai}Workflows__MaxDefinitionsPerOwner`]: '5000',
        ...extra,
      },
    });
  }

  /** Starts an instance and waits for its `listening on` line. */
  async serve(name: string, extra: Record<string, string> = {}): Promise<Instance> {
    const dir = await this.dir();
    const process = await startServe({ cwd: dir, env: this.env(name, dir, extra) });
    const { child } = process;
    const exited = new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
    const instance: Instance = {
      name,
      url: process.url,
      process,
      exited,
      alive: () => child.exitCode === null && child.signalCode === null,
      stderr: () => process.output().stderr,
    };
    this.instances.push(instance);
    return instance;
  }

  /** SIGTERM; resolves with the exit code (or 'hung' when it has not exited within `ms`). */
  async sigterm(instance: Instance, ms = 15_000): Promise<number | null | 'hung'> {
    instance.process.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([instance.exited, new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)))]);
    clearTimeout(timer);
    return outcome;
  }

  /** SIGKILLs every instance still running and removes the working directory. */
  async killAll(): Promise<void> {
    for (const instance of this.instances) if (instance.alive()) instance.process.child.kill('SIGKILL');
    await Promise.all(this.instances.map((instance) => instance.exited));
    if (this.#dir !== undefined) await rm(this.#dir, { recursive: true, force: true });
  }
}

/**
 * A test file's clusters, each on a fresh schema of the suite's PostgreSQL server, sharing one holding
 * model: registers the file's beforeAll (the model starts), afterEach (the test's processes SIGKILLed)
 * and afterAll (every process SIGKILLed, the model closed, the schemas dropped). Call at the top of the file.
 */
export function clustersOnSuitePostgres(leaseSeconds: number): { readonly model: HoldingModel; readonly cluster: (prefix: string) => Cluster } {
  const model = new HoldingModel();
  const clusters: Cluster[] = [];
  const databases: FreshPostgres[] = [];
  let sinceLastTest = 0;
  beforeAll(async () => {
    await model.start();
  });
  // A test's instances go with it, whatever it did: the next test starts on a quiet machine.
  afterEach(async () => {
    const created = clusters.slice(sinceLastTest);
    sinceLastTest = clusters.length;
    await Promise.all(created.map((cluster) => cluster.killAll()));
  });
  afterAll(async () => {
    await Promise.all(clusters.map((cluster) => cluster.killAll()));
    await model.close();
    await Promise.all(databases.map((database) => database.drop()));
  });
  return {
    model,
    cluster: (prefix) => {
      const database = freshPostgres(prefix);
      databases.push(database);
      const created = new Cluster({ database, model, leaseSeconds });
      clusters.push(created);
      return created;
    },
  };
}

/** Every instance: no crash and no unhandled rejection on its stderr (soft: the test goes on). */
export function expectNoCrash(instances: readonly Instance[]): void {
  for (const instance of instances) expect.soft(crashLines(instance.stderr()), `stderr of ${instance.name}`).toEqual([]);
}

export const apiKeyOf = (instanceName: string): string => `sk-${instanceName}`;

/** Which instance sent a model request (by its API key). */
export const askedBy = (request: FakeRequest): string => String(request.headers.authorization ?? '').replace(/^Bearer sk-/, '');

/** Lines of a process's stderr that show a crash or an unhandled rejection. */
export function crashLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /unhandled\s*(promise\s*)?rejection|UnhandledPromiseRejection|^Node\.js v\d+/i.test(line));
}

export interface Answer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

/** One JSON request; rejects on a network error or when no answer came within `timeoutMs`. */
export async function api(base: string, method: string, path: string, body?: unknown, timeoutMs = 10_000): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    signal: AbortSignal.timeout(timeoutMs),
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body: parsed };
}

/** Polls `read` every `everyMs` until `done`; throws with the last value at the deadline. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await sleep(everyMs);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const isStatus = (...statuses: string[]) => (answer: Answer) => statuses.includes(answer.body?.status as string);

export const FINAL = ['Succeeded', 'Failed', 'Cancelled'];

/** A linear workflow: `GATE` makes a HumanGate step, anything else an LlmCall with that prompt. */
export const chain = (name: string, ...steps: Array<[string, string]>) => ({
  name,
  steps: steps.map(([step, prompt]) =>
    prompt === 'GATE'
      ? { name: step, type: 'HumanGate', configuration: { type: 'HumanGate', message: 'Ship it?', timeout: '01:00:00' } }
      : { name: step, type: 'LlmCall', configuration: { type: 'LlmCall', prompt } },
  ),
  edges: steps.slice(1).map(([step], i) => ({ from: steps[i]![0], to: step, type: 'ControlFlow' })),
});

/** Submits a definition; its id. */
export async function submit(base: string, definition: unknown): Promise<string> {
  const res = await api(base, 'POST', '/api/workflows', definition);
  if (res.status !== 201) throw new Error(`submitting a workflow answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Starts a run; its status URL. */
export async function startWorkflow(base: string, workflowId: string): Promise<string> {
  const res = await api(base, 'POST', `/api/workflows/${workflowId}/runs`);
  if (res.status !== 202) throw new Error(`starting a workflow run answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.statusUrl as string;
}

/** The helper bundle as a multipart body. */
export function bundleForm(): FormData {
  const form = new FormData();
  form.set('file', new Blob([buildZip({ entries: [{ name: 'AGENT.md', data: AGENT_MD }] })]), 'helper.zip');
  return form;
}

/** Uploads the helper bundle; its handle. */
export async function register(base: string): Promise<string> {
  const res = await fetch(`${base}/api/bundles`, { method: 'POST', body: bundleForm(), signal: AbortSignal.timeout(10_000) });
  if (res.status !== 201) throw new Error(`uploading a bundle answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { handle: string }).handle;
}

export interface StreamFrame {
  readonly id: string | undefined;
  readonly data: { readonly type: string; readonly [key: string]: unknown };
}

/** How a workflow progress stream went: its frames, and whether it ended cleanly or with a network error. */
export interface StreamReading {
  readonly status: number;
  readonly frames: StreamFrame[];
  /** Raw `data:` payloads that were not JSON. */
  readonly unparsed: string[];
  ended: 'clean' | 'error' | 'open';
  error?: string;
  readonly done: Promise<void>;
}

/** Opens a workflow progress stream and reads it in the background until it ends. */
export async function openStream(url: string, headers: Record<string, string> = {}): Promise<StreamReading> {
  const res = await fetch(url, { headers });
  const reading: StreamReading = { status: res.status, frames: [], unparsed: [], ended: 'open', done: Promise.resolve() };
  if (res.status !== 200 || res.body === null) {
    reading.ended = 'clean';
    await res.text().catch(() => undefined);
    return reading;
  }
  const parser = createParser({
    onEvent: (event) => {
      try {
        reading.frames.push({ id: event.id, data: JSON.parse(event.data) as StreamFrame['data'] });
      } catch {
        reading.unparsed.push(event.data);
      }
    },
  });
  const decoder = new TextDecoder();
  const body = res.body;
  (reading as { done: Promise<void> }).done = (async () => {
    try {
      for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
      reading.ended = 'clean';
    } catch (error) {
      reading.ended = 'error';
      reading.error = String((error as Error).cause ?? error);
    }
  })();
  return reading;
}

/**
 * The environment of a `portcullis serve` child on a PostgreSQL schema: anonymous Development, every
 * family on, `clock` granted with Autonomous, datasets under `<dir>/datasets`, an OpenAI-compatible
 * model at `modelUrl`, generous rate limits (these tests poll often; the limits are not what they test).
 */
export function serveEnv(options: {
  readonly database: ClusterDatabase;
  readonly modelUrl: string;
  readonly dir: string;
  readonly tempRoot: string;
  readonly leaseSeconds: number;
  readonly apiKey: string;
  readonly extra?: Record<string, string>;
}): Record<string, string> {
  const ai = 'AppConfig__AI__';
  const { database, dir } = options;
  return {
    PORTCULLIS_ENVIRONMENT: 'Development',
    AppConfig__Logging__Level: 'warn',
    AppConfig__Storage__Provider: 'Postgres',
    AppConfig__Storage__Postgres__ConnectionString: database.connectionString,
    AppConfig__Storage__Postgres__Schema: database.schema,
    AppConfig__Storage__RunLeaseTtl: `00:00:${String(options.leaseSeconds).padStart(2, '0')}`,
    [`${ai}BundleExecution__Enabled`]: 'true',
    [`${ai}BundleExecution__TempRoot`]: options.tempRoot,
    [`${ai}BundleExecution__Auth__AllowAnonymous`]: 'true',
    [`${ai}BundleExecution__Auth__AnonymousRoles__0`]: 'Harness.Tools.Invoke',
    [`${ai}BundleExecution__Auth__AnonymousRoles__1`]: 'Harness.Evals.Execute',
    [`${ai}BundleExecution__Envelopes__Default__AllowedTools__0`]: 'clock',
    [`${ai}BundleExecution__Envelopes__Default__AutonomyCeiling`]: 'Autonomous',
    [`${ai}Evaluation__Enabled`]: 'true',
    [`${ai}Evaluation__DatasetRoots__0`]: join(dir, 'datasets'),
    [`${ai}ChatModel__Provider`]: 'OpenAI',
    [`${ai}ChatModel__Endpoint`]: `${options.modelUrl}/v1`,
    [`${ai}ChatModel__Model`]: 'fake',
    [`${ai}ChatModel__ApiKey`]: options.apiKey,
    ...Object.fromEntries(
      ['bundles-register', 'bundles-runs', 'bundles-poll', 'bundles-delete', 'workflows-write', 'workflows-read', 'evals-write', 'evals-read', 'tools-invoke'].map(
        (policy) => [`${ai}RateLimits__${policy}__PermitsPerMinute`, '1000000'],
      ),
    ),
    ...options.extra,
  };
}
