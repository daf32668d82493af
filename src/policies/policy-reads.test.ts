import { describe, expect, it } from 'vitest';
import { loadCedar } from './cedar-module.js';
import { readsOf } from './policy-reads.js';
import { scopeTestOf } from './policy-scope.js';

const cedar = await loadCedar();
const json = (text: string) => {
  const answer = cedar.policyToJson(text);
  if (answer.type === 'failure') throw new Error(answer.errors[0]?.message);
  return answer.json;
};
const RECORD_NAMES = new Set(['run', 'arguments', 'customer']);
const reads = (when: string) => readsOf(json(`permit(principal, action, resource) when { ${when} };`), RECORD_NAMES);

describe('readsOf', () => {
  it('collects every attribute name a policy reads, through `.`, `has a.b.c` and ["…"]', () => {
    expect([...reads('context.arguments.url like "x*" && context has run.toolCalls && context["odd name"] == 1').names].sort()).toEqual(['arguments', 'odd name', 'run', 'toolCalls', 'url']);
  });

  it('notes tag use', () => {
    expect(reads('principal.hasTag("d")').usesTags).toBe(true);
    expect(reads('principal.subject == "a"').usesTags).toBe(false);
  });

  it('notes a whole-record comparison, however the record is reached, and not a comparison of scalars', () => {
    expect(reads('context.run == {"toolCalls": 1, "callsOfThisTool": 0, "spentMicroUsd": 0}').observesRecords).toBe(true);
    expect(reads('[context.arguments.customer].contains(context.arguments.customer)').observesRecords).toBe(true);
    expect(reads('(if context.utcHour > 3 then context.arguments else context.arguments) != context.arguments').observesRecords).toBe(true);
    expect(reads('context == context').observesRecords).toBe(true);
    expect(reads('context.arguments.url == "x" && context.run.toolCalls != 2 && ["a"].contains(context.arguments.url)').observesRecords).toBe(false);
  });

  it('measures each like: pattern length and where its text may come from', () => {
    expect(reads('context.arguments.url like "https://*"').likes).toEqual([{ patternLength: 9, attributes: ['url'], tags: false, literal: 0, anywhere: false }]);
    expect(reads('principal.getTag("d") like "*x*"').likes).toEqual([{ patternLength: 3, attributes: [], tags: true, literal: 0, anywhere: false }]);
    expect(reads('(if context.utcHour > 3 then "abcd" else context.operation) like "*"').likes).toEqual([
      { patternLength: 1, attributes: ['operation'], tags: false, literal: 4, anywhere: false },
    ]);
  });
});

describe('scopeTestOf', () => {
  const applies = (scope: string) => scopeTestOf(json(`${scope};`));

  it('reads the action scope: ==, in a list, in the call group, none', () => {
    expect(applies('permit(principal, action == Portcullis::Action::"clock.now", resource)')('clock', 'now')).toBe(true);
    expect(applies('permit(principal, action == Portcullis::Action::"clock.now", resource)')('clock', 'convert')).toBe(false);
    expect(applies('permit(principal, action in [Portcullis::Action::"clock.now", Portcullis::Action::"text.diff"], resource)')('text', 'diff')).toBe(true);
    expect(applies('permit(principal, action in Portcullis::Action::"call", resource)')('memory', 'set')).toBe(true);
    expect(applies('permit(principal, action == Portcullis::Action::"call", resource)')('memory', 'set')).toBe(false);
    expect(applies('permit(principal, action, resource)')('memory', 'set')).toBe(true);
  });

  it('reads the resource scope: one tool by ==, in, or is … in; any tool otherwise', () => {
    expect(applies('permit(principal, action, resource == Portcullis::Tool::"clock")')('clock', 'now')).toBe(true);
    expect(applies('permit(principal, action, resource == Portcullis::Tool::"clock")')('text', 'diff')).toBe(false);
    expect(applies('permit(principal, action, resource in Portcullis::Tool::"clock")')('text', 'diff')).toBe(false);
    expect(applies('permit(principal, action, resource is Portcullis::Tool in Portcullis::Tool::"clock")')('text', 'diff')).toBe(false);
    expect(applies('permit(principal, action, resource is Portcullis::Tool)')('text', 'diff')).toBe(true);
  });
});
