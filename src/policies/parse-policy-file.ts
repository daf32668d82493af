// One policy file as its policies in source order, each with its JSON form and the line it starts
// on. Cedar names the policies of a text policy0, policy1, … in order but hands them back sorted by
// that name as text (policy0, policy1, policy10, policy2, …), so the order is put back from the names.
// Templates (`?principal`, `?resource`) are refused: nothing here links them.
import type { PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { Cedar } from './cedar-module.js';
import { locatedMessage, type LocatedMessage } from './cedar-message.js';
import { MAX_POLICIES } from './policy-bounds.js';
import type { SourceLines } from './source-lines.js';

export interface ParsedPolicy {
  readonly text: string;
  readonly json: PolicyJson;
  readonly line: number;
}

export type ParsedFile = { readonly ok: true; readonly policies: readonly ParsedPolicy[] } | { readonly ok: false; readonly errors: readonly LocatedMessage[] };

/** `room`: how many more policies the set may hold; a file beyond it is refused before its policies are read. */
export function parsePolicyFile(cedar: Cedar, lines: SourceLines, room: number): ParsedFile {
  const text = lines.bytes.toString('utf8');
  const parts = cedar.policySetTextToParts(text);
  if (parts.type === 'failure') return { ok: false, errors: parts.errors.map((error) => locatedMessage(error, lines)) };
  if (parts.policy_templates.length > 0) {
    const errors = parts.policy_templates.map((template) => ({
      line: lineOfText(lines, template, 0),
      message: 'policy templates (?principal, ?resource) are not supported: write the entity in the policy',
    }));
    return { ok: false, errors };
  }
  if (parts.policies.length > room) {
    return { ok: false, errors: [{ line: null, message: `with this file the set holds more than ${MAX_POLICIES} policies, the most a set may hold (decision 3801)` }] };
  }
  const policies: ParsedPolicy[] = [];
  let cursor = 0;
  for (const policyText of inSourceOrder(parts.policies)) {
    const json = cedar.policyToJson(policyText);
    if (json.type === 'failure') return { ok: false, errors: json.errors.map((error) => locatedMessage(error, lines)) };
    const at = lines.bytes.indexOf(policyText, cursor, 'utf8');
    policies.push({ text: policyText, json: json.json, line: at < 0 ? lines.lineOf(cursor) : lines.lineOf(at) });
    if (at >= 0) cursor = at + Buffer.byteLength(policyText);
  }
  return { ok: true, policies };
}

/** `sorted[i]` is the policy Cedar named the i-th of `policy0…policyN-1` in code-unit order. */
function inSourceOrder(sorted: readonly string[]): string[] {
  const names = sorted.map((_, index) => `policy${index}`).sort();
  const ordered: string[] = new Array<string>(sorted.length);
  names.forEach((name, i) => (ordered[Number(name.slice('policy'.length))] = sorted[i] ?? ''));
  return ordered;
}

function lineOfText(lines: SourceLines, text: string, from: number): number | null {
  const at = lines.bytes.indexOf(text, from, 'utf8');
  return at < 0 ? null : lines.lineOf(at);
}
