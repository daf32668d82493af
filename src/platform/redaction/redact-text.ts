// Redacts every detected secret in a text, keeping each rule's non-secret prefix
// (`password=[REDACTED]`, `Authorization: Bearer [REDACTED]`). Pure; linear in the text's length.
import { scanSecrets } from './find-secret-matches.js';
import { redactSpans, type SecretSpans } from './redact-range.js';
import { secretRules } from './secret-rules.js';

export function redactText(text: string): string {
  const spans: SecretSpans = { starts: [], ends: [] };
  scanSecrets(text, 0, secretRules, (_rule, _start, end, secretStart, accepted) => {
    if (accepted) {
      spans.starts.push(secretStart);
      spans.ends.push(end);
    }
  });
  return redactSpans(text, spans, 0, text.length);
}
