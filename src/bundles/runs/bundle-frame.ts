// The frames of a bundle run stream (SPEC.md "Bundle stream frames"): the agent loop's frames plus the
// run frames this feature owns. RUN_STARTED comes first; RUN_FINISHED or RUN_ERROR, exactly one, last.
import type { AgentEvent } from '../../agent/index.js';

export type RunFrame =
  | { readonly type: 'RUN_STARTED'; readonly threadId: string; readonly runId: string }
  | { readonly type: 'RUN_FINISHED'; readonly threadId: string; readonly runId: string; readonly outcome?: InterruptOutcome }
  | { readonly type: 'RUN_ERROR'; readonly message: string };

/** AG-UI 1.0's interrupt outcome: the run is parked for a person's decision, not ended (DESIGN.md §13). */
export interface InterruptOutcome {
  readonly type: 'interrupt';
  readonly interrupts: ReadonlyArray<{
    readonly id: string;
    readonly reason: 'tool_approval';
    readonly message: string;
    readonly toolCallId: string;
    readonly expiresAt?: string;
  }>;
}

export type BundleFrame = AgentEvent | RunFrame;

export function isTerminalFrame(frame: BundleFrame): boolean {
  return frame.type === 'RUN_FINISHED' || frame.type === 'RUN_ERROR';
}
