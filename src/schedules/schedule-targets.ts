// What a fire starts, as a port the composition root fills: the schedules feature knows no other
// family (an import zone), so app.ts hands it each family's own start use case. A start obeys every
// cap and check a request would; what refuses it says why as a ProblemError, and that decides how the
// fire is recorded: Skipped when something in the way will pass (a live run of that workflow, a cap,
// the storage away), Failed otherwise (a missing workflow or dataset, a missing role, bad options).
import type { Principal } from '../platform/auth/index.js';
import { isProblemError, type ProblemCode } from '../platform/problems/index.js';
import { redactText } from '../platform/redaction/index.js';
import { isStorageUnavailable } from '../platform/storage/index.js';
import type { FireOutcome } from './schedule-fire.js';
import type { EvalTarget } from './schemas.js';

export interface ScheduleTargets {
  startWorkflow(runAs: Principal, workflowId: string, input: Readonly<Record<string, unknown>> | undefined): Promise<{ readonly jobId: string }>;
  startEval(runAs: Principal, request: EvalTarget): Promise<{ readonly jobId: string }>;
  /** Whether the caller has that workflow (checked when a schedule is created or its target changed). */
  workflowExists(owner: Principal, workflowId: string): Promise<boolean>;
  /** Whether every named dataset is one a run of the caller could name (host roots, or the caller's own). */
  datasetsExist(owner: Principal, names: readonly string[]): Promise<boolean>;
}

/** Refusals that pass with time: the fire is Skipped, the next one may start. */
const TRANSIENT: readonly ProblemCode[] = ['conflict', 'rate-limited', 'unavailable'];
const MAX_REASON_LENGTH = 500;
export const START_FAILED_REASON = 'The run could not be started (an unexpected error; the host log has the cause).';
const STORAGE_AWAY_REASON = 'The storage could not be reached when the schedule fired.';

export interface Refusal {
  readonly outcome: Exclude<FireOutcome, 'Started'>;
  /** Caller-safe: a problem's detail (redacted), else a fixed sentence. */
  readonly reason: string;
  /** The problem code for the audit line, `internal` for anything that was not a problem. */
  readonly problem: ProblemCode;
}

export function classifyRefusal(error: unknown): Refusal {
  if (isProblemError(error)) {
    return { outcome: TRANSIENT.includes(error.code) ? 'Skipped' : 'Failed', reason: redactText(error.detail).slice(0, MAX_REASON_LENGTH), problem: error.code };
  }
  if (isStorageUnavailable(error)) return { outcome: 'Skipped', reason: STORAGE_AWAY_REASON, problem: 'unavailable' };
  return { outcome: 'Failed', reason: START_FAILED_REASON, problem: 'internal' };
}
