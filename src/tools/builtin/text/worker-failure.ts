// Turns the ways a bounded worker can fail to finish into tool failures; it does not interpret errors the
// worker's script reported (each operation words those itself).
import { toolFailure, type ToolResult } from '../../tool.js';
import type { WorkerOutcome } from './bounded-worker.js';

export type UnfinishedOutcome = Extract<WorkerOutcome, { status: 'timeout' | 'aborted' | 'crashed' }>;

/** `subject` names the work, e.g. "pattern" → "pattern timed out". */
export function workerFailure(outcome: UnfinishedOutcome, subject: string): ToolResult {
  switch (outcome.status) {
    case 'timeout':
      return toolFailure(`${subject} timed out`);
    case 'aborted':
      return toolFailure('aborted');
    case 'crashed':
      return toolFailure(`${subject} failed: the worker stopped (input too large for its memory limit?)`);
  }
}
