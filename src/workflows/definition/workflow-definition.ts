// The shapes of a workflow definition after validation: typed step configurations, edges by step
// name, the entry step and default input. Stored definitions add the server-minted ids.

export const stepTypes = ['LlmCall', 'ToolUse', 'HumanGate', 'ConditionalBranch', 'SubPlanInvocation', 'RetrievalPlan'] as const;
export type StepType = (typeof stepTypes)[number];

export type JsonObject = Readonly<Record<string, unknown>>;

export interface LlmCallConfiguration {
  readonly type: 'LlmCall';
  readonly prompt: string;
  readonly system?: string;
  readonly maxOutputTokens?: number;
}

export interface ToolUseConfiguration {
  readonly type: 'ToolUse';
  readonly tool: string;
  readonly operation: string;
  readonly parameters: JsonObject;
}

export interface HumanGateConfiguration {
  readonly type: 'HumanGate';
  readonly message: string;
  /** The TimeSpan text as submitted; expiry counts as rejection. */
  readonly timeout?: string;
  /** JSON Schema 2020-12 an Approve's payload must meet (DESIGN.md §13). */
  readonly responseSchema?: JsonObject;
  /** Roles that decide this gate instead of Approvals:ApproverRoles. */
  readonly approverRoles?: string[];
}

export interface ConditionalBranchConfiguration {
  readonly type: 'ConditionalBranch';
  readonly condition: string;
  readonly ifTrue: string;
  readonly ifFalse: string;
}

export interface SubPlanInvocationConfiguration {
  readonly type: 'SubPlanInvocation';
  readonly workflowId: string;
}

export interface RetrievalPlanConfiguration {
  readonly type: 'RetrievalPlan';
  readonly index: string;
  readonly queries: readonly string[];
  readonly topK: number;
}

export type StepConfiguration =
  | LlmCallConfiguration
  | ToolUseConfiguration
  | HumanGateConfiguration
  | ConditionalBranchConfiguration
  | SubPlanInvocationConfiguration
  | RetrievalPlanConfiguration;

export interface DefinitionStep {
  readonly name: string;
  readonly type: StepType;
  readonly configuration: StepConfiguration;
}

export interface DefinitionEdge {
  readonly from: string;
  readonly to: string;
  readonly type: 'ControlFlow';
}

/** A definition that passed validation, before it is stored. */
export interface WorkflowDraft {
  readonly name: string;
  readonly steps: readonly DefinitionStep[];
  readonly edges: readonly DefinitionEdge[];
  readonly entryStep: string;
  readonly input: JsonObject;
}

export interface StoredStep extends DefinitionStep {
  readonly id: string;
}

export interface StoredWorkflow {
  readonly id: string;
  readonly ownerId: string;
  readonly name: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly steps: readonly StoredStep[];
  readonly edges: readonly DefinitionEdge[];
  readonly entryStep: string;
  readonly input: JsonObject;
  /** Steps including those of nested sub-plans (bounded by MaxSteps). */
  readonly expandedStepCount: number;
  /** Nesting depth of sub-plans below this workflow (0 without any). */
  readonly subPlanDepth: number;
}

export const DEFAULT_TOP_K = 5;
export const MAX_TOP_K = 50;
export const MAX_QUERIES = 8;
export const MAX_SUB_PLAN_DEPTH = 5;
