// Per host tool: granted or not under the caller's envelope, and the rule that decided it, for
// GET /api/capabilities. Explains, never widens: it is decideTool's verdict with a note on execution —
// refused, or (DESIGN.md §13, approvals on) run only once a person approves each call.
import { decideExecution } from './decide-execution.js';
import { decideTool } from './decide-tool.js';
import type { ResolvedEnvelope } from './resolved-envelope.js';

export interface ToolExplanation {
  name: string;
  granted: boolean;
  reason: string;
}

/** A host tool as the explanation needs it: its name and risk tier (AutoApproveUpTo compares it). */
export interface HostTool {
  readonly name: string;
  readonly riskTier: string;
}

export function explainTools(envelope: ResolvedEnvelope, hostTools: readonly HostTool[], approvalsEnabled = false): ToolExplanation[] {
  return hostTools.map(({ name, riskTier }) => {
    const visible = decideTool(envelope, name);
    const runnable = decideExecution(envelope, name, approvalsEnabled ? { approvalsEnabled, riskTier } : undefined);
    let note = '';
    if (visible.allowed && !runnable.allowed) note = `; execution ${runnable.rule}`;
    else if (visible.allowed && runnable.approval !== undefined) note = `; a person approves each call (${runnable.approval})`;
    else if (visible.allowed && runnable.rule !== visible.rule) note = runnable.rule.slice(visible.rule.length);
    return { name, granted: visible.allowed, reason: visible.rule + note };
  });
}
