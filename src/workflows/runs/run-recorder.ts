// Turns engine reports into checkpoints of the run, committed in order on the storage's journal: each
// step change writes the step's item and a STEP event together; parking writes Blocked and a PARKED
// event (and gives the dispatch slot back while a person decides); resuming writes Running. Every
// commit is fenced by this instance's lease: when one is refused another instance owns the run, and
// `onLost` stops it here. The engine reports synchronously; commits run one after another behind it,
// and the changes reported while a commit is in flight go together in the next one (in order, each
// event with its own sequence number: a step's success and its successor's start are one checkpoint).
import { redactValue } from '../../platform/redaction/index.js';
import type { RecordKey } from '../../platform/storage/index.js';
import type { LaneSlot } from '../../runs/index.js';
import type { ExecutionObserver, StepChange } from '../engine/execution-observer.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import type { ApprovalDesk } from './approval-desk.js';
import type { RunStore } from './run-store.js';
import { PENDING_STEP, type RunEvent, type StepState, type WorkflowRunData } from './workflow-run.js';

export interface RunRecorderOptions {
  readonly runs: RunStore;
  readonly key: RecordKey;
  readonly holder: string;
  readonly desk: ApprovalDesk;
  readonly slot: LaneSlot | null;
  /** The run as stored when execution began here. */
  readonly data: WorkflowRunData;
  /** The newest event sequence when execution began here (this instance is the run's only writer). */
  readonly lastSeq: number;
  readonly steps: Map<string, StepState>;
  readonly onLost: () => void;
  readonly onError: (error: unknown) => void;
}

export class RunRecorder implements ExecutionObserver {
  readonly #o: RunRecorderOptions;
  #data: WorkflowRunData;
  #lastSeq: number;
  /** Checkpoints waiting for the commit in flight; the last one still takes further changes. */
  readonly #queue: Checkpoint[] = [];
  #draining: Promise<void> | null = null;

  constructor(options: RunRecorderOptions) {
    this.#o = options;
    this.#data = options.data;
    this.#lastSeq = options.lastSeq;
  }

  /** The run as this instance last recorded it. */
  get data(): WorkflowRunData {
    return this.#data;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  stepChanged(step: GraphStep, change: StepChange): void {
    const previous = this.#o.steps.get(step.id) ?? PENDING_STEP;
    const next = nextState(previous, change);
    this.#o.steps.set(step.id, next);
    let data: WorkflowRunData | undefined;
    if (change.status === 'Succeeded' && change.usage) {
      const usage = this.#data.usage;
      data = this.#data = { ...this.#data, usage: { inputTokens: usage.inputTokens + change.usage.inputTokens, outputTokens: usage.outputTokens + change.usage.outputTokens } };
    }
    this.#enqueue(step.id, next, stepEvent(step, next), data, false);
  }

  runBlocked(): void {
    if (this.#data.status !== 'Running') return;
    const approval = this.#o.desk.pending()[0];
    if (approval === undefined) return;
    this.#o.slot?.park();
    this.#data = { ...this.#data, status: 'Blocked' };
    this.#enqueue(null, null, { type: 'PARKED', approvalId: approval.approvalId, stepName: approval.stepName }, this.#data, true);
  }

  runResumed(): void {
    if (this.#data.status !== 'Blocked') return;
    this.#o.slot?.unpark();
    this.#data = { ...this.#data, status: 'Running', parkedSeq: null };
    this.#enqueue(null, null, null, this.#data, false);
  }

  /** Resolves once every checkpoint queued so far was committed (or refused). */
  drain(): Promise<void> {
    return this.#draining ?? Promise.resolve();
  }

  /** Queues a change; `data` (when given) becomes the record's data and state. */
  #enqueue(itemKey: string | null, item: StepState | null, event: RunEvent | null, data: WorkflowRunData | undefined, parked: boolean): void {
    let checkpoint = this.#queue.at(-1);
    // A parking checkpoint stands alone: its PARKED event's sequence number goes into the record.
    if (checkpoint === undefined || checkpoint.parked || parked) {
      checkpoint = { items: new Map(), events: [], data: undefined, parked };
      this.#queue.push(checkpoint);
    }
    if (itemKey !== null && item !== null) checkpoint.items.set(itemKey, item);
    if (event !== null) checkpoint.events.push(event);
    if (data !== undefined) checkpoint.data = data;
    this.#draining ??= this.#commitQueued();
  }

  /** Commits queued checkpoints one after another until none is left; starts after the reporting turn. */
  async #commitQueued(): Promise<void> {
    await Promise.resolve();
    for (let checkpoint = this.#queue.shift(); checkpoint !== undefined; checkpoint = this.#queue.shift()) {
      try {
        await this.#commit(checkpoint);
      } catch (error) {
        this.#o.onError(error);
      }
    }
    this.#draining = null;
  }

  async #commit(checkpoint: Checkpoint): Promise<void> {
    const { events, parked } = checkpoint;
    let data = checkpoint.data;
    if (parked && data !== undefined) {
      data = { ...data, parkedSeq: this.#lastSeq + events.length };
      this.#data = { ...this.#data, parkedSeq: data.parkedSeq };
    }
    const items: { key: string; data: StepState }[] = [];
    for (const [key, state] of checkpoint.items) items.push({ key, data: state });
    const record = { patch: data === undefined ? {} : { state: data.status, data }, guard: { leaseHolder: this.#o.holder } };
    const result = await this.#o.runs.commit(this.#o.key, items.length > 0 ? { items, events, record } : { events, record });
    if (!result.committed) {
      this.#o.onLost();
      return;
    }
    this.#lastSeq = result.seqs.at(-1) ?? this.#lastSeq;
  }
}

interface Checkpoint {
  /** Step id → its newest state (a step changed twice in one checkpoint is written once, as it ended). */
  readonly items: Map<string, StepState>;
  readonly events: RunEvent[];
  data: WorkflowRunData | undefined;
  readonly parked: boolean;
}

function stepEvent(step: GraphStep, next: StepState): RunEvent {
  const status = next.status;
  if (status === 'Succeeded') return { type: 'STEP', stepName: step.path, stepId: step.id, status, output: next.redacted };
  if (status !== 'Failed') return { type: 'STEP', stepName: step.path, stepId: step.id, status };
  return next.output !== null
    ? { type: 'STEP', stepName: step.path, stepId: step.id, status, output: next.redacted, error: next.error ?? '' }
    : { type: 'STEP', stepName: step.path, stepId: step.id, status, error: next.error ?? '' };
}

/** The step's next state, built as a literal (two per step of a run; spreads of it were measurable). */
function nextState(previous: StepState, change: StepChange): StepState {
  switch (change.status) {
    case 'Running':
      return withStatus(previous, 'Running', previous.startedAt ?? change.at, previous.completedAt);
    case 'Waiting':
      return withStatus(previous, 'Waiting', previous.startedAt, previous.completedAt);
    case 'Succeeded': {
      const output = change.output ?? null;
      const state: StepState = {
        status: 'Succeeded',
        startedAt: previous.startedAt,
        completedAt: change.at,
        output,
        redacted: output === null ? null : redactValue(output),
        error: null,
        usage: change.usage ?? null,
      };
      const take = change.take ?? previous.take;
      return take === undefined ? state : { ...state, take };
    }
    case 'Failed': {
      const output = change.output ?? null;
      const state: StepState = {
        status: 'Failed',
        startedAt: previous.startedAt,
        completedAt: change.at,
        output,
        redacted: output === null ? null : redactValue(output),
        error: change.error,
        usage: previous.usage,
      };
      return previous.take === undefined ? state : { ...state, take: previous.take };
    }
    case 'Skipped':
      return withStatus(previous, 'Skipped', previous.startedAt, change.at);
  }
}

function withStatus(previous: StepState, status: StepState['status'], startedAt: number | null, completedAt: number | null): StepState {
  const state: StepState = {
    status,
    startedAt,
    completedAt,
    output: previous.output,
    redacted: previous.redacted,
    error: previous.error,
    usage: previous.usage,
  };
  return previous.take === undefined ? state : { ...state, take: previous.take };
}
