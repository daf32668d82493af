// The one marker that replaces a secret everywhere: logs, stream frames, tool output, error text.
// A value equal to it is never itself treated as a secret, so redaction is idempotent.

export const REDACTED = '[REDACTED]';
