// A bundle run as an A2A task (DESIGN §20): id = jobId, contextId = its conversation. Queued is
// SUBMITTED, Running WORKING — or INPUT_REQUIRED while it waits for a person, the status message then
// carrying one data part `{ approvalId, tool, operation, arguments, expiresAt }` (arguments as the
// approval keeps them: redacted, null when withheld above the frame ceiling). Succeeded is COMPLETED
// with the final answer as a text artifact (FAILED when the conversation itself failed, its caller-safe
// error as the status message); Failed is FAILED, or CANCELED when it was cancelled. Reads no execution
// input, so nothing the run was given is echoed, and history stays empty. A task stopped early on its
// budget carries `metadata: { budgetExhausted, conversationError }`.
import { Role, TaskState, type Artifact, type Message, type Part, type Task, type TaskStatus } from '@a2a-js/sdk';
import { RUN_CANCELLED, type BundleRunRecord } from '../bundles/index.js';
import { isoInstant } from '../platform/clock/index.js';

/** The call a parked run waits on, as INPUT_REQUIRED shows it. */
export interface WaitingCallView {
  readonly approvalId: string;
  readonly tool: string;
  readonly operation: string;
  /** Redacted argument text, as the approval keeps it; null when withheld. */
  readonly arguments: string | null;
  readonly expiresAt: number | null;
  readonly createdAt: number;
}

/** The artifact that carries a completed task's final answer. */
export const ANSWER_ARTIFACT_ID = 'final-response';

export function taskOf(run: BundleRunRecord, waiting?: WaitingCallView): Task {
  return { id: run.jobId, contextId: run.contextId ?? '', status: statusOf(run, waiting), artifacts: artifactsOf(run), history: [], metadata: metadataOf(run) };
}

/** A completed task that stopped early on its budget (§5's lifetime tokens, §16's spend) says so, as the poll body does. */
function metadataOf(run: BundleRunRecord): Task['metadata'] {
  if (run.status !== 'Succeeded' || !run.result.budgetExhausted) return undefined;
  return { budgetExhausted: true, conversationError: run.result.conversationError };
}

export function statusOf(run: BundleRunRecord, waiting?: WaitingCallView): TaskStatus {
  switch (run.status) {
    case 'Queued':
      return status(TaskState.TASK_STATE_SUBMITTED, run.createdAt);
    case 'Running':
      if (waiting !== undefined) return status(TaskState.TASK_STATE_INPUT_REQUIRED, waiting.createdAt, agentMessage(run, `input-${waiting.approvalId}`, waitingParts(waiting)));
      return status(TaskState.TASK_STATE_WORKING, run.startedAt);
    case 'Succeeded': {
      const { conversationSucceeded, conversationError } = run.result;
      if (conversationSucceeded) return status(TaskState.TASK_STATE_COMPLETED, run.completedAt);
      return status(TaskState.TASK_STATE_FAILED, run.completedAt, agentMessage(run, 'error', [textPart(conversationError ?? 'The conversation failed.')]));
    }
    case 'Failed': {
      const state = run.error === RUN_CANCELLED ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_FAILED;
      return status(state, run.completedAt, agentMessage(run, 'error', [textPart(run.error)]));
    }
  }
}

/** The completed task's answer (the poll body's `finalResponse`, already redacted); none otherwise. */
export function artifactsOf(run: BundleRunRecord): Artifact[] {
  if (run.status !== 'Succeeded' || !run.result.conversationSucceeded) return [];
  return [{ artifactId: ANSWER_ARTIFACT_ID, name: 'finalResponse', description: 'The agent’s final answer.', parts: [textPart(run.result.finalResponse)], metadata: undefined, extensions: [] }];
}

/** Whether the task can change no more (COMPLETED, FAILED, CANCELED). */
export function isFinal(state: TaskState): boolean {
  return state === TaskState.TASK_STATE_COMPLETED || state === TaskState.TASK_STATE_FAILED || state === TaskState.TASK_STATE_CANCELED;
}

function status(state: TaskState, at: number, message?: Message): TaskStatus {
  return { state, message, timestamp: isoInstant(at) };
}

function agentMessage(run: BundleRunRecord, suffix: string, parts: Part[]): Message {
  return { messageId: `${run.jobId}-${suffix}`, contextId: run.contextId ?? '', taskId: run.jobId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

function waitingParts(waiting: WaitingCallView): Part[] {
  const { approvalId, tool, operation, expiresAt } = waiting;
  return [
    textPart(`The agent asks to call ${tool} (${operation}); a person decides. Answer with a data part { approvalId, decision: "Approve" | "Reject", comment? } on this task.`),
    { content: { $case: 'data', value: { approvalId, tool, operation, arguments: waiting.arguments, expiresAt: expiresAt === null ? null : isoInstant(expiresAt) } }, metadata: undefined, filename: '', mediaType: 'application/json' },
  ];
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}
