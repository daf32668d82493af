// How deep redactValue and containsSecret walk a value; the outermost object or array is at depth 1.
// A container nested deeper is not inspected, so it is replaced by the marker (and counts as a
// secret): content nobody looked at is never passed through.

export const MAX_REDACTION_DEPTH = 64;
