// Whose spend a model call is, and under which limits (DESIGN §16): the owner, the family and run the
// call is made for, and the budget of the envelope captured when the run started.
import type { Budget } from '../envelope/index.js';

export type SpendFamily = 'bundle' | 'workflow' | 'eval';

export interface SpendAccount {
  readonly ownerId: string;
  readonly family: SpendFamily;
  /** The run's job id: MaxUsdPerRun counts this run's calls on any instance. */
  readonly runId: string;
  readonly budget: Budget;
}

/** The caller-safe sentence every refusal carries: a bundle run's conversationError, a step's error, an eval case's reason. */
export const SPEND_LIMIT_REACHED = 'The spend limit was reached.';
