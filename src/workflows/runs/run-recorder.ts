// Turns engine reports into checkpoints of the run, committed in order on the storage's journal: each
// step change writes the step's item and a STEP event together; parking writes Blocked and a PARKED
// event (and gives the dispatch slot back while a person decides); resuming writes Running. Every
// commit is fenced by this instance's lease: when one is refused another instance owns the run, and
// `onLost` stops it here. The engine reports synchronously; commits run one at a time behind it, and
// what arrives while one is in flight goes out together in the next (group commit: one round trip
// for several checkpoints when the database is slower than the steps).
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
  #chain: Promise<void> = Promise.resolve();
  /** Checkpoints waiting for the commit in flight to finish. */
  #pending: PendingCheckpoint[] = [];
  #flushing = false;

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
    if (change.status === 'Succeeded' && change.usage) {
      const usage = this.#data.usage;
      this.#data = { ...this.#data, usage: { inputTokens: usage.inputTokens + change.usage.inputTokens, outputTokens: usage.outputTokens + change.usage.outputTokens } };
    }
    this.#enqueue({ items: [{ key: step.id, data: next }], events: [stepEvent(step, next)] }, change.status === 'Succeeded' && change.usage ? this.#data : undefined);
  }

  runBlocked(): void {
    if (this.#data.status !== 'Running') return;
    const approval = this.#o.desk.pending()[0];
    if (approval === undefined) return;
    this.#o.slot?.park();
    this.#data = { ...this.#data, status: 'Blocked' };
    this.#enqueue({ events: [{ type: 'PARKED', approvalId: approval.approvalId, stepName: approval.stepName } satisfies RunEvent] }, this.#data, true);
  }

  runResumed(): void {
    if (this.#data.status !== 'Blocked') return;
    this.#o.slot?.unpark();
    this.#data = { ...this.#data, status: 'Running', parkedSeq: null };
    this.#enqueue({}, this.#data);
  }

  /** Resolves once every checkpoint queued so far was committed (or refused). */
  drain(): Promise<void> {
    return this.#chain;
  }

  /** Queues a checkpoint; with `data` the record's data and state become the run as it is now. */
  #enqueue(change: { items?: { key: string; data: StepState }[]; events?: RunEvent[] }, data: WorkflowRunData | undefined, parked = false): void {
    this.#pending.push({ items: change.items ?? [], events: change.events ?? [], data: data !== undefined, parked });
    if (this.#flushing) return;
    this.#flushing = true;
    this.#chain = this.#flush().catch((error: unknown) => this.#o.onError(error));
  }

  /** Commits what is pending, in order, one merged commit at a time, until nothing is. */
  async #flush(): Promise<void> {
    try {
      // Starts after the reporting turn, so what the engine reports together goes out together: on a
      // storage that commits at once (Memory) a step's success and its successor's start are one commit.
      await Promise.resolve();
      while (this.#pending.length > 0) {
        const batch = this.#pending;
        this.#pending = [];
        const { items, events, parkedOffset, withData } = mergeCheckpoints(batch);
        // A PARKED this batch committed is where a re-attaching watcher is told the run waits.
        if (parkedOffset !== null && this.#data.status === 'Blocked') this.#data = { ...this.#data, parkedSeq: this.#lastSeq + parkedOffset };
        const record = { patch: withData ? { state: this.#data.status, data: this.#data } : {}, guard: { leaseHolder: this.#o.holder } };
        // Literals, not a conditional spread: this runs once per checkpoint of every workflow step.
        const result = await this.#o.runs.commit(this.#o.key, items.length > 0 ? { items, events, record } : { events, record });
        if (!result.committed) {
          this.#pending = [];
          this.#o.onLost();
          return;
        }
        this.#lastSeq = result.seqs.at(-1) ?? this.#lastSeq;
      }
    } finally {
      this.#flushing = false;
    }
  }
}

interface PendingCheckpoint {
  readonly items: { key: string; data: StepState }[];
  readonly events: RunEvent[];
  readonly data: boolean;
  readonly parked: boolean;
}

/**
 * One commit's worth of checkpoints, in order: every event (a PARKED one's offset in them kept), and
 * each step's item once, as it ended (a step that changed twice in one batch is written once).
 */
function mergeCheckpoints(batch: readonly PendingCheckpoint[]): {
  items: { key: string; data: StepState }[];
  events: RunEvent[];
  parkedOffset: number | null;
  withData: boolean;
} {
  if (batch.length === 1) {
    const only = batch[0]!;
    return { items: only.items, events: only.events, parkedOffset: only.parked ? only.events.length : null, withData: only.data };
  }
  const newest = new Map<string, StepState>();
  const events: RunEvent[] = [];
  let parkedOffset: number | null = null;
  let withData = false;
  for (const change of batch) {
    for (const item of change.items) newest.set(item.key, item.data);
    for (const event of change.events) events.push(event);
    if (change.parked) parkedOffset = events.length;
    if (change.data) withData = true;
  }
  const items: { key: string; data: StepState }[] = [];
  for (const [key, data] of newest) items.push({ key, data });
  return { items, events, parkedOffset, withData };
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
