// The record of one workflow run: who started it and under which envelope (never projected), its
// status and timestamps, the expanded step list, approvals with their decisions, the numbered event
// log, and the abort controller that stops it. Lives in memory; swept after RunRecordTtl once final.
import type { EffectiveEnvelope, ResolvedEnvelope } from '../../platform/envelope/index.js';
import type { JsonObject, StepType } from '../definition/workflow-definition.js';
import type { StepUsage } from '../engine/step-runner.js';
import type { WorkflowGraph } from '../engine/workflow-graph.js';
import type { LogEntry, RunLog } from './run-log.js';
import type { ApprovalRecord } from './approval-record.js';
import type { RunStatus, StepStatus } from './run-status.js';

export interface RunStepRecord {
  readonly id: string;
  /** Path in the run (child steps prefixed with their sub-plan step's). */
  readonly name: string;
  readonly type: StepType;
  status: StepStatus;
  startedAt: number | null;
  completedAt: number | null;
  /** Raw output as the step produced it; redacted on the way out. */
  output: unknown;
  error: string | null;
  usage: StepUsage | null;
  /** Memoised redacted output (outputs never change once set). */
  redactedOutput?: unknown;
}

export interface WorkflowRun {
  readonly jobId: string;
  readonly workflowId: string;
  readonly ownerId: string;
  /** Captured from the starting caller at start-run; applies for the whole run. Never projected. */
  readonly envelope: ResolvedEnvelope | EffectiveEnvelope;
  readonly input: JsonObject;
  readonly graph: WorkflowGraph;
  readonly createdAt: number;
  status: RunStatus;
  startedAt: number | null;
  completedAt: number | null;
  error: string | null;
  readonly steps: readonly RunStepRecord[];
  readonly stepsById: ReadonlyMap<string, RunStepRecord>;
  readonly approvals: ApprovalRecord[];
  readonly log: RunLog;
  /** The most recent PARKED entry, replayed to watchers that attach while the run is Blocked. */
  parked: LogEntry | null;
  readonly controller: AbortController;
  cancelRequested: boolean;
  readonly usage: { inputTokens: number; outputTokens: number };
  /** Resolves once the run is final. */
  readonly settled: Promise<void>;
  markSettled(): void;
}
