// The bounds that keep one policy decision well inside DESIGN §17's 100 ms of event loop, whatever
// the caller sends and whatever the operator writes (figures and reasoning: decision 3801).
// Argument bounds count only what is handed to Cedar: a property no policy reads is never walked.

/** §10's JSON depth cap (MAX_JSON_DEPTH in platform/http): deeper schema levels map to nothing. */
export const MAX_ARGUMENT_DEPTH = 64;

/** Values (records, sets, their members and scalars) of one call's arguments handed to Cedar. */
export const MAX_ARGUMENT_NODES = 10_000;

/** UTF-16 code units of argument text handed to Cedar (about 40 ns a byte crosses into Cedar). */
export const MAX_ARGUMENT_TEXT = 256 * 1024;

/** Policies in one set: a decision costs a few µs per policy that applies to the action. */
export const MAX_POLICIES = 1_000;

/** Bytes of policy text in one set (its files together); a decision is linear in what applies. */
export const MAX_POLICY_TEXT_BYTES = 256 * 1024;

/**
 * Cedar's `like` is O(pattern × text): the sum over a decision's `like` operations of (pattern length
 * + 1) × (longest text it may meet + 1) may not exceed this (about 2–25 ms measured; decision 3801).
 */
export const LIKE_WORK_BUDGET = 2_000_000;
