// What a family (bundles, workflows, evals) tells the run engine about its runs, and nothing more:
// where their records live, which states are live, its dispatch lane, how a run begins, how it
// executes and how its end is written. Everything else of a run's lifecycle is the engine's
// (run-engine.ts): the Queued → Running compare-and-set, leases and the fence on a lost one,
// cancellation, takeover, and which end a stopped run gets, if any (decision 1101).
import type { JournalChange, RecordKey, StoredRecord, CommitResult } from '../platform/storage/index.js';
import type { LiveRun } from './live-run.js';
import type { LaneOptions } from './run-lane.js';
import type { CancelCause } from './stop-reasons.js';

/** What `execute` returns when it stopped early because the host is draining: nothing is settled here. */
export const INTERRUPTED: unique symbol = Symbol('interrupted');
export type Interrupted = typeof INTERRUPTED;

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

export interface RunKind<D = unknown, R = unknown> {
  readonly collection: string;
  readonly liveStates: readonly string[];
  /**
   * Live states in which the run executes nowhere and holds no lease (a bundle run parked for a
   * person's decision): a cancel ends it at once, like a run still Queued.
   */
  readonly idleStates?: readonly string[];
  readonly lane: LaneOptions;
  /**
   * The record change that begins execution here: from Queued (Queued → Running), or from a live state
   * a run resumed after a takeover is in. Null: begin as stored. The engine writes it compare-and-set.
   */
  begin(record: StoredRecord<D>, now: number): { readonly state: string; readonly data: D } | null;
  /** Whether a run whose lease lapsed is executed again here (from its checkpoints), else settled `abandoned`. */
  resumes(record: StoredRecord<D>): boolean;
  /** Drives the begun run to its outcome; returns INTERRUPTED when it stopped early because `run.draining` aborted. */
  execute(run: LiveRun<D>): Promise<R | Interrupted>;
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
 * function that executes it and resolves with the final state written ('interrupted' when none).
 */
export type RunObserver = (key: RecordKey, execute: () => Promise<string>) => Promise<void>;
