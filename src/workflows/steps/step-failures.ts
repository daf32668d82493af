// Caller-safe step errors: fixed texts, never exception messages. A tool's own failure text is
// passed on redacted and bounded, as the direct-invocation endpoint does.
export const NO_CHAT_MODEL = 'No chat model is configured on this host.';
export const MODEL_CALL_FAILED = 'The chat model call failed.';
export const TOOL_DENIED = 'Tool call denied by policy.';
export const APPROVAL_REJECTED = 'The approval was rejected.';
export const APPROVAL_TIMED_OUT = 'The approval timed out, which counts as a rejection.';
export const SUB_PLAN_MISSING = 'The invoked workflow no longer exists.';
export const INDEX_MISSING = 'The retrieval index is not configured.';
export const MAX_TOOL_ERROR_BYTES = 4096;
