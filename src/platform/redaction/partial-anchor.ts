// Recognises a text that ends part-way through an anchor ("…gh" may become "ghp_…"): a stream must
// not emit those characters until the next chunk tells whether a secret starts there.
import type { SecretRule } from './secret-rule.js';
import { secretRules } from './secret-rules.js';

/** Every proper prefix of every anchor, with the rules whose anchors begin with it. */
const rulesByPrefix = new Map<string, SecretRule[]>();
for (const rule of secretRules) {
  for (const anchor of rule.anchors) {
    for (let length = 1; length < anchor.length; length += 1) {
      const prefix = anchor.slice(0, length);
      const rules = rulesByPrefix.get(prefix) ?? [];
      if (!rules.includes(rule)) rules.push(rule);
      rulesByPrefix.set(prefix, rules);
    }
  }
}
const longestPrefix = Math.max(...[...rulesByPrefix.keys()].map((prefix) => prefix.length));

export interface PartialAnchor {
  readonly start: number;
  readonly rules: readonly SecretRule[];
}

/** The earliest start (at or after `from`) of a suffix of `text` that is a proper prefix of an anchor. */
export function findPartialAnchor(text: string, from: number): PartialAnchor | undefined {
  for (let length = Math.min(longestPrefix, text.length - from); length >= 1; length -= 1) {
    const rules = rulesByPrefix.get(text.slice(text.length - length).toLowerCase());
    if (rules !== undefined) return { start: text.length - length, rules };
  }
  return undefined;
}
