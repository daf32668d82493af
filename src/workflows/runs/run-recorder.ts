// Turns engine reports into checkpoints of the run, committed in order through the live run (so each
// is fenced by this instance's lease, and none is written once the run engine fenced the run): each
// step change writes the step's item and a STEP event together; parking writes Blocked and a PARKED
// event (and gives the dispatch slot back while a person decides); resuming writes Running. A run
// resumed here while Blocked (after a takeover) re-opens its waiting gate: that re-opening — the
// gate's Running and Waiting again, the park — writes nothing, so the run stays Blocked as stored
// until its gate is answered or something else happens. The
// engine reports synchronously; commits run one at a time behind it, and what arrives while one is in
// flight goes out together in the next (group commit: one round trip for several checkpoints when
// the database is slower than the steps).
import { redactValueOrSame } from '../../platform/redaction/index.js';
import type { LiveRun } from '../../runs/index.js';
import type { OutboxEntry } from '../../platform/storage/index.js';
import type { ExecutionObserver, StepChange } from '../engine/execution-observer.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import type { ApprovalDesk } from './approval-desk.js';
import { PENDING_STEP, type RunEvent, type StepState, type WorkflowRunData } from './workflow-run.js';

export interface RunRecorderOptions {
  readonly live: LiveRun<WorkflowRunData>;
  readonly desk: ApprovalDesk;
  /** The run as stored when execution began here. */
  readonly data: WorkflowRunData;
  /** The newest event sequence when execution began here (this instance is the run's only writer). */
  readonly lastSeq: number;
  readonly steps: Map<string, StepState>;
  /** The outbox a commit that makes the run Blocked writes (workflow.run.blocked). */
  readonly blocked: (run: WorkflowRunData) => Promise<readonly OutboxEntry[]>;
  readonly onError: (error: unknown) => void;
}

/** What a finished recording had not committed yet: the run's final commit writes it. */
export interface RecordedTail {
  readonly items: readonly { readonly key: string; readonly data: StepState }[];
  readonly events: readonly RunEvent[];
}

export class RunRecorder implements ExecutionObserver {
  readonly #options: RunRecorderOptions;
  #data: WorkflowRunData;
  #lastSeq: number;
  #chain: Promise<void> = Promise.resolve();
  // What the next commit writes, gathered as the engine reports (group commit). Each step's item as
  // it is now (a step that changed twice before the commit is written once), every event in order,
  // where a PARKED event sits among them, and whether the record's data goes too.
  #items = new Map<string, StepState>();
  #events: RunEvent[] = [];
  #parkedOffset: number | null = null;
  #withData = false;
  #flushing = false;
  #finishing = false;
  /** A step ended since the last commit began. */
  #stepEnded = false;
  /** Gates stored Waiting and not reported yet in this execution: the first report of one is its re-opening. */
  readonly #storedWaiting = new Set<string>();
  readonly #reopening = new Set<string>();

  constructor(options: RunRecorderOptions) {
    this.#options = options;
    this.#data = options.data;
    this.#lastSeq = options.lastSeq;
    for (const [id, state] of options.steps) if (state.status === 'Waiting') this.#storedWaiting.add(id);
  }

  /** The run as this instance last recorded it. */
  get data(): WorkflowRunData {
    return this.#data;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  stepChanged(step: GraphStep, change: StepChange): void {
    const previous = this.#options.steps.get(step.id) ?? PENDING_STEP;
    // A gate stored Waiting, launched again by this execution, then waiting again: unchanged, not written.
    if (previous.status === 'Waiting') {
      const first = this.#storedWaiting.delete(step.id);
      if ((first && change.status === 'Running') || (this.#reopening.has(step.id) && change.status === 'Waiting')) {
        if (change.status === 'Running') this.#reopening.add(step.id);
        else this.#reopening.delete(step.id);
        return;
      }
    } else if (this.#storedWaiting.size > 0) {
      this.#storedWaiting.delete(step.id);
    }
    if (this.#reopening.size > 0) this.#reopening.delete(step.id);
    const next = nextState(previous, change);
    this.#options.steps.set(step.id, next);
    this.#items.set(step.id, next);
    this.#events.push(stepEvent(step, next));
    if (next.status === 'Succeeded' || next.status === 'Failed' || next.status === 'Skipped') this.#stepEnded = true;
    if (change.status === 'Succeeded' && change.usage) {
      const usage = this.#data.usage;
      this.#data = { ...this.#data, usage: { inputTokens: usage.inputTokens + change.usage.inputTokens, outputTokens: usage.outputTokens + change.usage.outputTokens } };
      this.#withData = true;
    }
    this.#schedule();
  }

  runBlocked(): void {
    // Parked again on the gate it was parked on when this execution began: nothing to write, the slot goes back.
    if (this.#data.status === 'Blocked') this.#options.live.slot?.park();
    if (this.#data.status !== 'Running') return;
    const approval = this.#options.desk.pending()[0];
    if (approval === undefined) return;
    this.#options.live.slot?.park();
    this.#data = { ...this.#data, status: 'Blocked' };
    this.#events.push({ type: 'PARKED', approvalId: approval.approvalId, stepName: approval.stepName } satisfies RunEvent);
    this.#parkedOffset = this.#events.length;
    this.#withData = true;
    this.#schedule();
  }

  runResumed(): void {
    if (this.#data.status !== 'Blocked') return;
    this.#options.live.slot?.unpark();
    this.#data = { ...this.#data, status: 'Running', parkedSeq: null };
    this.#withData = true;
    this.#schedule();
  }

  /** The checkpoint matters more than its event: one whose entries could not be read is committed without them. */
  readonly #eventLost = (error: unknown): undefined => {
    this.#options.onError(error);
    return undefined;
  };

  /** Resolves once every checkpoint queued so far was committed (or refused). */
  drain(): Promise<void> {
    return this.#chain;
  }

  /**
   * Ends the recording of a run whose graph completed: waits for the commit in flight, then hands
   * over what is still pending — step items and events, in order — instead of committing it, so the
   * run's final commit writes them atomically with its end (one commit fewer per run). Nothing is
   * recorded after this.
   */
  async finish(): Promise<RecordedTail> {
    this.#finishing = true;
    await this.#chain;
    const tail: RecordedTail = { items: toItems(this.#items), events: this.#events };
    this.#items = new Map();
    this.#events = [];
    this.#withData = false;
    this.#parkedOffset = null;
    return tail;
  }

  #schedule(): void {
    if (this.#flushing || this.#finishing) return;
    this.#flushing = true;
    this.#chain = this.#flush().catch((error: unknown) => this.#options.onError(error));
  }

  /** Commits what is pending, in order, one merged commit at a time, until nothing is. */
  async #flush(): Promise<void> {
    try {
      // Starts after the reporting turn, so what the engine reports together goes out together: on a
      // storage that commits at once (Memory) a step's success and its successor's start are one commit.
      await Promise.resolve();
      let waited = false;
      while (!this.#finishing && (this.#items.size > 0 || this.#events.length > 0 || this.#withData)) {
        // A step that ended may have been the graph's last: after one more turn of the event loop the
        // graph has completed if it is going to, and then finish() takes this batch for the final
        // commit. Asked before every commit, not only the first (steps that settle in fewer microtask
        // turns than a commit takes got a commit each: 1,002 commits for a 1,000-step chain instead of
        // 2, decided by how many promise layers a step had), and waited for once a commit, so steps
        // that end on every turn still get their checkpoints committed.
        if (this.#stepEnded && !waited) {
          this.#stepEnded = false;
          waited = true;
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        waited = false;
        this.#stepEnded = false;
        const items = this.#items;
        const events = this.#events;
        const parkedOffset = this.#parkedOffset;
        const withData = this.#withData;
        this.#items = new Map();
        this.#events = [];
        this.#parkedOffset = null;
        this.#withData = false;
        // A PARKED this batch committed is where a re-attaching watcher is told the run waits.
        if (parkedOffset !== null && this.#data.status === 'Blocked') this.#data = { ...this.#data, parkedSeq: this.#lastSeq + parkedOffset };
        const record = withData ? { patch: { state: this.#data.status, data: this.#data } } : undefined;
        const outbox = parkedOffset !== null && this.#data.status === 'Blocked' ? await this.#options.blocked(this.#data).catch(this.#eventLost) : undefined;
        // Literals, not a conditional spread: this runs once per checkpoint of every workflow step.
        const result = await this.#options.live.commit(items.size > 0 ? { items: toItems(items), events, record, outbox } : { events, record, outbox });
        if (!result.committed) {
          // Fenced or lost: the live run is stopped; nothing more of it is written here.
          this.#items.clear();
          this.#events = [];
          this.#withData = false;
          return;
        }
        this.#lastSeq = result.seqs.at(-1) ?? this.#lastSeq;
      }
    } finally {
      this.#flushing = false;
    }
  }
}

function toItems(items: ReadonlyMap<string, StepState>): { key: string; data: StepState }[] {
  const out: { key: string; data: StepState }[] = [];
  for (const [key, data] of items) out.push({ key, data });
  return out;
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
        redacted: change.redacted !== undefined ? change.redacted : output === null ? null : redactValueOrSame(output),
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
        redacted: output === null ? null : redactValueOrSame(output),
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
