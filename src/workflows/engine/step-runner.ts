// The contract between the engine and the step types: a runner gets its step, the workflow input,
// the settled steps before it and an abort signal, and returns an outcome as data. Gates and
// sub-plans go through the context so the engine keeps track of what is waiting and running.
import type { JsonObject, StepType } from '../definition/workflow-definition.js';
import type { GraphStep, WorkflowGraph } from './workflow-graph.js';
import type { ToolCallReason } from '../../approvals/index.js';

export interface SettledStep {
  readonly status: 'Succeeded' | 'Failed' | 'Skipped';
  readonly output: unknown;
}

export interface GateDecision {
  readonly decision: 'Approve' | 'Reject';
  readonly comment: string | null;
  /** True when the gate's timeout expired (which counts as a rejection). */
  readonly timedOut: boolean;
  /** The typed answer an Approve carried (a gate with a responseSchema). */
  readonly payload?: unknown;
  /** Who decided (name claim, else owner id); absent on a timeout. */
  readonly decidedBy?: string;
}

/** A tool call that waits for a person (a ToolUse step under Supervised). */
export interface ToolCallApproval {
  readonly tool: string;
  readonly operation: string;
  /** The call's parameters as redacted JSON text, or null when withheld. */
  readonly arguments: string | null;
  readonly riskTier: string;
  readonly reason: ToolCallReason;
  /** The version of the policy set that asked, when a policy did (DESIGN.md §18). */
  readonly policyVersion?: string;
}

export interface ApprovalRequest {
  readonly message: string;
  /** Milliseconds until the request expires as a rejection; undefined: the approval contract's default. */
  readonly timeoutMs: number | undefined;
  /** A gate's typed answer (JSON Schema 2020-12). */
  readonly responseSchema?: Readonly<Record<string, unknown>>;
  /** A gate's own approver roles (instead of Approvals:ApproverRoles). */
  readonly approverRoles?: readonly string[];
  /** Set when a tool call waits, not a gate. */
  readonly toolCall?: ToolCallApproval;
}

export type GraphOutcome =
  | { readonly status: 'Succeeded'; readonly outputs: Readonly<Record<string, unknown>> }
  | { readonly status: 'Failed'; readonly step: GraphStep; readonly error: string }
  | { readonly status: 'Cancelled' }
  /** The host drained the run before it finished (top level only); it resumes elsewhere. */
  | { readonly status: 'Interrupted' };

export interface StepContext {
  readonly step: GraphStep;
  readonly input: JsonObject;
  /** Settled steps of the same workflow, by name (raw outputs; redaction happens on the way out). */
  readonly steps: Readonly<Record<string, SettledStep>>;
  /** Aborted when the run is cancelled or another step failed; pass it to every model and tool call. */
  readonly signal: AbortSignal;
  /** Parks the step (`Waiting`) until the approval is decided, times out, or the run stops. */
  awaitApproval(request: ApprovalRequest): Promise<GateDecision>;
  /** Runs a child workflow as part of this step; its steps appear in the run under this step's path. */
  runChild(graph: WorkflowGraph, input: JsonObject): Promise<GraphOutcome>;
}

export interface StepUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export type StepOutcome =
  | {
      readonly ok: true;
      readonly output: unknown;
      /**
       * The output as anything outside the run may see it, when the runner already knows it without a
       * scan (a tool's output text decided clean before parsing: the output itself); undefined: the
       * recorder redacts the output.
       */
      readonly redacted?: unknown;
      /** Names of the successors to take (ConditionalBranch); undefined takes every successor. */
      readonly take?: readonly string[];
      readonly usage?: StepUsage;
    }
  | { readonly ok: false; readonly error: string; readonly output?: unknown };

export type StepRunner = (context: StepContext) => Promise<StepOutcome>;

export type StepRunners = Readonly<Record<StepType, StepRunner>>;

/** The same six runners, each wrapped (logging, bounds): wrappers compose without naming every type. */
export function mapStepRunners(runners: StepRunners, wrap: (runner: StepRunner) => StepRunner): StepRunners {
  return {
    LlmCall: wrap(runners.LlmCall),
    ToolUse: wrap(runners.ToolUse),
    HumanGate: wrap(runners.HumanGate),
    ConditionalBranch: wrap(runners.ConditionalBranch),
    SubPlanInvocation: wrap(runners.SubPlanInvocation),
    RetrievalPlan: wrap(runners.RetrievalPlan),
  };
}
