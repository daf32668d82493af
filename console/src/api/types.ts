// The response shapes the console reads, as DESIGN §6, §7, §12, §13, §14, §16 and SPEC.md define them. Only the
// fields the pages use; every string in them may come from a model, a tool or a dataset and is
// rendered as text.

export type WorkflowRunStatus = 'Queued' | 'Running' | 'Blocked' | 'Succeeded' | 'Failed' | 'Cancelled';
export type StepStatus = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Skipped' | 'Waiting';

export interface Page {
  readonly nextCursor: string | null;
}

/** One approval, a workflow gate or a tool call waiting for a person (DESIGN §13). */
export interface Approval {
  readonly approvalId: string;
  readonly kind: 'HumanGate' | 'ToolCall';
  readonly status: 'Pending' | 'Approved' | 'Rejected' | 'Expired' | 'Withdrawn';
  readonly runKind: 'bundle' | 'workflow';
  readonly jobId: string;
  readonly workflowId?: string;
  readonly handle?: string;
  readonly stepName?: string;
  readonly message?: string;
  readonly tool?: string;
  readonly operation?: string;
  /** Redacted JSON text; null when withheld above the frame ceiling. */
  readonly arguments?: string | null;
  readonly riskTier?: string;
  /** The rule that asked: HumanGate, Supervised ceiling or bundle require-approval. */
  readonly reason: string;
  readonly responseSchema?: Record<string, unknown>;
  readonly requestedBy: string | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly escalated: boolean;
  readonly decision?: {
    readonly decision: 'Approve' | 'Reject';
    readonly comment?: string;
    readonly payload?: unknown;
    readonly decidedBy: string;
    readonly decidedAt: string;
  };
}

export interface WorkflowSummary {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface StepDefinition {
  readonly id?: string;
  readonly name: string;
  readonly type: string;
  readonly configuration?: Record<string, unknown>;
}

export interface EdgeDefinition {
  readonly from: string;
  readonly to: string;
}

export interface WorkflowDetail extends WorkflowSummary {
  readonly steps: readonly StepDefinition[];
  readonly edges: readonly EdgeDefinition[];
  readonly configuration: { readonly entryStep: string; readonly input: Record<string, unknown> };
}

export interface Diagnostic {
  readonly code: string;
  readonly step?: string;
  readonly edge?: number;
  readonly message: string;
}

export interface StepProjection {
  readonly name: string;
  readonly id: string;
  readonly type: string;
  readonly status: StepStatus;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  readonly output?: unknown;
  readonly error: string | null;
}

export interface WorkflowRun {
  readonly jobId: string;
  readonly workflowId: string;
  readonly status: WorkflowRunStatus;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  readonly error: string | null;
  readonly steps: readonly StepProjection[];
  readonly pendingApprovals: readonly { approvalId: string; stepName: string; message: string; createdAt: string }[];
}

export type ProgressFrame =
  | { type: 'SNAPSHOT'; jobId: string; status: WorkflowRunStatus; isTerminal: boolean; sequence: number; steps: StepProjection[] }
  | { type: 'STEP'; sequence: number; stepName: string; stepId: string; status: StepStatus; output?: unknown; error?: string }
  | { type: 'FINISHED'; sequence: number; status: WorkflowRunStatus; error?: string }
  | { type: 'PARKED'; sequence: number; approvalId: string; stepName: string }
  | { type: 'GAP'; droppedCount: number };

export interface BundleHandle {
  readonly handle: string;
  readonly agentId: string;
  readonly expiresAt: string;
  readonly createdAt: string;
}

export interface BundleRun {
  readonly jobId: string;
  readonly status: 'Queued' | 'Running' | 'Succeeded' | 'Failed';
  readonly error: string | null;
  readonly createdAt: string;
  readonly completedAt: string | null;
  readonly result: {
    readonly conversationSucceeded: boolean;
    readonly finalResponse: string;
    readonly turnCount: number;
    readonly totalToolInvocations: number;
    /** Stopped early, gracefully: the token budget or the spend limit (DESIGN §16). */
    readonly budgetExhausted?: boolean;
    readonly conversationError?: string | null;
  } | null;
  /** Tokens the run spent, sub-agents included; `costUsd` at ChatModel:Pricing (absent on older runs). */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd?: number };
  /** While a Running run waits for a person's decision on a tool call (DESIGN §13). */
  readonly pendingApprovals?: readonly PendingToolCall[];
}

export interface PendingToolCall {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly tool: string;
  readonly operation: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

export interface StartBundleRun {
  readonly jobId: string;
  readonly statusUrl: string;
  readonly streamUrl: string | null;
}

export interface Tally {
  readonly passed: number;
  readonly failed: number;
  readonly warned: number;
  readonly errored: number;
}

export interface EvalRun {
  readonly jobId: string;
  readonly status: 'Queued' | 'Running' | 'Succeeded' | 'Failed' | 'Cancelled';
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  readonly counts?: Tally & { readonly total: number };
  readonly verdict?: 'Pass' | 'Warn' | 'Fail';
  readonly durationMs?: number;
  readonly costUsd?: number;
  readonly datasets: readonly string[];
  readonly report?: {
    readonly failRate: number;
    readonly failRateThreshold: number;
    readonly repeats: number;
    readonly byDataset: readonly (Tally & { name: string })[];
    readonly byTag: readonly (Tally & { tag: string })[];
    readonly tokens: { readonly input: number; readonly output: number };
    readonly flakyCases: number;
    readonly passAtK: number;
    /** With a baseline (DESIGN §19): each case's outcome against the baseline run's. */
    readonly comparison?: EvalComparison;
  };
}

export type CaseOutcome = 'passed' | 'warned' | 'failed' | 'errored';

export interface CaseChange {
  /** As the compared run names it. */
  readonly dataset: string;
  readonly caseId: string;
  readonly was: CaseOutcome;
  readonly now: CaseOutcome;
}

export interface EvalComparison {
  /** The baseline run's job id. */
  readonly baseline: string;
  readonly regressions: readonly CaseChange[];
  readonly improvements: readonly CaseChange[];
  /** How many cases in both runs kept their outcome's rank. */
  readonly unchanged: number;
}

/** One of my own datasets as GET /api/evals/datasets/mine lists it: its latest version (DESIGN §19). */
export interface OwnDatasetSummary {
  readonly name: string;
  readonly version: number;
  readonly caseCount: number;
  readonly updatedAt: string;
}

export interface DatasetAssertion {
  readonly type: string;
  readonly value?: unknown;
  readonly severity?: 'error' | 'warn' | null;
  readonly flags?: string;
}

export interface DatasetCase {
  readonly id?: string | null;
  readonly description?: string | null;
  readonly tags?: readonly string[] | null;
  readonly input?: string;
  readonly messages?: readonly string[] | null;
  readonly assert?: readonly DatasetAssertion[] | null;
  readonly timeoutSeconds?: number | null;
}

/** One version of one of my datasets, as it was PUT (a DESIGN §7 dataset object). */
export interface OwnDataset {
  readonly name: string;
  readonly version: number;
  readonly createdAt: string;
  readonly description?: string | null;
  readonly subject?: { readonly agent?: string | null; readonly system?: string | null; readonly tools?: readonly string[] | null } | null;
  readonly cases: readonly DatasetCase[];
  readonly timeoutSeconds?: number | null;
}

export interface ToolEntry {
  readonly name: string;
  readonly description: string;
  readonly operations: readonly string[];
  readonly riskTier: 'Trivial' | 'Low' | 'Medium' | 'High' | 'Critical';
  readonly isReadOnly: boolean;
  readonly isConcurrencySafe: boolean;
  readonly isDirectlyInvocable: boolean;
}

export interface ToolDescription extends ToolEntry {
  /** JSON Schema of each operation's parameters, by operation name. */
  readonly parameters: Record<string, unknown>;
}

export interface ToolInvocation {
  readonly tool: string;
  readonly operation: string;
  readonly succeeded: boolean;
  readonly output?: string;
  readonly error?: string;
  readonly outputTruncated: boolean;
  readonly durationMs: number;
}

export interface Capabilities {
  readonly source: 'subject' | 'roles' | 'default' | 'anonymous';
  readonly matchedRoles: readonly string[];
  readonly allowedTools: readonly string[];
  readonly allowedMcpServers: readonly string[];
  readonly autonomyCeiling: 'Restricted' | 'Supervised' | 'Autonomous';
  readonly autoApproveUpTo: 'None' | 'Trivial' | 'Low' | 'Medium' | 'High';
  /** Spend limits in dollars (DESIGN §16); null is no limit. */
  readonly budget: { readonly maxUsdPerRun: number | null; readonly maxUsdPerDay: number | null; readonly maxUsdPerMonth: number | null };
  readonly tools: readonly { name: string; granted: boolean; reason: string }[];
  readonly families: HostFamilies;
  /** The policy layer in force (DESIGN §18); null when none is configured. */
  readonly policy: { readonly mode: 'Enforce' | 'Shadow'; readonly version: string } | null;
}

/**
 * Which families the host serves (decision 2703): its switches, the same for every caller. Direct tool
 * invocation's switch is not among them: SPEC.md keeps its 403 deliberately undistinguished.
 */
export interface HostFamilies {
  readonly bundles: boolean;
  readonly workflows: boolean;
  readonly evals: boolean;
  readonly schedules: boolean;
}

/** What one UTC day or month has spent so far, and when it starts again from zero. */
export interface SpendTotal {
  readonly spentUsd: number;
  readonly resetsAt: string;
}

/** GET /api/spend (DESIGN §16): my limits (null is no limit) and my spend this UTC day and month. */
export interface Spend {
  readonly currency: 'USD';
  readonly limits: { readonly perRun: number | null; readonly perDay: number | null; readonly perMonth: number | null };
  readonly day: SpendTotal;
  readonly month: SpendTotal;
}

/** A webhook subscription (DESIGN §14); `secret` only in the create answer. */
export interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  readonly createdAt: string;
}

export interface CreatedWebhook extends Webhook {
  readonly secret: string;
}

export interface WebhookDelivery {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly type: string;
  readonly attempt: number;
  readonly status: 'Pending' | 'Delivered' | 'Failed';
  readonly responseStatus: number | null;
  readonly durationMs: number | null;
  readonly nextAttemptAt: string | null;
  readonly createdAt: string;
}

/** What an eval run starts with: POST /api/evals/runs, and a schedule's eval target. */
export interface EvalRunRequest {
  readonly datasets: readonly string[];
  readonly repeats?: number;
  readonly parallelism?: number;
  readonly tagFilter?: readonly string[];
  readonly failRateThreshold?: number;
}

/** POST /api/evals/runs: a schedule's settings and what only a run started now takes (DESIGN §19). */
export interface StartEvalRunRequest extends EvalRunRequest {
  /** Every case a turn of this uploaded bundle of mine. */
  readonly subject?: { readonly handle: string };
  /** The jobId of an earlier Succeeded eval run of mine. */
  readonly baseline?: string;
  readonly failOnRegression?: boolean;
}

export type ScheduleTarget =
  | { readonly workflow: { readonly workflowId: string; readonly input?: Record<string, unknown> } }
  | { readonly eval: EvalRunRequest };

export interface Schedule {
  readonly id: string;
  readonly name: string;
  readonly cron: string;
  readonly timeZone: string;
  readonly target: ScheduleTarget;
  readonly enabled: boolean;
  /** Null while disabled. */
  readonly nextRunAt: string | null;
  readonly createdAt: string;
}

export interface ScheduleFire {
  readonly scheduledFor: string;
  readonly firedAt: string;
  readonly jobId?: string;
  readonly outcome: 'Started' | 'Skipped' | 'Failed';
  readonly reason?: string;
}
