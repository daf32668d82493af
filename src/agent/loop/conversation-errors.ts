// Caller-safe `conversationError` values the loop itself produces (a chat-model failure reports the
// ChatModelError's own caller-safe message instead).

/** The model still wanted tools after `maxModelCallsPerTurn` model calls in one turn. */
export const MODEL_CALL_LIMIT_ERROR = 'The agent reached the limit of model calls for one turn.';
