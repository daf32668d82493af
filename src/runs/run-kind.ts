// What a family (bundles, workflows, evals) tells the run engine about its runs: where their records
// live, which states are live, its dispatch lane, how to execute a claimed run and what to do with a
// run whose lease lapsed on a dead instance.
import type { RecordKey, StoredRecord } from '../platform/storage/index.js';
import type { LaneOptions, LaneSlot } from './run-lane.js';

export interface LiveRun {
  readonly key: RecordKey;
  /** Aborted with a RunStopped reason: cancelled, host stopping or lease lost (see stop-reasons.ts). */
  readonly signal: AbortSignal;
  /** This instance's id: the lease holder every guarded write names. */
  readonly holder: string;
  /** The lane slot (null for a run driven inline by a stream). */
  readonly slot: LaneSlot | null;
  /** Hears messages other instances publish to this run (besides cancel, which aborts `signal`). */
  onMessage(handler: (message: string) => void): void;
}

export interface RunKind {
  readonly collection: string;
  readonly liveStates: readonly string[];
  readonly lane: LaneOptions;
  /** Drives the claimed run until it ends or its signal aborts; should not reject (a rejection is logged). */
  execute(run: LiveRun): Promise<void>;
  /** This instance claimed a run whose lease lapsed: run it here ('execute') or settle it and say so. */
  takeOver(record: StoredRecord): Promise<'execute' | 'settled'>;
  /** The host is stopping and this queued run never started here (Memory: settle it; durable: leave it for takeover). */
  abandon(key: RecordKey): Promise<void>;
}

/**
 * Wraps every execution this instance starts (metrics, a span): called with the run's key and a
 * function that executes it, it must call that function once and settle when it settles.
 */
export type RunObserver = (key: RecordKey, execute: () => Promise<void>) => Promise<void>;
