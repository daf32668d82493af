// Where approvals come from: the engine asks the keeper to open one for a gate step and waits on it.
// The keeper (the run's approval desk) records decisions; `expire` settles a still-open approval as
// a timed-out rejection and does nothing once it is decided.
import type { GateDecision } from './step-runner.js';
import type { GraphStep } from './workflow-graph.js';

export interface OpenGate {
  readonly approvalId: string;
  readonly decided: Promise<GateDecision>;
  expire(): void;
}

export interface GateKeeper {
  /** `deadline` is epoch milliseconds on the engine's clock, or undefined for no timeout. */
  open(step: GraphStep, message: string, deadline: number | undefined): OpenGate;
}
