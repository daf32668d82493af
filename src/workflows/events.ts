// The progress-stream frames (DESIGN §6), a discriminated union on `type`. Every frame goes out with
// an `id:` line carrying its sequence (GAP: the last dropped frame's; SNAPSHOT: the last frame it
// includes), so a client can re-attach with Last-Event-ID.
import type { RunStatus, StepStatus } from './runs/run-status.js';
import type { StepProjection } from './runs/run-projection.js';
import type { RunEvent } from './runs/workflow-run.js';

export interface SnapshotFrame {
  readonly type: 'SNAPSHOT';
  readonly jobId: string;
  readonly status: RunStatus;
  /** True when the run had already finished: nothing follows. */
  readonly isTerminal: boolean;
  readonly sequence: number;
  readonly steps: readonly StepProjection[];
}

export interface StepFrame {
  readonly type: 'STEP';
  readonly sequence: number;
  readonly stepName: string;
  readonly stepId: string;
  readonly status: StepStatus;
  readonly output?: unknown;
  readonly error?: string;
}

export interface FinishedFrame {
  readonly type: 'FINISHED';
  readonly sequence: number;
  readonly status: RunStatus;
  readonly error?: string;
}

export interface ParkedFrame {
  readonly type: 'PARKED';
  readonly sequence: number;
  readonly approvalId: string;
  readonly stepName: string;
}

export interface GapFrame {
  readonly type: 'GAP';
  readonly droppedCount: number;
}

/** Frames kept in a run's log (numbered). */
export type LoggedFrame = StepFrame | FinishedFrame | ParkedFrame;

export type ProgressFrame = SnapshotFrame | LoggedFrame | GapFrame;

/** FINISHED and PARKED end the stream. */
export function closesStream(frame: ProgressFrame): boolean {
  return frame.type === 'FINISHED' || frame.type === 'PARKED';
}

/** A journal event as the frame watchers receive: the event with its sequence. */
export function toLoggedFrame(sequence: number, event: RunEvent): LoggedFrame {
  return { ...event, sequence };
}
