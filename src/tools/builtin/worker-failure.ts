// Turns the ways a worker pool can fail to finish a request into tool failures; it does not interpret
// errors the worker's script reported (each operation words those itself).
import type { WorkerOutcome } from '../../platform/worker/index.js';
import { toolBusy, toolFailure, type ToolResult } from '../tool.js';

export type UnfinishedOutcome = Extract<WorkerOutcome, { status: 'timeout' | 'aborted' | 'crashed' | 'busy' }>;

/** `subject` names the work, e.g. "pattern" → "pattern timed out". */
export function workerFailure(outcome: UnfinishedOutcome, subject: string): ToolResult {
  switch (outcome.status) {
    case 'timeout':
      return toolFailure(`${subject} timed out`);
    case 'aborted':
      return toolFailure('aborted');
    case 'crashed':
      return toolFailure(`${subject} failed: the worker stopped (input too large for its memory limit?)`);
    case 'busy':
      return toolBusy(`${subject} not run: the tool has too many calls waiting; retry shortly`);
  }
}
