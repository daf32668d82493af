// A run while it executes on this instance: what its family's `execute` is handed. Every write of
// the run's state goes through it, fenced: each commit carries this instance's lease (a run another
// instance took over refuses it, and the run is stopped here), and once the run is fenced — its lease
// lost, or the host stopping on a storage other instances share — nothing more is written at all,
// so the next instance resumes from the last committed checkpoint. A commit the storage cannot take
// right now (the database away) waits and retries until it can, or until the run is fenced. Events
// emitted here go to the run's journal in order, several per commit while one is in flight; streams
// on any instance follow that journal.
import { isStorageUnavailable, type CommitOptions, type CommitResult, type JournalChange, type RecordKey, type Storage, type StoredRecord, type UpdateGuard } from '../platform/storage/index.js';
import type { RunMessage } from './run-message.js';
import type { LaneSlot } from './run-lane.js';
import { leaseLost, type RunStopped } from './stop-reasons.js';

export interface LiveRun<D = unknown> {
  readonly key: RecordKey;
  /** This instance: the lease holder every write names. */
  readonly holder: string;
  /** The lane slot (null for a run driven inline by a stream). */
  readonly slot: LaneSlot | null;
  /** Aborted with a RunStopped reason: cancelled, host stopping or lease lost (stop-reasons.ts). */
  readonly signal: AbortSignal;
  /**
   * Aborted when the host begins a graceful stop on a storage other instances share: finish what is
   * in flight, start nothing new, and return INTERRUPTED; the rest is resumed elsewhere.
   */
  readonly draining: AbortSignal;
  /** The run's record as it began here, then as each commit with a record patch left it. */
  readonly record: StoredRecord<D>;
  /**
   * The state the stored record was in when the run began here ('Queued' for a run that never
   * executed anywhere before: nothing of it — items, events, approvals — exists yet).
   */
  readonly begunFrom: string | null;
  /** True once nothing more of this run may be written here. */
  readonly fenced: boolean;
  /**
   * Commits items, events and a record patch atomically, under this instance's lease (added to the
   * guard). `committed: false` when fenced or refused; a refusal means the run is no longer this
   * instance's, and stops it.
   */
  commit<T>(change: JournalChange<T, D>): Promise<CommitResult<D>>;
  /** Appends an event to the run's journal (ordered, batched); dropped once fenced. */
  emit(event: unknown): void;
  /** Resolves once every event emitted so far was committed (or dropped). */
  flush(): Promise<void>;
  /** A write of another record that belongs to this run (an approval), skipped once fenced. */
  whileOwned<T>(write: () => Promise<T>): Promise<T | undefined>;
  onMessage(handler: (message: RunMessage) => void): void;
}

const REFUSED = Object.freeze({ committed: false as const });
const MIN_RETRY_MS = 100;
const MAX_RETRY_MS = 2_000;
const WAIT_OUT: CommitOptions = Object.freeze({ waitOut: true });

export interface LiveRunOptions {
  readonly storage: Storage;
  readonly key: RecordKey;
  readonly holder: string;
  readonly slot: LaneSlot | null;
  /** Told once, when a commit first fails for the storage being away (and when one works again). */
  readonly outage: { failed(err: unknown): void; succeeded(): void };
  /** Hears a commit of emitted events that failed for another reason (a defect: nobody awaits emit). */
  readonly onEmitError: (err: unknown) => void;
  /** Merges two adjacent waiting events into one (the run kind's mergeEvents), or undefined. */
  readonly mergeEvents?: (previous: unknown, next: unknown) => unknown;
}

/** The engine's side of a live run: the fence and the stop. */
export class LiveRunHandle<D = unknown> implements LiveRun<D> {
  readonly key: RecordKey;
  readonly holder: string;
  readonly slot: LaneSlot | null;
  readonly #storage: Storage;
  readonly #outage: LiveRunOptions['outage'];
  readonly #onEmitError: (err: unknown) => void;
  readonly #mergeEvents: ((previous: unknown, next: unknown) => unknown) | undefined;
  readonly #stop = new AbortController();
  readonly #drain = new AbortController();
  readonly #handlers = new Set<(message: RunMessage) => void>();
  /** The record part of a commit that names no patch: the lease fence alone. */
  readonly #fenceOnly: { readonly patch: object; readonly guard: UpdateGuard };
  #record: StoredRecord<D> | undefined;
  #begunFrom: string | null = null;
  #fenced = false;
  /** Commits run one at a time, in call order: the run is the journal's only writer. */
  #tail: Promise<unknown> = Promise.resolve();
  #pending = 0;
  #events: unknown[] = [];
  #emitting: Promise<void> | null = null;

  constructor(options: LiveRunOptions) {
    this.key = options.key;
    this.holder = options.holder;
    this.slot = options.slot;
    this.#storage = options.storage;
    this.#outage = options.outage;
    this.#onEmitError = options.onEmitError;
    this.#mergeEvents = options.mergeEvents;
    this.#fenceOnly = { patch: {}, guard: { leaseHolder: options.holder } };
  }

  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  get draining(): AbortSignal {
    return this.#drain.signal;
  }

  get record(): StoredRecord<D> {
    if (this.#record === undefined) throw new Error(`run ${this.key.id} read before it began`);
    return this.#record;
  }

  get fenced(): boolean {
    return this.#fenced;
  }

  get begunFrom(): string | null {
    return this.#begunFrom;
  }

  commit<T>(change: JournalChange<T, D>): Promise<CommitResult<D>> {
    if (this.#fenced) return Promise.resolve(REFUSED);
    // Idle (the usual case for a workflow step): commit at once, without a link in the chain.
    if (this.#pending === 0) return this.#track(this.#commitNow(change));
    const queued = this.#tail.then(() => this.#commitNow(change));
    return this.#track(queued);
  }

  emit(event: unknown): void {
    if (this.#fenced) return;
    // While a commit is in flight events wait; adjacent ones the kind can merge (text deltas) wait as one.
    const last = this.#events.length === 0 ? undefined : this.#events[this.#events.length - 1];
    const merged = last === undefined ? undefined : this.#mergeEvents?.(last, event);
    if (merged === undefined) this.#events.push(event);
    else this.#events[this.#events.length - 1] = merged;
    this.#emitting ??= this.#emitPending();
  }

  flush(): Promise<void> {
    return this.#emitting ?? Promise.resolve();
  }

  whileOwned<T>(write: () => Promise<T>): Promise<T | undefined> {
    return this.#fenced ? Promise.resolve(undefined) : write();
  }

  onMessage(handler: (message: RunMessage) => void): void {
    this.#handlers.add(handler);
  }

  // The engine's side.

  /** The run's record as read when it began executing here; `from`, the state it began from (default: the record's). */
  begin(record: StoredRecord<D>, from: string | null = record.state): void {
    this.#record = record;
    this.#begunFrom = from;
  }

  hear(message: RunMessage): void {
    for (const handler of this.#handlers) handler(message);
  }

  /** Nothing more of this run is written here (host stopping on a shared storage, or lease lost). */
  fence(): void {
    this.#fenced = true;
    this.#events = [];
  }

  /** Fences (when `fenced`) and aborts the run's signal with `reason`; the first stop's reason stays. */
  stop(reason: RunStopped, fenced: boolean): void {
    if (fenced) this.fence();
    if (!this.#stop.signal.aborted) this.#stop.abort(reason);
  }

  beginDraining(): void {
    this.#drain.abort();
  }

  #track(commit: Promise<CommitResult<D>>): Promise<CommitResult<D>> {
    this.#pending += 1;
    this.#tail = commit.then(
      () => undefined,
      () => undefined,
    );
    return commit.finally(() => {
      this.#pending -= 1;
    });
  }

  async #commitNow<T>(change: JournalChange<T, D>): Promise<CommitResult<D>> {
    // Literals, not spreads of the change: this runs once per checkpoint of every workflow step.
    const fenced: JournalChange<T, D> =
      change.record === undefined
        ? { items: change.items, events: change.events, record: this.#fenceOnly, outbox: change.outbox, expire: change.expire }
        : { items: change.items, events: change.events, record: { patch: change.record.patch, guard: { ...change.record.guard, leaseHolder: this.holder } }, outbox: change.outbox, expire: change.expire };
    for (let wait = MIN_RETRY_MS; ; wait = Math.min(MAX_RETRY_MS, wait * 2)) {
      if (this.#fenced) return REFUSED;
      try {
        // Waits out a frozen database rather than giving up and retrying: a commit that gave up may
        // still be applied, and its retry would append the events twice (decision 3511).
        const result = await this.#storage.journal.commit<T, D>(this.key, fenced, WAIT_OUT);
        this.#outage.succeeded();
        if (!result.committed) {
          // The guard refused: another instance owns the run now (or it ended). Stop writing it here.
          this.stop(leaseLost(), true);
          return result;
        }
        if (result.record !== undefined) this.#record = result.record;
        return result;
      } catch (error) {
        if (!isStorageUnavailable(error)) throw error;
        this.#outage.failed(error);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  async #emitPending(): Promise<void> {
    try {
      // After the emitting turn: what is emitted together is committed together.
      await Promise.resolve();
      while (this.#events.length > 0) {
        const events = this.#events;
        this.#events = [];
        await this.commit({ events });
      }
    } catch (error) {
      this.#onEmitError(error);
    } finally {
      this.#emitting = null;
    }
  }
}
