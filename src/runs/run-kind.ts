// What a family (bundles, workflows, evals) tells the run engine about its runs, and nothing more:
// where their records live, which states are live, its dispatch lane, how a run begins, how it
// executes, how its end is written, and — for a family whose runs wait for a person out of memory —
// what a parked run stores and what it resumes with. Everything else of a run's lifecycle is the
// engine's (run-engine.ts): the Queued → Running compare-and-set, leases and the fence on a lost one,
// cancellation, takeover, parking and waking, and which end a stopped run gets, if any (decisions
// 1101, 3701).
import type { JournalChange, OutboxEntry, RecordKey, StoredRecord, CommitResult } from '../platform/storage/index.js';
import type { LiveRun } from './live-run.js';
import type { LaneOptions } from './run-lane.js';
import type { CancelCause } from './stop-reasons.js';

/** What `execute` returns when it stopped early because the host is draining: nothing is settled here. */
export const INTERRUPTED: unique symbol = Symbol('interrupted');
export type Interrupted = typeof INTERRUPTED;

/**
 * What `execute` returns when the run waits for a person's decision on approval `approvalId` (the
 * approval is stored): the engine parks the run — its slot given back, its lease released, the kind's
 * `waiting.park` state stored — until a decision wakes it (`RunEngine.decided`). `checkpoint` is what
 * the kind needs to store to go on from there; `deadline` (epoch ms) is when that approval expires
 * undecided, which the parking instance makes happen on time (the approvals sweep is the backstop).
 */
export class RunWaits<W = unknown> {
  constructor(
    readonly approvalId: string,
    readonly checkpoint: W,
    readonly deadline: number | null = null,
  ) {}
}

/** A person's decision (or an approval's expiry) as it wakes the run waiting on it. */
export interface RunDecision {
  readonly approvalId: string;
  readonly outcome: 'approved' | 'rejected' | 'expired';
  /** Who approved, as the audit line names them (null unless approved). */
  readonly by: string | null;
}

/** The parked record a kind stores for a run that waits: its data, and the events and outbox written with it. */
export interface ParkedChange<D> {
  readonly data: D;
  readonly events: readonly unknown[];
  readonly outbox?: readonly OutboxEntry[];
}

/** What a due deadline came to: expired now (the run is woken), not due yet (by this clock), or decided or gone already. */
export type DeadlineOutcome = 'expired' | 'not-due' | 'closed';

/**
 * How a kind's runs wait out of memory: the state they are stored in while parked (with no lease: a
 * run in that state holding a lease is executing, woken or not parked yet), the state a decision
 * wakes them in, and what they store.
 */
export interface RunWaiting<D, W> {
  /** The live state of a parked run: with no lease it executes nowhere, and a cancel ends it at once. */
  readonly state: string;
  /** The state a woken run is stored in under the waking instance's lease until it executes (Queued, or Blocked for a workflow run). */
  readonly wokenState: string;
  /** The record change that parks a run that returned `waits` (the engine adds the state, the lease release and its guard). */
  park(run: SettlingRun<D>, waits: RunWaits<W>): Promise<ParkedChange<D>>;
  /** The data a parked run resumes with once `decision` is in; null when it does not wait on that approval. */
  resume(record: StoredRecord<D>, decision: RunDecision): D | null;
  /** The decision on the approval a just-parked run waits on, when one arrived before it was parked; undefined while undecided. */
  decided(record: StoredRecord<D>): Promise<RunDecision | undefined>;
  /** Expires the approval a parked run waits on once its deadline passed (and tells the run through `RunEngine.decided`). */
  expire(key: RecordKey, approvalId: string): Promise<DeadlineOutcome>;
}

/** A stop someone asked for: a caller's cancel, a stream client too slow to read, or the host stopping. */
export interface StopRequest {
  readonly cause: CancelCause | 'host-stopping';
}

/** How a run ended, as the engine tells the family to write it. */
export type RunEnding<R> =
  /** `execute` returned `outcome`; `stopped` is a stop that arrived while it ran (the family may honour it). */
  | { readonly type: 'completed'; readonly outcome: R; readonly stopped: StopRequest | null }
  /** Stopped before it could complete (a cancel; or the host stopping, on a storage nobody else shares). */
  | { readonly type: 'stopped'; readonly stopped: StopRequest }
  /** `execute` threw: a programming error whose detail stays in the log. */
  | { readonly type: 'crashed' }
  /** Its instance died and it does not resume elsewhere: settled by whoever took its lease. */
  | { readonly type: 'abandoned' };

/** What a family's `settle` writes with: the run as last known and a commit under the engine's guard. */
export interface SettlingRun<D> {
  readonly key: RecordKey;
  readonly record: StoredRecord<D>;
  readonly now: number;
  /**
   * The run's final change: its record patch (and any items and events) applied only while the run
   * is still live and still this settle's to write (the engine's guard is added to the patch).
   */
  commit<T>(change: JournalChange<T, D> & { readonly record: NonNullable<JournalChange<T, D>['record']> }): Promise<CommitResult<D>>;
}

export interface RunKind<D = unknown, R = unknown, W = unknown> {
  readonly collection: string;
  readonly liveStates: readonly string[];
  /** How runs that wait for a person are parked and woken; absent: `execute` never returns `RunWaits` (eval runs). */
  readonly waiting?: RunWaiting<D, W>;
  readonly lane: LaneOptions;
  /**
   * The record change that begins execution here: from Queued (Queued → Running), or from a live state
   * a run resumed after a takeover is in. Null: begin as stored. The engine writes it compare-and-set.
   */
  begin(record: StoredRecord<D>, now: number): { readonly state: string; readonly data: D } | null;
  /** Whether a run whose lease lapsed is executed again here (from its checkpoints), else settled `abandoned`. */
  resumes(record: StoredRecord<D>): boolean;
  /**
   * Drives the begun run to its outcome; returns INTERRUPTED when it stopped early because
   * `run.draining` aborted, and RunWaits when it waits for a person (only with `waiting`).
   */
  execute(run: LiveRun<D>): Promise<R | Interrupted | RunWaits<W>>;
  /** Writes the run's end; resolves with the final state written, or null when the guard refused it. */
  settle(run: SettlingRun<D>, ending: RunEnding<R>): Promise<string | null>;
  /**
   * Two events emitted one after the other that may be kept as one while they wait for a commit (text
   * deltas of one message): the merged event, or undefined to keep both.
   */
  mergeEvents?(previous: unknown, next: unknown): unknown;
}

/**
 * Wraps every execution this instance starts (metrics, a span): called with the run's key and a
 * function that executes it and resolves with the final state written ('interrupted' when none,
 * 'Parked' when the run waits for a person: a woken run's next execution is reported again).
 */
export type RunObserver = (key: RecordKey, execute: () => Promise<string>) => Promise<void>;
