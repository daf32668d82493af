// The executable form of a workflow: steps with their successors and predecessor counts, the entry
// step and default input. Sub-plan steps carry their child graph, resolved when the run starts.
import type { JsonObject, StepConfiguration, StepType } from '../definition/workflow-definition.js';

export interface GraphStep {
  readonly index: number;
  /** Id in the run's step list (a child step's id is prefixed with its sub-plan step's id). */
  readonly id: string;
  /** The name templates and conditions use, local to its own workflow. */
  readonly name: string;
  /** The name in the run's step list (a child step's name is prefixed with its sub-plan step's path). */
  readonly path: string;
  readonly type: StepType;
  readonly configuration: StepConfiguration;
  readonly successors: readonly number[];
  readonly predecessorCount: number;
  /** For SubPlanInvocation: the child workflow's graph, or null when it no longer existed at run start. */
  readonly child?: WorkflowGraph | null;
}

export interface WorkflowGraph {
  readonly steps: readonly GraphStep[];
  readonly entry: number;
  /** The workflow's own default input (`configuration.input`). */
  readonly input: JsonObject;
}
