// Secret detection and redaction for logs, stream frames, tool output, error text and the governed call's
// data-classification check. The only module other code imports from this folder.
export { REDACTED } from './redacted.js';
export { redactText } from './redact-text.js';
export { redactValue, redactValueOrSame } from './redact-value.js';
export { containsSecret } from './contains-secret.js';
export { textCarriesNoSecret } from './text-carries-no-secret.js';
export { redactThenTruncate, type TruncatedText } from './redact-then-truncate.js';
export { StreamRedactor, DEFAULT_HOLD_BACK_CHARS, type StreamRedactorOptions } from './stream-redactor.js';
export { secretRules } from './secret-rules.js';
export { MAX_REDACTION_DEPTH } from './depth-limit.js';
export type { SecretRule, SecretRuleExamples } from './secret-rule.js';
export { redactionCounts } from './redaction-tally.js';
