// Caller-safe step errors: fixed texts, never exception messages. A tool's own failure text is
// passed on redacted and bounded, as the direct-invocation endpoint does.
export const NO_CHAT_MODEL = 'No chat model is configured on this host.';
export const MODEL_CALL_FAILED = 'The chat model call failed.';
export const TOOL_DENIED = 'Tool call denied by policy.';
export const APPROVAL_REJECTED = 'The approval was rejected.';
export const APPROVAL_TIMED_OUT = 'The approval timed out, which counts as a rejection.';
export const SUB_PLAN_MISSING = 'The invoked workflow no longer exists.';
export const INDEX_MISSING = 'The retrieval index is not configured.';
export const CONDITION_BUDGET_EXCEEDED = 'The condition exceeded its evaluation budget.';
export const CONDITIONS_BUSY = 'The condition was not evaluated: too many conditions are waiting; try the run again shortly.';
export const CONDITION_NOT_EVALUATED = 'The condition could not be evaluated.';
export const MAX_TOOL_ERROR_BYTES = 4096;
export const templateTooLarge = (max: number): string => `The rendered template is larger than the ${max} bytes a template may render to.`;
export const stepOutputTooLarge = (max: number): string => `The step output is larger than the ${max} bytes a step may keep.`;
export const runOutputTooLarge = (max: number): string => `The run's step outputs would pass the ${max} bytes a run may keep.`;
