// Shared plumbing of the eval integration tests: a service trusting a loopback identity provider with
// evaluation enabled over a temporary dataset root, dataset writers, a programmable chat model (gates,
// failures, hangs, clock moves) and a poll helper that waits for a run by yielding to the event loop —
// no timers, no sleeps.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTick } from 'node:timers/promises';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { ChatModelError, createScriptedModel, type ChatModel, type ChatRequest, type ChatStreamPart } from '../../src/models/index.js';
import type { ManualClock } from '../../src/platform/clock/index.js';
import { buildTestApp, merge, type TestApp, type TestAppOptions } from '../helpers/test-app.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';

export const EVALS = 'Harness.Evals.Execute';

export const GENEROUS_LIMITS = Object.fromEntries(
  ['evals-write', 'evals-read'].map((policy) => [policy, { PermitsPerMinute: 1_000_000 }]),
);

export const GRANT_ALL_SAFE = {
  AllowedTools: ['clock', 'calculator', 'json', 'text', 'knowledge', 'memory'],
  AutonomyCeiling: 'Autonomous',
};

export interface EvalHarness {
  readonly idp: DevIdp;
  readonly root: string;
  close(): Promise<void>;
}

export async function startEvalHarness(): Promise<EvalHarness> {
  const idp = await startTestIdp();
  const root = await mkdtemp(join(tmpdir(), 'portcullis-evals-'));
  return {
    idp,
    root,
    close: async () => {
      await idp.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Settings of a JWT-authenticated service with evaluation on over `roots`; `ai` is merged over them. */
export function evalSettings(harness: EvalHarness, ai: Record<string, unknown> = {}, roots: string[] = [harness.root]): Record<string, unknown> {
  return idpSettings(
    harness.idp,
    merge(
      {
        Evaluation: { Enabled: true, DatasetRoots: roots },
        RateLimits: GENEROUS_LIMITS,
        BundleExecution: { Envelopes: { Default: GRANT_ALL_SAFE } },
      },
      ai,
    ),
  );
}

export async function buildEvalApp(harness: EvalHarness, ai: Record<string, unknown> = {}, deps: TestAppOptions['deps'] = {}, roots?: string[]): Promise<TestApp> {
  return buildTestApp({ environment: 'Production', settings: evalSettings(harness, ai, roots), deps });
}

export async function tokenFor(harness: EvalHarness, sub: string, roles: string[] = [EVALS]): Promise<Record<string, string>> {
  return bearer(await harness.idp.mintToken({ sub, roles }));
}

/** Writes dataset files into `dir`; objects are written as JSON, strings as they are. */
export async function writeDatasets(dir: string, files: Record<string, string | object>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await writeFile(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

export function startRun(t: TestApp, headers: Record<string, string>, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/evals/runs',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

export function poll(t: TestApp, headers: Record<string, string>, jobId: string) {
  return t.app.inject({ method: 'GET', url: `/api/evals/runs/${jobId}`, headers });
}

export function junit(t: TestApp, headers: Record<string, string>, jobId: string) {
  return t.app.inject({ method: 'GET', url: `/api/evals/runs/${jobId}/report.xml`, headers });
}

const FINISHED = new Set(['Succeeded', 'Failed', 'Cancelled']);

/** A poll body as JSON; tests assert it field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted ad hoc in tests
export type RunBody = any;

/** Polls, yielding to the event loop in between, until the run has finished; returns the poll body. */
export async function untilFinished(t: TestApp, headers: Record<string, string>, jobId: string): Promise<RunBody> {
  for (let attempt = 0; attempt < 200_000; attempt += 1) {
    const res = await poll(t, headers, jobId);
    if (res.statusCode !== 200) throw new Error(`poll answered ${res.statusCode}: ${res.body}`);
    const body: RunBody = res.json();
    if (FINISHED.has(body.status)) return body;
    await nextTick();
  }
  throw new Error('the run did not finish');
}

/** Starts a run, expects 202 and waits for it to finish. */
export async function runToEnd(t: TestApp, headers: Record<string, string>, body: unknown): Promise<RunBody> {
  const res = await startRun(t, headers, body);
  if (res.statusCode !== 202) throw new Error(`start answered ${res.statusCode}: ${res.body}`);
  return untilFinished(t, headers, res.json().jobId);
}

export interface Gate {
  /** Resolves when a model call reached the gate. */
  readonly reached: Promise<void>;
  open(): void;
}

function gate(): Gate & { wait(): Promise<void>; arrive(): void } {
  let open!: () => void;
  let arrive!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  return { reached, open, arrive, wait: () => opened };
}

/** Fixed usage of every `reply:` answer, so cost assertions have exact figures. */
export const REPLY_USAGE = { inputTokens: 10, outputTokens: 5 };

/**
 * A chat model the tests steer by the last user message: an optional `gate:<name> ` prefix waits until
 * the test opens that gate, an optional `slow:<ms> ` prefix moves the manual clock, then `reply:<text>`
 * answers exactly <text>, `flip:<name>` answers heads and tails in turn, `fail` is a model failure,
 * `throw` a programming error, `hang` waits until aborted; everything else is the built-in Scripted
 * model (echo, `call <tool> <op> <json>`).
 */
export class SteerableModel implements ChatModel {
  readonly specificationVersion = 'portcullis-chat-v1' as const;
  readonly provider = 'Scripted' as const;
  readonly modelId = 'steerable';
  readonly #scripted = createScriptedModel();
  readonly #gates = new Map<string, ReturnType<typeof gate>>();
  readonly #flips = new Map<string, number>();
  readonly #activeWaiters: Array<{ count: number; resolve: () => void }> = [];
  readonly #clock: ManualClock | undefined;
  /** System prompts of the requests seen, in order. */
  readonly systemPrompts: string[] = [];
  active = 0;
  maxActive = 0;

  constructor(clock?: ManualClock) {
    this.#clock = clock;
  }

  gate(name: string): Gate {
    let entry = this.#gates.get(name);
    if (entry === undefined) {
      entry = gate();
      this.#gates.set(name, entry);
    }
    return entry;
  }

  /** Resolves once `count` model calls are in flight at the same time. */
  untilActive(count: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.active >= count) resolve();
      else this.#activeWaiters.push({ count, resolve });
    });
  }

  async *stream(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const system = request.messages.find((m) => m.role === 'system');
    this.systemPrompts.push(system?.content ?? '');
    const last = request.messages.findLast((m) => m.role === 'user')?.content ?? '';
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    for (const waiter of this.#activeWaiters.filter((w) => this.active >= w.count)) waiter.resolve();
    try {
      if (request.messages.at(-1)?.role === 'user') {
        let rest = last;
        const gated = /^gate:(\S+)\s*/.exec(rest);
        if (gated) {
          this.gate(gated[1]!);
          const entry = this.#gates.get(gated[1]!)!;
          entry.arrive();
          await entry.wait();
          rest = rest.slice(gated[0].length);
        }
        const slow = /^slow:(\d+)\s*/.exec(rest);
        if (slow) {
          this.#clock?.advance(Number(slow[1]));
          rest = rest.slice(slow[0].length);
        }
        if (rest === 'fail') throw new ChatModelError('unavailable', 'The chat model is unavailable.');
        if (rest === 'throw') throw new TypeError('a programming error inside the model adapter');
        if (rest === 'hang') {
          await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
          throw new ChatModelError('aborted', 'The chat model request was cancelled.');
        }
        const flip = /^flip:(\S+)/.exec(rest);
        const reply = /^reply:([\s\S]*)$/.exec(rest);
        if (flip || reply) {
          const turn = this.#flips.get(flip?.[1] ?? '') ?? 0;
          if (flip) this.#flips.set(flip[1]!, turn + 1);
          yield { type: 'text-delta', delta: reply ? reply[1]! : turn % 2 === 0 ? 'heads' : 'tails' };
          yield { type: 'finish', finishReason: 'stop', usage: REPLY_USAGE };
          return;
        }
      }
      yield* this.#scripted.stream(request);
    } finally {
      this.active -= 1;
    }
  }
}
