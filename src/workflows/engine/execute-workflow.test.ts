// The DAG executor with a fake clock, fake timers, a fake gate keeper and fake step runners: join
// semantics, concurrency, skipping, failure, cancellation, gates and sub-plans, with no sleeps.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock/index.js';
import type { StepConfiguration, StepType } from '../definition/workflow-definition.js';
import type { ExecutionObserver, StepChange } from './execution-observer.js';
import { executeWorkflow, type EngineOptions } from './execute-workflow.js';
import type { GateKeeper, OpenGate } from './gate-keeper.js';
import { ManualTimers } from './manual-timers.js';
import { STEP_CANCELLED, STEP_STOPPED, STEP_UNEXPECTED } from './step-errors.js';
import type { ApprovalRequest, GateDecision, StepContext, StepOutcome, StepRunner, StepRunners } from './step-runner.js';
import type { GraphStep, WorkflowGraph } from './workflow-graph.js';

interface Spec {
  readonly name: string;
  readonly type?: StepType;
  readonly child?: WorkflowGraph;
}

/** A graph from step specs and `a>b` edges; the first step is the entry. */
function graph(specs: readonly Spec[], edges: readonly string[], prefix?: { id: string; path: string }): WorkflowGraph {
  const index = new Map(specs.map((s, i) => [s.name, i]));
  const successors = specs.map(() => [] as number[]);
  const counts = specs.map(() => 0);
  for (const edge of edges) {
    const [from, to] = edge.split('>') as [string, string];
    successors[index.get(from)!]!.push(index.get(to)!);
    counts[index.get(to)!]! += 1;
  }
  const steps = specs.map(
    (s, i): GraphStep => ({
      index: i,
      id: prefix ? `${prefix.id}/${s.name}` : s.name,
      name: s.name,
      path: prefix ? `${prefix.path}/${s.name}` : s.name,
      type: s.type ?? 'ToolUse',
      configuration: { type: s.type ?? 'ToolUse' } as unknown as StepConfiguration,
      successors: successors[i]!,
      predecessorCount: counts[i]!,
      ...(s.child ? { child: s.child } : {}),
    }),
  );
  return { steps, entry: 0, input: {} };
}

/** Runners whose outcomes the test decides, step by step. */
class Script {
  readonly started: string[] = [];
  readonly signals = new Map<string, AbortSignal>();
  readonly #pending = new Map<string, (outcome: StepOutcome) => void>();
  readonly contexts = new Map<string, StepContext>();

  runner: StepRunner = (context) => {
    this.started.push(context.step.path);
    this.signals.set(context.step.path, context.signal);
    this.contexts.set(context.step.path, context);
    return new Promise<StepOutcome>((resolve, reject) => {
      this.#pending.set(context.step.path, resolve);
      context.signal.addEventListener('abort', () => reject(context.signal.reason as Error), { once: true });
    });
  };

  finish(path: string, outcome: StepOutcome = { ok: true, output: `${path}-out` }): void {
    const resolve = this.#pending.get(path);
    if (resolve === undefined) throw new Error(`${path} is not running`);
    this.#pending.delete(path);
    resolve(outcome);
  }

  running(): string[] {
    return [...this.#pending.keys()];
  }
}

class Recorder implements ExecutionObserver {
  readonly events: string[] = [];
  readonly changes: Array<{ path: string; change: StepChange }> = [];
  stepChanged(step: GraphStep, change: StepChange): void {
    this.events.push(`${step.path}:${change.status}`);
    this.changes.push({ path: step.path, change });
  }
  runBlocked(): void {
    this.events.push('BLOCKED');
  }
  runResumed(): void {
    this.events.push('RESUMED');
  }
  statusOf(path: string): string | undefined {
    return [...this.changes].reverse().find((c) => c.path === path)?.change.status;
  }
}

class Gates implements GateKeeper {
  readonly open_: Array<{ step: string; message: string; deadline: number | undefined; decide: (d: GateDecision) => void; expired: boolean }> = [];
  constructor(private readonly now: () => number) {}
  async open(step: GraphStep, request: ApprovalRequest): Promise<OpenGate> {
    let decide!: (d: GateDecision) => void;
    const decided = new Promise<GateDecision>((resolve) => (decide = resolve));
    const deadline = request.timeoutMs === undefined ? undefined : this.now() + request.timeoutMs;
    const entry = { step: step.path, message: request.message, deadline, decide, expired: false };
    this.open_.push(entry);
    return {
      approvalId: `approval-${this.open_.length}`,
      deadline,
      decided,
      expire: () => {
        entry.expired = true;
        decide({ decision: 'Reject', comment: null, timedOut: true });
      },
    };
  }
}

const gateRunner: StepRunner = async (context) => {
  const decision = await context.awaitApproval({ message: `approve ${context.step.name}?`, timeoutMs: 60_000 });
  return decision.decision === 'Approve' ? { ok: true, output: decision } : { ok: false, error: 'rejected', output: decision };
};

const subPlanRunner: StepRunner = async (context) => {
  const outcome = await context.runChild(context.step.child!, context.input);
  return outcome.status === 'Succeeded' ? { ok: true, output: outcome.outputs } : { ok: false, error: `child ${outcome.status}` };
};

function setup(overrides: Partial<Record<StepType, StepRunner>> = {}, replay?: EngineOptions['replay'], draining?: AbortSignal) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const timers = new ManualTimers(clock);
  const script = new Script();
  const recorder = new Recorder();
  const gates = new Gates(() => clock.now());
  const runnerErrors: unknown[] = [];
  const runners: StepRunners = {
    LlmCall: script.runner,
    ToolUse: script.runner,
    RetrievalPlan: script.runner,
    ConditionalBranch: script.runner,
    HumanGate: gateRunner,
    SubPlanInvocation: subPlanRunner,
    ...overrides,
  };
  const options: EngineOptions = {
    runners,
    clock,
    timers,
    gates,
    observer: recorder,
    onRunnerError: (_s, e) => runnerErrors.push(e),
    ...(replay === undefined ? {} : { replay }),
    ...(draining === undefined ? {} : { draining }),
  };
  const controller = new AbortController();
  const run = (g: WorkflowGraph) => executeWorkflow(g, { topic: 'x' }, controller.signal, options);
  return { clock, timers, script, recorder, gates, controller, run, runnerErrors };
}

/** Lets promise callbacks settle (microtasks only; no timers involved). */
async function flush(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}

describe('executeWorkflow', () => {
  it('resumes from checkpoints: a recorded step settles with its output unreported and is never run again', async () => {
    const recorded = new Map<string, StepOutcome>([
      ['a', { ok: true, output: 'a-recorded' }],
      ['sub/x', { ok: true, output: 'x-recorded' }],
    ]);
    const { script, recorder, run } = setup({}, (step) => recorded.get(step.id));
    const child = graph([{ name: 'x' }, { name: 'y' }], ['x>y'], { id: 'sub', path: 'sub' });
    const outcome = run(graph([{ name: 'a' }, { name: 'sub', type: 'SubPlanInvocation', child }, { name: 'c' }], ['a>sub', 'sub>c']));
    await flush();
    expect(script.running()).toEqual(['sub/y']);
    expect(script.contexts.get('sub/y')!.steps.x).toEqual({ status: 'Succeeded', output: 'x-recorded' });
    script.finish('sub/y');
    await flush();
    expect(script.contexts.get('c')!.steps.a).toEqual({ status: 'Succeeded', output: 'a-recorded' });
    script.finish('c');
    await expect(outcome).resolves.toMatchObject({ status: 'Succeeded' });
    expect(script.started).toEqual(['sub/y', 'c']);
    expect(recorder.events.filter((e) => e.startsWith('a:') || e.startsWith('sub/x:'))).toEqual([]);
  });

  it('takes the branch a replayed ConditionalBranch recorded', async () => {
    const { script, run } = setup({}, (step) => (step.name === 'if' ? { ok: true, output: false, take: ['no'] } : undefined));
    const outcome = run(graph([{ name: 'if', type: 'ConditionalBranch' }, { name: 'yes' }, { name: 'no' }], ['if>yes', 'if>no']));
    await flush();
    expect(script.running()).toEqual(['no']);
    script.finish('no');
    await expect(outcome).resolves.toMatchObject({ status: 'Succeeded', outputs: { if: false, yes: null, no: 'no-out' } });
  });

  it('runs a chain in order and hands each step the outputs of the steps before it', async () => {
    const { script, recorder, run } = setup();
    const outcome = run(graph([{ name: 'a' }, { name: 'b' }, { name: 'c' }], ['a>b', 'b>c']));
    expect(script.running()).toEqual(['a']);
    script.finish('a');
    await flush();
    expect(script.running()).toEqual(['b']);
    expect(script.contexts.get('b')!.steps.a).toEqual({ status: 'Succeeded', output: 'a-out' });
    script.finish('b');
    await flush();
    script.finish('c');
    await expect(outcome).resolves.toEqual({ status: 'Succeeded', outputs: { a: 'a-out', b: 'b-out', c: 'c-out' } });
    expect(recorder.events).toEqual(['a:Running', 'a:Succeeded', 'b:Running', 'b:Succeeded', 'c:Running', 'c:Succeeded']);
  });

  it('starts independent branches together and joins only once every predecessor has settled', async () => {
    const { script, run } = setup();
    const outcome = run(graph([{ name: 'a' }, { name: 'left' }, { name: 'right' }, { name: 'join' }], ['a>left', 'a>right', 'left>join', 'right>join']));
    script.finish('a');
    await flush();
    expect(script.running()).toEqual(['left', 'right']);
    script.finish('right');
    await flush();
    expect(script.running()).toEqual(['left']);
    script.finish('left');
    await flush();
    expect(script.running()).toEqual(['join']);
    script.finish('join');
    expect((await outcome).status).toBe('Succeeded');
  });

  it('skips the untaken branch, propagates the skip, and still runs a join one predecessor reached', async () => {
    const { script, recorder, run } = setup();
    const g = graph(
      [{ name: 'check', type: 'ConditionalBranch' }, { name: 'yes' }, { name: 'no' }, { name: 'after-no' }, { name: 'join' }],
      ['check>yes', 'check>no', 'no>after-no', 'yes>join', 'after-no>join'],
    );
    const outcome = run(g);
    script.finish('check', { ok: true, output: true, take: ['yes'] });
    await flush();
    expect(recorder.statusOf('no')).toBe('Skipped');
    expect(recorder.statusOf('after-no')).toBe('Skipped');
    expect(script.running()).toEqual(['yes']);
    script.finish('yes');
    await flush();
    script.finish('join');
    const result = await outcome;
    expect(result).toMatchObject({ status: 'Succeeded', outputs: { check: true, no: null, 'after-no': null } });
    expect(script.started).not.toContain('no');
  });

  it('skips a join that no taken branch reaches', async () => {
    const { script, recorder, run } = setup();
    const outcome = run(graph([{ name: 'check' }, { name: 'yes' }, { name: 'no' }, { name: 'only-no' }], ['check>yes', 'check>no', 'no>only-no']));
    script.finish('check', { ok: true, output: true, take: ['yes'] });
    await flush();
    script.finish('yes');
    expect((await outcome).status).toBe('Succeeded');
    expect(recorder.statusOf('only-no')).toBe('Skipped');
  });

  it('fails the run on the first failed step, aborts the running siblings and starts nothing more', async () => {
    const { script, recorder, run } = setup();
    const outcome = run(graph([{ name: 'a' }, { name: 'bad' }, { name: 'slow' }, { name: 'next' }], ['a>bad', 'a>slow', 'bad>next', 'slow>next']));
    script.finish('a');
    await flush();
    script.finish('bad', { ok: false, error: 'boom' });
    const result = await outcome;
    expect(result).toMatchObject({ status: 'Failed', error: 'boom', step: { name: 'bad' } });
    expect(script.signals.get('slow')!.aborted).toBe(true);
    expect(recorder.changes.find((c) => c.path === 'slow' && c.change.status === 'Failed')!.change).toMatchObject({ error: STEP_STOPPED });
    expect(script.started).not.toContain('next');
  });

  it('cancels through the abort signal, which reaches every running step', async () => {
    const { script, recorder, run, controller } = setup();
    const outcome = run(graph([{ name: 'a' }, { name: 'b' }, { name: 'c' }], ['a>b', 'a>c']));
    script.finish('a');
    await flush();
    controller.abort();
    await expect(outcome).resolves.toEqual({ status: 'Cancelled' });
    expect(script.signals.get('b')!.aborted).toBe(true);
    expect(script.signals.get('c')!.aborted).toBe(true);
    expect(recorder.changes.filter((c) => c.change.status === 'Failed').map((c) => c.change)).toEqual([
      expect.objectContaining({ error: STEP_CANCELLED }),
      expect.objectContaining({ error: STEP_CANCELLED }),
    ]);
  });

  it('reports a runner that throws as a generic step failure and tells the host', async () => {
    const { run, runnerErrors } = setup({ ToolUse: () => Promise.reject(new Error('secret detail')) });
    const result = await run(graph([{ name: 'a' }], []));
    expect(result).toMatchObject({ status: 'Failed', error: STEP_UNEXPECTED });
    expect(runnerErrors).toHaveLength(1);
  });

  it('parks on a gate when nothing else runs and resumes on approval', async () => {
    const { script, recorder, gates, run } = setup();
    const outcome = run(graph([{ name: 'a' }, { name: 'gate', type: 'HumanGate' }, { name: 'b' }], ['a>gate', 'gate>b']));
    script.finish('a');
    await flush();
    expect(recorder.events.slice(-3)).toEqual(['gate:Running', 'gate:Waiting', 'BLOCKED']);
    expect(gates.open_[0]).toMatchObject({ step: 'gate', message: 'approve gate?', deadline: Date.UTC(2026, 0, 1) + 60_000 });
    gates.open_[0]!.decide({ decision: 'Approve', comment: 'ok', timedOut: false });
    await flush();
    expect(recorder.events.slice(-4)).toEqual(['gate:Running', 'RESUMED', 'gate:Succeeded', 'b:Running']);
    script.finish('b');
    expect((await outcome).status).toBe('Succeeded');
  });

  it('does not park while another branch is still running, only once it settles', async () => {
    const { script, recorder, gates, run } = setup();
    const outcome = run(graph([{ name: 'a' }, { name: 'gate', type: 'HumanGate' }, { name: 'work' }], ['a>gate', 'a>work']));
    script.finish('a');
    await flush();
    expect(recorder.events).not.toContain('BLOCKED');
    script.finish('work');
    await flush();
    expect(recorder.events.filter((e) => e === 'BLOCKED')).toHaveLength(1);
    gates.open_[0]!.decide({ decision: 'Reject', comment: 'no', timedOut: false });
    expect(await outcome).toMatchObject({ status: 'Failed', error: 'rejected', step: { name: 'gate' } });
  });

  it('expires a gate at its deadline as a rejection, on the injected timers', async () => {
    const { timers, gates, run } = setup();
    const outcome = run(graph([{ name: 'gate', type: 'HumanGate' }], []));
    await flush();
    timers.advance(59_999);
    await flush();
    expect(gates.open_[0]!.expired).toBe(false);
    timers.advance(1);
    await expect(outcome).resolves.toMatchObject({ status: 'Failed', error: 'rejected' });
    expect(gates.open_[0]!.expired).toBe(true);
    expect(timers.pending).toBe(0);
  });

  it('releases the gate timer once the gate is decided', async () => {
    const { timers, gates, run } = setup();
    const outcome = run(graph([{ name: 'gate', type: 'HumanGate' }], []));
    await flush();
    expect(timers.pending).toBe(1);
    gates.open_[0]!.decide({ decision: 'Approve', comment: null, timedOut: false });
    await outcome;
    expect(timers.pending).toBe(0);
  });

  it('cancels a parked run without waiting for its gate', async () => {
    const { run, controller } = setup();
    const outcome = run(graph([{ name: 'gate', type: 'HumanGate' }], []));
    await flush();
    controller.abort();
    await expect(outcome).resolves.toEqual({ status: 'Cancelled' });
  });

  it('runs a sub-plan as part of its step, reporting child steps under the step’s path', async () => {
    const { script, recorder, run } = setup();
    const child = graph([{ name: 'x' }, { name: 'y' }], ['x>y'], { id: 'sub', path: 'sub' });
    const outcome = run(graph([{ name: 'a' }, { name: 'sub', type: 'SubPlanInvocation', child }], ['a>sub']));
    script.finish('a');
    await flush();
    expect(script.running()).toEqual(['sub/x']);
    script.finish('sub/x');
    await flush();
    script.finish('sub/y');
    const result = await outcome;
    expect(result).toEqual({ status: 'Succeeded', outputs: { a: 'a-out', sub: { x: 'sub/x-out', y: 'sub/y-out' } } });
    expect(recorder.events).toEqual([
      'a:Running', 'a:Succeeded', 'sub:Running', 'sub/x:Running', 'sub/x:Succeeded', 'sub/y:Running', 'sub/y:Succeeded', 'sub:Succeeded',
    ]);
  });

  it('parks on a gate inside a sub-plan and fails the parent when a child step fails', async () => {
    const { recorder, gates, run } = setup();
    const child = graph([{ name: 'gate', type: 'HumanGate' }], [], { id: 'sub', path: 'sub' });
    const outcome = run(graph([{ name: 'sub', type: 'SubPlanInvocation', child }], []));
    await flush();
    expect(recorder.events).toContain('BLOCKED');
    gates.open_[0]!.decide({ decision: 'Reject', comment: null, timedOut: false });
    expect(await outcome).toMatchObject({ status: 'Failed', error: 'child Failed', step: { name: 'sub' } });
    expect(recorder.statusOf('sub/gate')).toBe('Failed');
  });

  it('stops a running sub-plan when a sibling of its step fails, saying so', async () => {
    const { script, recorder, run } = setup();
    const child = graph([{ name: 'x' }], [], { id: 'sub', path: 'sub' });
    const outcome = run(graph([{ name: 'a' }, { name: 'sub', type: 'SubPlanInvocation', child }, { name: 'bad' }], ['a>sub', 'a>bad']));
    script.finish('a');
    await flush();
    script.finish('bad', { ok: false, error: 'boom' });
    expect(await outcome).toMatchObject({ status: 'Failed', error: 'boom' });
    expect(recorder.changes.find((c) => c.path === 'sub/x' && c.change.status === 'Failed')!.change).toMatchObject({ error: STEP_STOPPED });
  });

  it('stamps every change with the injected clock', async () => {
    const { clock, script, recorder, run } = setup();
    const outcome = run(graph([{ name: 'a' }], []));
    clock.advance(1_500);
    script.finish('a');
    await outcome;
    expect(recorder.changes.map((c) => c.change.at)).toEqual([Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1_500]);
  });

  describe('draining (the host stopping gracefully)', () => {
    it('finishes the steps in flight, starts none, and resolves Interrupted once nothing runs', async () => {
      const drain = new AbortController();
      const { script, recorder, run } = setup({}, undefined, drain.signal);
      const outcome = run(graph([{ name: 'a' }, { name: 'b' }, { name: 'c' }], ['a>b', 'b>c']));
      await flush();
      drain.abort();
      await flush();
      expect(script.running()).toEqual(['a']);
      script.finish('a');
      expect(await outcome).toEqual({ status: 'Interrupted' });
      expect(script.started).toEqual(['a']);
      expect(recorder.events).toEqual(['a:Running', 'a:Succeeded']);
    });

    it('resolves Interrupted at once when only a gate waits, leaving the gate undecided', async () => {
      const drain = new AbortController();
      const { gates, recorder, run } = setup({}, undefined, drain.signal);
      const outcome = run(graph([{ name: 'gate', type: 'HumanGate' }, { name: 'after' }], ['gate>after']));
      await flush();
      expect(gates.open_).toHaveLength(1);
      drain.abort();
      expect(await outcome).toEqual({ status: 'Interrupted' });
      expect(recorder.events).not.toContain('gate:Failed');
    });

    it('stops the gate an interrupted graph left waiting once the run\'s signal aborts: its deadline never expires it', async () => {
      const drain = new AbortController();
      const { gates, recorder, run, controller, timers } = setup({}, undefined, drain.signal);
      const outcome = run(graph([{ name: 'gate', type: 'HumanGate' }, { name: 'after' }], ['gate>after']));
      await flush();
      drain.abort();
      expect(await outcome).toEqual({ status: 'Interrupted' });
      // The run parks (or is handed over): its signal stops what still waits in the graph.
      controller.abort(new DOMException('parked', 'AbortError'));
      await flush();
      expect(timers.pending, 'the deadline timer was let go').toBe(0);
      timers.advance(120_000);
      await flush();
      expect(gates.open_[0]!.expired).toBe(false);
      expect(recorder.events).not.toContain('after:Running');
    });

    it('completes as usual when the graph finishes during the drain without holding a step', async () => {
      const drain = new AbortController();
      const { script, run } = setup({}, undefined, drain.signal);
      const outcome = run(graph([{ name: 'a' }], []));
      await flush();
      drain.abort();
      script.finish('a');
      expect(await outcome).toMatchObject({ status: 'Succeeded' });
    });

    it('leaves no listener on the drain signal once the graph completes, so nothing holds the finished graph', async () => {
      // The executor's drain signal is an AbortSignal.any of the host's and the run's: one with an
      // abort listener is kept alive with its sources, and the listener would keep every step's output.
      const host = new AbortController();
      const drain = AbortSignal.any([host.signal]);
      const { script, run } = setup({}, undefined, drain);
      const outcome = run(graph([{ name: 'a' }, { name: 'b' }], ['a>b']));
      await flush();
      expect(getEventListeners(drain, 'abort')).toHaveLength(1);
      script.finish('a');
      await flush();
      script.finish('b');
      expect(await outcome).toMatchObject({ status: 'Succeeded' });
      expect(getEventListeners(drain, 'abort')).toHaveLength(0);
    });

    it('leaves no listener on the drain signal when the graph fails or is cancelled', async () => {
      for (const end of ['fail', 'cancel'] as const) {
        const drain = new AbortController();
        const { script, run, controller } = setup({}, undefined, drain.signal);
        const outcome = run(graph([{ name: 'a' }], []));
        await flush();
        if (end === 'fail') script.finish('a', { ok: false, error: 'boom' });
        else controller.abort();
        expect(await outcome).toMatchObject({ status: end === 'fail' ? 'Failed' : 'Cancelled' });
        expect(getEventListeners(drain.signal, 'abort'), end).toHaveLength(0);
      }
    });
  });
});
