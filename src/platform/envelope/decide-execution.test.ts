import { describe, expect, it } from 'vitest';
import type { AutonomyTier } from './autonomy.js';
import { decideExecution } from './decide-execution.js';
import { decideTool } from './decide-tool.js';
import { narrowEnvelope } from './narrow-envelope.js';
import { resolveEnvelope } from './resolve-envelope.js';
import type { ToolDecision } from './tool-decision.js';
import { NO_BUDGET } from './budget.js';

const envelopeAt = (autonomyCeiling: AutonomyTier) =>
  resolveEnvelope(
    { default: { allowedTools: ['clock', 'mcp__s__*'], allowedMcpServers: ['s'], autonomyCeiling, autoApproveUpTo: 'None' as const, budget: NO_BUDGET }, bySubject: {}, byRole: {} },
    { subjectId: null, roles: [], anonymous: false },
  );

describe('decideExecution', () => {
  it.each([
    { ceiling: 'Autonomous', tool: 'clock', reason: null },
    { ceiling: 'Autonomous', tool: 'mcp__s__t', reason: null },
    { ceiling: 'Supervised', tool: 'clock', reason: 'autonomy-below-autonomous' },
    { ceiling: 'Supervised', tool: 'mcp__s__t', reason: 'autonomy-below-autonomous' },
    { ceiling: 'Restricted', tool: 'clock', reason: 'autonomy-below-autonomous' },
    { ceiling: 'Restricted', tool: 'mcp__s__t', reason: 'autonomy-below-autonomous' },
    { ceiling: 'Autonomous', tool: 'text', reason: 'not-in-allowed-tools' },
    { ceiling: 'Supervised', tool: 'text', reason: 'not-in-allowed-tools' },
    { ceiling: 'Restricted', tool: 'mcp__u__t', reason: 'server-not-allowed' },
    { ceiling: 'Restricted', tool: 'mcp__s', reason: 'unknown-tool' },
  ] as const)('under $ceiling, $tool gives $reason', ({ ceiling, tool, reason }) => {
    const decision = decideExecution(envelopeAt(ceiling), tool);
    if (reason === null) expect(decision).toEqual(decideTool(envelopeAt(ceiling), tool));
    else expect(decision).toMatchObject({ allowed: false, reason });
  });

  it.each(['Supervised', 'Restricted'] as const)('refuses a granted tool under %s although the catalog shows it', (ceiling) => {
    expect(decideTool(envelopeAt(ceiling), 'clock').allowed).toBe(true);
    expect(decideExecution(envelopeAt(ceiling), 'clock').allowed).toBe(false);
  });

  it('applies the request narrowing too', () => {
    expect(decideExecution(narrowEnvelope(envelopeAt('Autonomous'), ['mcp__s__t']), 'clock')).toMatchObject({ allowed: false, reason: 'not-requested' });
  });

  it('takes the lowest ceiling of combined roles', () => {
    const grant = (autonomyCeiling: AutonomyTier) => ({ allowedTools: ['clock'], allowedMcpServers: [], autonomyCeiling, autoApproveUpTo: 'None' as const, budget: NO_BUDGET });
    const resolved = resolveEnvelope(
      { default: grant('Autonomous'), bySubject: {}, byRole: { A: grant('Autonomous'), B: grant('Supervised') } },
      { subjectId: null, roles: ['A', 'B'], anonymous: false },
    );
    expect(decideExecution(resolved, 'clock')).toMatchObject({ allowed: false, reason: 'autonomy-below-autonomous' });
  });

  it('has no parameter that bypasses the ceiling: supervision only lets Supervised ask a person, never run unasked', () => {
    expect(decideExecution.length).toBe(3);
    const loose = decideExecution as (...args: unknown[]) => ToolDecision;
    expect(loose(envelopeAt('Supervised'), 'clock', { autoApprove: true, bypass: true }, true)).toMatchObject({ allowed: false });
    expect(decideExecution(envelopeAt('Restricted'), 'clock', { approvalsEnabled: true, riskTier: 'Trivial', requireApproval: null })).toMatchObject({ allowed: false });
    expect(decideExecution(envelopeAt('Supervised'), 'clock', { approvalsEnabled: true, riskTier: 'Trivial' })).toMatchObject({ allowed: true, approval: 'Supervised ceiling' });
    expect(decideExecution(narrowEnvelope(envelopeAt('Restricted'), ['clock']), 'clock')).toMatchObject({ allowed: false });
  });

  it('returns a frozen decision that a caller cannot flip', () => {
    const decision = decideExecution(envelopeAt('Supervised'), 'clock');
    expect(Object.isFrozen(decision)).toBe(true);
    expect(() => {
      (decision as { allowed: boolean }).allowed = true;
    }).toThrow(TypeError);
  });
});

describe('decideExecution with approvals on (DESIGN.md §13)', () => {
  const on = (riskTier: string, requireApproval: readonly string[] | 'all' | null = null) => ({ approvalsEnabled: true, riskTier, requireApproval });
  const supervised = (autoApproveUpTo: 'None' | 'Trivial' | 'Low' | 'Medium' | 'High') =>
    resolveEnvelope({ default: { allowedTools: ['clock'], allowedMcpServers: [], autonomyCeiling: 'Supervised', autoApproveUpTo, budget: NO_BUDGET }, bySubject: {}, byRole: {} }, { anonymous: true, subjectId: null, roles: [] });

  it('asks a person under Supervised unless the tool is at or below AutoApproveUpTo; Critical always asks', () => {
    expect(decideExecution(supervised('None'), 'clock', on('Trivial'))).toMatchObject({ allowed: true, approval: 'Supervised ceiling' });
    expect(decideExecution(supervised('Trivial'), 'clock', on('Trivial'))).not.toHaveProperty('approval');
    expect(decideExecution(supervised('Trivial'), 'clock', on('Low'))).toMatchObject({ approval: 'Supervised ceiling' });
    expect(decideExecution(supervised('High'), 'clock', on('Critical'))).toMatchObject({ approval: 'Supervised ceiling' });
    expect(decideExecution(supervised('High'), 'clock', on('Unheard-of'))).toMatchObject({ approval: 'Supervised ceiling' });
  });

  it('lets a bundle’s require-approval tighten, never widen', () => {
    expect(decideExecution(envelopeAt('Autonomous'), 'clock', on('Trivial', ['clock']))).toMatchObject({ allowed: true, approval: 'bundle require-approval' });
    expect(decideExecution(envelopeAt('Autonomous'), 'clock', on('Trivial', 'all'))).toMatchObject({ approval: 'bundle require-approval' });
    expect(decideExecution(envelopeAt('Autonomous'), 'clock', on('Trivial', ['other']))).not.toHaveProperty('approval');
    expect(decideExecution(supervised('High'), 'clock', on('Trivial', ['clock']))).toMatchObject({ approval: 'bundle require-approval' });
    expect(decideExecution(envelopeAt('Restricted'), 'clock', on('Trivial', ['clock']))).toMatchObject({ allowed: false });
    // With approvals off, require-approval changes nothing.
    expect(decideExecution(envelopeAt('Autonomous'), 'clock', { approvalsEnabled: false, riskTier: 'Trivial', requireApproval: 'all' })).not.toHaveProperty('approval');
  });
});
