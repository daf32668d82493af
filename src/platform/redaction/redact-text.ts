// Redacts every detected secret in a text, keeping each rule's non-secret prefix
// (`password=[REDACTED]`, `Authorization: Bearer [REDACTED]`). A secret written with JSON string
// escapes (`\u0067hp_…`) is found in the decoded text and cut out of the original, so redaction
// holds on what a client decodes. Pure; linear in the text's length (per decoding level).
import { decodedViews } from './decoded-views.js';
import { containsAnchor, scanSecrets, type SecretMatchVisitor } from './find-secret-matches.js';
import { redactSpans, type SecretSpans } from './redact-range.js';
import { secretRules } from './secret-rules.js';
import { countRedaction } from './redaction-tally.js';

export function redactText(text: string): string {
  // Most texts (log fields, timestamps, ids, prose) hold no anchor and no escape: nothing can match.
  if (!text.includes('\\') && !containsAnchor(text)) return text;
  const spans: SecretSpans = { starts: [], ends: [] };
  scanSecrets(text, 0, secretRules, collectInto(spans));
  for (const view of decodedViews(text)) scanSecrets(view.text, 0, secretRules, collectInto(spans, view.rawOffsets));
  return redactSpans(text, spans, 0, text.length);
}

/** Records accepted secrets as spans of the original text (through `toRaw` when scanning a decoding). */
function collectInto(spans: SecretSpans, toRaw?: Int32Array): SecretMatchVisitor {
  return (rule, _start, end, secretStart, accepted) => {
    if (!accepted) return;
    countRedaction(rule.id);
    spans.starts.push(toRaw === undefined ? secretStart : toRaw[secretStart]!);
    spans.ends.push(toRaw === undefined ? end : toRaw[end]!);
  };
}
