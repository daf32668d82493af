import { describe, expect, it } from 'vitest';
import type { EnvelopeGrantConfig, EnvelopesConfig } from '../config/types.js';
import type { AutonomyTier } from './autonomy.js';
import { explainTools } from './explain-tools.js';
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
const config: EnvelopesConfig = {
  default: grant(['clock']),
  bySubject: { 'user-1': grant(['calculator', 'mcp__fs'], ['fs']), 'user-2': grant(['clock'], [], 'Supervised') },
  byRole: {
    'Harness.A': grant(['text', 'json']),
    'Harness.B': grant(['text', 'memory']),
    Reader: grant(['mcp__fs__read', 'knowledge'], []),
  },
};
const who = (subjectId: string | null, roles: string[] = [], anonymous = false): EnvelopeSubject => ({ subjectId, roles, anonymous });

describe('explainTools', () => {
  it.each([
    { w: who('user-1'), tool: 'calculator', granted: true, reason: 'granted by subject envelope' },
    { w: who('user-1'), tool: 'mcp__fs__read', granted: true, reason: 'granted by subject envelope via mcp__fs__*' },
    { w: who('user-1'), tool: 'clock', granted: false, reason: 'denied: not in AllowedTools of the subject envelope' },
    { w: who(null, ['Harness.A', 'Harness.B']), tool: 'text', granted: true, reason: 'granted by roles Harness.A, Harness.B' },
    { w: who(null, ['Harness.B', 'Harness.A']), tool: 'json', granted: false, reason: 'denied: not in AllowedTools of roles Harness.A, Harness.B' },
    { w: who(null, ['Reader']), tool: 'knowledge', granted: true, reason: 'granted by role Reader' },
    { w: who(null, ['Reader']), tool: 'mcp__fs__read', granted: false, reason: "denied: server 'fs' not in AllowedMcpServers of role Reader" },
    { w: who(null), tool: 'clock', granted: true, reason: 'granted by default envelope' },
    { w: who(null), tool: 'http_fetch', granted: false, reason: 'denied: not in AllowedTools of the default envelope' },
    { w: who('user-1', [], true), tool: 'clock', granted: true, reason: 'granted by default envelope (anonymous)' },
    { w: who(null, [], true), tool: 'memory', granted: false, reason: 'denied: not in AllowedTools of the default envelope (anonymous)' },
    {
      w: who('user-2'),
      tool: 'clock',
      granted: true,
      reason: 'granted by subject envelope; execution denied: autonomy ceiling Supervised of the subject envelope is below Autonomous',
    },
    { w: who(null), tool: 'mcp__fs', granted: false, reason: "denied: 'mcp__fs' is not a tool name" },
  ])('explains $tool for $w.subjectId / $w.roles / anonymous $w.anonymous: $reason', ({ w, tool, granted, reason }) => {
    expect(explainTools(resolveEnvelope(config, w), [{ name: tool, riskTier: 'Trivial' }])).toEqual([{ name: tool, granted, reason }]);
  });

  it('lists every host tool once, in the order given', () => {
    const names = ['text', 'clock', 'memory', 'json'];
    const explained = explainTools(resolveEnvelope(config, who(null, ['Harness.A', 'Harness.B'])), names.map((name) => ({ name, riskTier: 'Low' })));
    expect(explained.map((e) => [e.name, e.granted])).toEqual([
      ['text', true],
      ['clock', false],
      ['memory', false],
      ['json', false],
    ]);
  });

  it('says a person approves each call under Supervised with approvals on, unless AutoApproveUpTo covers the tool', () => {
    const supervised = (autoApproveUpTo: 'None' | 'Trivial') =>
      resolveEnvelope({ default: { ...grant(['clock', 'http_fetch'], [], 'Supervised'), autoApproveUpTo }, bySubject: {}, byRole: {} }, who(null));
    const tools = [{ name: 'clock', riskTier: 'Trivial' }, { name: 'http_fetch', riskTier: 'High' }];
    expect(explainTools(supervised('Trivial'), tools, true).map((e) => e.reason)).toEqual([
      'granted by default envelope; auto-approved up to Trivial',
      'granted by default envelope; a person approves each call (Supervised ceiling)',
    ]);
    expect(explainTools(supervised('None'), tools, false)[0]!.reason).toMatch(/execution denied: autonomy ceiling Supervised/);
  });
});
