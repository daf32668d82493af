// A decision on a tool's output text alone, before it is parsed: true when neither the text nor the
// value JSON.parse makes of it (nor the text itself, when it is not JSON) can carry a secret that
// containsSecret would find, so its redacted form is the value itself. False only means "not known":
// scan the value. One anchor pass over the text costs a fraction of visiting every key, value and
// key-value pair of the parsed value (a workflow step's output is checked on every step).
//
// Why the text decides: without a backslash, every key and string in the parsed value is a substring
// of the text as written (JSON escapes are the only way a string differs from its text), so an anchor
// in any of them is an anchor in the text; no rule matches without one, and escaped text is never
// decided here. A key-value pair is read as `"key": "value"`: the only anchors with a quote or colon
// are `"private_key"` (whose key holds the anchor `private_key` itself) and `://` (which `": "` cannot
// form). Values deeper than the depth limit count as secret, so a text with that many brackets is not
// decided here either.
import { MAX_REDACTION_DEPTH } from './depth-limit.js';
import { containsAnchor } from './find-secret-matches.js';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

export function textCarriesNoSecret(text: string): boolean {
  if (text.includes('\\') || containsAnchor(text)) return false;
  // Opening brackets bound the nesting from above: fewer than the limit cannot reach it.
  let opened = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if ((code === OPEN_BRACE || code === OPEN_BRACKET) && ++opened >= MAX_REDACTION_DEPTH) return false;
  }
  return true;
}
