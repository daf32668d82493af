// The text tool's input and output bounds, shared by its schemas and its operations.
/** Longest `text`, `before` or `after`, in characters (code points, as JSON Schema counts them). */
export const MAX_TEXT_LENGTH = 1_048_576;
export const MAX_PATTERN_LENGTH = 1000;
export const MAX_MATCHES = 1000;
/** Total characters of matches and groups returned before the list is cut and flagged truncated. */
export const MAX_CAPTURED_CHARACTERS = 1_048_576;
export const DEFAULT_TIMEOUT_MS = 1000;
