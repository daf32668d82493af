// Where approvals come from: the engine asks the keeper to open one for a gate step and waits on it.
// The keeper (the run's approval desk) records decisions; `expire` settles a still-open approval as
// a timed-out rejection and does nothing once it is decided. A run resumed after a takeover finds the
// gate's approval already open (or decided), with the deadline it was given then. A ToolUse step that
// waits for a person is a gate too.
import type { ApprovalRequest, GateDecision } from './step-runner.js';
import type { GraphStep } from './workflow-graph.js';

export interface OpenGate {
  readonly approvalId: string;
  /** Epoch ms at which it expires as a rejection (as first opened); undefined for no timeout. */
  readonly deadline: number | undefined;
  readonly decided: Promise<GateDecision>;
  expire(): void;
}

export interface GateKeeper {
  /** Opens (or, resumed, finds) the step's approval; the gate's deadline is the keeper's to settle. */
  open(step: GraphStep, request: ApprovalRequest): Promise<OpenGate>;
}
