import { describe, expect, it } from 'vitest';
import type { AutonomyTier } from './autonomy.js';
import { decideExecution } from './decide-execution.js';
import { decideTool } from './decide-tool.js';
import { narrowEnvelope } from './narrow-envelope.js';
import { resolveEnvelope } from './resolve-envelope.js';
import type { ToolDecision } from './tool-decision.js';

const envelopeAt = (autonomyCeiling: AutonomyTier) =>
  resolveEnvelope(
    { default: { allowedTools: ['clock', 'mcp__s__*'], allowedMcpServers: ['s'], autonomyCeiling }, bySubject: {}, byRole: {} },
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
    const grant = (autonomyCeiling: AutonomyTier) => ({ allowedTools: ['clock'], allowedMcpServers: [], autonomyCeiling });
    const resolved = resolveEnvelope(
      { default: grant('Autonomous'), bySubject: {}, byRole: { A: grant('Autonomous'), B: grant('Supervised') } },
      { subjectId: null, roles: ['A', 'B'], anonymous: false },
    );
    expect(decideExecution(resolved, 'clock')).toMatchObject({ allowed: false, reason: 'autonomy-below-autonomous' });
  });

  it('has no parameter that bypasses the ceiling', () => {
    expect(decideExecution.length).toBe(2);
    const loose = decideExecution as (...args: unknown[]) => ToolDecision;
    expect(loose(envelopeAt('Supervised'), 'clock', { autoApprove: true, bypass: true }, true)).toMatchObject({ allowed: false });
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
