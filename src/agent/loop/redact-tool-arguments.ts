// The redacted form of a model's arguments text, as TOOL_CALL_ARGS carries it and history stores it:
// parsed JSON is redacted value by value (so key-marked secrets are caught) and re-serialised; text
// that does not parse is redacted as text.
import { redactText, redactValue } from '../../platform/redaction/index.js';
import { parseArgumentsJson } from './parse-arguments-json.js';

export function redactToolArguments(text: string): string {
  const parsed = parseArgumentsJson(text);
  if (!parsed.ok) return redactText(text);
  return JSON.stringify(redactValue(parsed.value));
}
