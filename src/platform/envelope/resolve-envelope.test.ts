import { describe, expect, it } from 'vitest';
import type { EnvelopeGrantConfig, EnvelopesConfig } from '../config/types.js';
import type { AutonomyTier } from './autonomy.js';
import { decideTool } from './decide-tool.js';
import { resolveEnvelope } from './resolve-envelope.js';
import type { EnvelopeSubject } from './resolved-envelope.js';
import { NO_BUDGET } from './budget.js';

const grant = (allowedTools: string[], allowedMcpServers: string[] = [], autonomyCeiling: AutonomyTier = 'Autonomous'): EnvelopeGrantConfig => ({
  allowedTools,
  allowedMcpServers,
  autonomyCeiling,
  autoApproveUpTo: 'None',
  budget: NO_BUDGET,
});
const who = (subjectId: string | null, roles: string[] = [], anonymous = false): EnvelopeSubject => ({ subjectId, roles, anonymous });

const config: EnvelopesConfig = {
  default: grant(['clock'], [], 'Supervised'),
  bySubject: { 'user-1': grant(['calculator'], ['fs']), 'User-2': grant(['json']) },
  byRole: {
    'Harness.A': grant(['clock', 'text', 'memory'], ['fs', 'git'], 'Autonomous'),
    'Harness.B': grant(['text', 'memory', 'knowledge'], ['git'], 'Supervised'),
    'Harness.C': grant(['memory', 'text', 'json'], ['git', 'web'], 'Restricted'),
    'Harness.Empty': grant([], [], 'Autonomous'),
  },
};

describe('resolveEnvelope resolution order', () => {
  it.each([
    { name: 'an exact subject match beats matching roles', w: who('user-1', ['Harness.A']), source: 'subject', tools: ['calculator'] },
    { name: 'an exact subject match applies without roles', w: who('user-1'), source: 'subject', tools: ['calculator'] },
    { name: 'subject lookup is case-sensitive (upper-cased id)', w: who('USER-1'), source: 'default', tools: ['clock'] },
    { name: 'subject lookup is case-sensitive (lower-cased key)', w: who('user-2'), source: 'default', tools: ['clock'] },
    { name: 'subject lookup matches the key as written', w: who('User-2'), source: 'subject', tools: ['json'] },
    { name: 'a role named like a subject does not match BySubject', w: who(null, ['user-1']), source: 'default', tools: ['clock'] },
    { name: 'a subject id named like a role does not match ByRole', w: who('Harness.A'), source: 'default', tools: ['clock'] },
    { name: 'an unmatched subject falls through to roles', w: who('nobody', ['Harness.A']), source: 'roles', tools: ['clock', 'memory', 'text'] },
    { name: 'role matching is case-sensitive', w: who(null, ['harness.a', 'HARNESS.A']), source: 'default', tools: ['clock'] },
    { name: 'unknown roles are ignored beside a matching one', w: who(null, ['Other', 'Harness.A']), source: 'roles', tools: ['clock', 'memory', 'text'] },
    { name: 'no subject and no roles gives the default', w: who(null), source: 'default', tools: ['clock'] },
    { name: 'unmatched subject and roles give the default', w: who('nobody', ['Other']), source: 'default', tools: ['clock'] },
    { name: 'anonymous gets the default even with a matching subject and role', w: who('user-1', ['Harness.A'], true), source: 'anonymous', tools: ['clock'] },
    { name: 'anonymous without claims gets the default', w: who(null, [], true), source: 'anonymous', tools: ['clock'] },
    { name: 'prototype keys never match a subject', w: who('__proto__'), source: 'default', tools: ['clock'] },
    { name: 'constructor never matches a subject', w: who('constructor'), source: 'default', tools: ['clock'] },
    { name: 'prototype keys never match a role', w: who(null, ['toString', '__proto__', 'hasOwnProperty']), source: 'default', tools: ['clock'] },
  ])('$name', ({ w, source, tools }) => {
    const resolved = resolveEnvelope(config, w);
    expect(resolved.source).toBe(source);
    expect(resolved.allowedTools).toEqual(tools);
    if (source !== 'roles') expect(resolved.matchedRoles).toEqual([]);
  });

  it('treats an empty subject id as no subject, even when configured', () => {
    const withEmpty: EnvelopesConfig = { ...config, bySubject: { '': grant(['memory']) } };
    expect(resolveEnvelope(withEmpty, who('')).source).toBe('default');
  });

  it('returns a frozen envelope so a captured grant cannot be edited mid-run', () => {
    const resolved = resolveEnvelope(config, who(null, ['Harness.A']));
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(Object.isFrozen(resolved.allowedTools)).toBe(true);
    expect(Object.isFrozen(resolved.allowedMcpServers)).toBe(true);
    expect(Object.isFrozen(resolved.matchedRoles)).toBe(true);
  });

  it('normalises the lists it returns: lower-cased, canonical, deduplicated, sorted, inert entries dropped', () => {
    const messy: EnvelopesConfig = {
      default: grant([' Clock ', 'clock', 'mcp__FS', 'mcp__fs__read', '*', 'mcp__'], ['FS', ' fs ', '', 'Git']),
      bySubject: {},
      byRole: {},
    };
    const resolved = resolveEnvelope(messy, who(null));
    expect(resolved.allowedTools).toEqual(['clock', 'mcp__fs__*']);
    expect(resolved.allowedMcpServers).toEqual(['fs', 'git']);
  });

  it('degrades a ceiling outside the three tiers to Restricted', () => {
    const odd: EnvelopesConfig = { default: grant(['clock'], [], 'Bogus' as AutonomyTier), bySubject: {}, byRole: {} };
    expect(resolveEnvelope(odd, who(null)).autonomyCeiling).toBe('Restricted');
  });
});

describe('resolveEnvelope role combination', () => {
  it.each([
    { roles: ['Harness.A'], matched: ['Harness.A'], tools: ['clock', 'memory', 'text'], servers: ['fs', 'git'], ceiling: 'Autonomous' },
    { roles: ['Harness.A', 'Harness.B'], matched: ['Harness.A', 'Harness.B'], tools: ['memory', 'text'], servers: ['git'], ceiling: 'Supervised' },
    { roles: ['Harness.B', 'Harness.A'], matched: ['Harness.A', 'Harness.B'], tools: ['memory', 'text'], servers: ['git'], ceiling: 'Supervised' },
    { roles: ['Harness.A', 'Harness.C'], matched: ['Harness.A', 'Harness.C'], tools: ['memory', 'text'], servers: ['git'], ceiling: 'Restricted' },
    { roles: ['Harness.C', 'Harness.B', 'Harness.A'], matched: ['Harness.A', 'Harness.B', 'Harness.C'], tools: ['memory', 'text'], servers: ['git'], ceiling: 'Restricted' },
    { roles: ['Harness.A', 'Harness.A'], matched: ['Harness.A'], tools: ['clock', 'memory', 'text'], servers: ['fs', 'git'], ceiling: 'Autonomous' },
    { roles: ['Harness.A', 'Harness.Empty'], matched: ['Harness.A', 'Harness.Empty'], tools: [], servers: [], ceiling: 'Autonomous' },
    { roles: ['Harness.A', 'Harness.B', 'Harness.C', 'Harness.Empty'], matched: ['Harness.A', 'Harness.B', 'Harness.C', 'Harness.Empty'], tools: [], servers: [], ceiling: 'Restricted' },
  ])('combines $roles to tools $tools, servers $servers, ceiling $ceiling', ({ roles, matched, tools, servers, ceiling }) => {
    const resolved = resolveEnvelope(config, who(null, roles));
    expect(resolved).toEqual({
      source: 'roles',
      matchedRoles: matched,
      allowedTools: tools,
      allowedMcpServers: servers,
      autonomyCeiling: ceiling,
      autoApproveUpTo: 'None',
      budget: NO_BUDGET,
      // Whom it was resolved for, as policies see the caller: every role, as the token had them.
      caller: { subject: '', roles, claims: {} },
    });
  });

  it('lets a role with empty lists zero the combination: nothing is allowed', () => {
    const resolved = resolveEnvelope(config, who(null, ['Harness.A', 'Harness.Empty']));
    for (const tool of ['clock', 'memory', 'text', 'mcp__fs__read', 'mcp__git__log']) {
      expect(decideTool(resolved, tool).allowed).toBe(false);
    }
  });

  const pairs: { a: EnvelopeGrantConfig; b: EnvelopeGrantConfig; tools: string[]; servers: string[] }[] = [
    { a: grant(['mcp__s__*'], ['s']), b: grant(['mcp__s__t'], ['s']), tools: ['mcp__s__t'], servers: ['s'] },
    { a: grant(['mcp__s'], ['s']), b: grant(['mcp__s__*'], ['s']), tools: ['mcp__s__*'], servers: ['s'] },
    { a: grant(['mcp__s__*'], ['s']), b: grant(['mcp__t__*'], ['t']), tools: [], servers: [] },
    { a: grant(['mcp__s__a', 'mcp__s__b'], ['S', 'T']), b: grant(['mcp__s__b', 'mcp__s__c'], ['s']), tools: ['mcp__s__b'], servers: ['s'] },
    { a: grant(['mcp__s__*', 'clock'], ['s', 't']), b: grant(['mcp__s__x__y', 'Clock'], ['t', 's']), tools: ['clock', 'mcp__s__x__y'], servers: ['s', 't'] },
    { a: grant(['clock'], []), b: grant(['mcp__clock__*'], ['clock']), tools: [], servers: [] },
  ];

  it.each(pairs)('intersects tool permission sets truly: $a.allowedTools ∩ $b.allowedTools', ({ a, b, tools, servers }) => {
    const pair: EnvelopesConfig = { default: grant([]), bySubject: {}, byRole: { A: a, B: b } };
    const resolved = resolveEnvelope(pair, who(null, ['A', 'B']));
    expect(resolved.allowedTools).toEqual(tools);
    expect(resolved.allowedMcpServers).toEqual(servers);
  });

  const candidates = ['clock', 'mcp__clock__x', 'mcp__s__t', 'mcp__s__a', 'mcp__s__b', 'mcp__s__c', 'mcp__s__x__y', 'mcp__t__t', 'MCP__S__T'];
  it.each(pairs)('allows exactly what both roles allow on their own: $a.allowedTools, $b.allowedTools', ({ a, b }) => {
    const pair: EnvelopesConfig = { default: grant([]), bySubject: {}, byRole: { A: a, B: b } };
    const combined = resolveEnvelope(pair, who(null, ['A', 'B']));
    const onlyA = resolveEnvelope(pair, who(null, ['A']));
    const onlyB = resolveEnvelope(pair, who(null, ['B']));
    for (const tool of candidates) {
      expect(decideTool(combined, tool).allowed, tool).toBe(decideTool(onlyA, tool).allowed && decideTool(onlyB, tool).allowed);
    }
  });
});

describe('resolveEnvelope for a repeated caller', () => {
  const frozenConfig = Object.freeze({ ...config });
  it('answers the same frozen envelope for the same frozen caller and config', () => {
    const caller = Object.freeze({ subjectId: null, roles: Object.freeze(['Harness.A']), anonymous: false });
    const first = resolveEnvelope(frozenConfig, caller);
    expect(resolveEnvelope(frozenConfig, caller)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(resolveEnvelope(frozenConfig, Object.freeze({ ...caller, roles: Object.freeze(['Harness.B']) })).source).toBe('roles');
  });

  it('resolves a caller that is not frozen afresh every time', () => {
    const caller = { subjectId: null, roles: ['Harness.A'], anonymous: false };
    expect(resolveEnvelope(frozenConfig, caller).allowedTools).toContain('clock');
    caller.roles = ['Harness.B'];
    expect(resolveEnvelope(frozenConfig, caller).allowedTools).not.toContain('clock');
  });
});

describe('resolveEnvelope spend limits (DESIGN §16)', () => {
  const limited = (maxUsdPerRun: number | null, maxUsdPerDay: number | null, maxUsdPerMonth: number | null): EnvelopeGrantConfig => ({
    ...grant(['clock']),
    budget: { maxUsdPerRun, maxUsdPerDay, maxUsdPerMonth },
  });
  const budgets: EnvelopesConfig = {
    default: limited(null, 1, null),
    bySubject: { generous: limited(null, null, 500) },
    byRole: { Team: limited(2, 50, null), Interns: limited(null, 0.01, 10), Open: grant(['clock']) },
  };

  it('combines roles to the smallest of each limit, a limit one role leaves out being the other’s', () => {
    expect(resolveEnvelope(budgets, who(null, ['Team', 'Interns'])).budget).toEqual({ maxUsdPerRun: 2, maxUsdPerDay: 0.01, maxUsdPerMonth: 10 });
    expect(resolveEnvelope(budgets, who(null, ['Team', 'Open'])).budget).toEqual({ maxUsdPerRun: 2, maxUsdPerDay: 50, maxUsdPerMonth: null });
  });

  it('lets a subject entry win outright, even when its roles are stricter', () => {
    expect(resolveEnvelope(budgets, who('generous', ['Interns'])).budget).toEqual({ maxUsdPerRun: null, maxUsdPerDay: null, maxUsdPerMonth: 500 });
  });

  it('gives the default’s limits to anonymous callers and callers matching nothing, and none where none is set', () => {
    expect(resolveEnvelope(budgets, who(null, [], true)).budget).toEqual({ maxUsdPerRun: null, maxUsdPerDay: 1, maxUsdPerMonth: null });
    expect(resolveEnvelope(budgets, who('someone', ['Unknown'])).budget).toEqual({ maxUsdPerRun: null, maxUsdPerDay: 1, maxUsdPerMonth: null });
    expect(resolveEnvelope(budgets, who(null, ['Open'])).budget).toEqual(NO_BUDGET);
  });
});
